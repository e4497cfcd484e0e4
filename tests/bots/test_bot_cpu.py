"""What makes a bot's deal cheaper changes none of its choices: the memos of the world weights, the chain
step that counts its way to the proposed cards, the discard model's terms shared by a hand's pairs, the
durchmars losers looked up per suit, and a no-trump kontra step valued without a search of its own."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import ulti.bots.expert.declarer_model as declarer_model
import ulti.bots.expert.discard_model as discard_model
import ulti.bots.strong.hand as hand_module
from ulti.bots.expert.discard_fitted import COEFFICIENTS
from ulti.bots.expert.discard_model import (
    ProbabilityCache,
    discard_family,
    discard_probability,
    pair_scores,
    pair_table,
)
from ulti.bots.levels import bot_for_level
from ulti.bots.memo import Memo
from ulti.bots.sampling.metropolis import _pick
from ulti.bots.solver import Position
from ulti.bots.strong.hand import durchmars_losers
from ulti.bots.strong.play import raise_doubles, solve_value
from ulti.engine.actions import Action
from ulti.engine.cards import SUIT_MASKS, CardSet, count, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.deal import Deal
from ulti.engine.play import NO_TRUMP, higher_table
from ulti.engine.view import SeatView
from ulti.lab.positions import positions


def random_masks(rng: random.Random) -> list[CardSet]:
    """Three or four disjoint card sets of random sizes (some empty), as a chain's locations hold."""
    cards = list(range(32))
    rng.shuffle(cards)
    masks, start = [], 0
    for _ in range(rng.choice((3, 4))):
        size = rng.randrange(0, 9)
        masks.append(sum(1 << c for c in cards[start : start + size]))
        start += size
    return masks


def test_the_counting_chain_step_picks_the_cards_the_listing_picked() -> None:
    """``_pick`` finds the card at each place of the list the chain step used to build: every location's
    cards in ascending order, location after location (so the same rng draws propose the same swap)."""
    rng = random.Random(40)
    for _ in range(300):
        masks = random_masks(rng)
        listed = [(c, i) for i, held in enumerate(masks) for c in iter_cards(held)]
        sizes = [m.bit_count() for m in masks]
        for n, (card, loc) in enumerate(listed):
            assert _pick(masks, sizes, n) == (loc, card)
        with pytest.raises(IndexError):
            _pick(masks, sizes, len(listed))


def test_the_counting_chain_step_skips_the_first_cards_location_as_the_listing_did() -> None:
    """The second card is the k-th of the other locations' cards: the place the step computes holds the
    card the old list of the others held."""
    rng = random.Random(41)
    for _ in range(300):
        masks = random_masks(rng)
        sizes = [m.bit_count() for m in masks]
        listed = [(c, i) for i, held in enumerate(masks) for c in iter_cards(held)]
        for i in range(len(masks)):
            others = [(c, j) for c, j in listed if j != i]
            for k, (card, loc) in enumerate(others):
                place = k if k < sum(sizes[:i]) else k + sizes[i]
                assert _pick(masks, sizes, place) == (loc, card)


def losers_card_by_card(hand: CardSet, trump: int) -> int:
    """``durchmars_losers`` as it was written before its per-suit lookups: every card of the hand in turn."""
    table = higher_table(trump)
    losers = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        outside = SUIT_MASKS[suit] & ~hand
        for card in iter_cards(mine):
            above_out = count(table[card] & outside)
            above_mine = count(table[card] & mine)
            if above_out > above_mine and (suit != trump or above_out > count(mine) - above_mine - 1):
                losers += 1
    return losers


def test_the_durchmars_losers_looked_up_per_suit_equal_the_card_by_card_count() -> None:
    rng = random.Random(43)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.choice((10, 12))))
        trump = rng.choice((0, 1, 2, 3, NO_TRUMP))
        assert durchmars_losers(hand, trump) == losers_card_by_card(hand, trump)


def test_a_memo_of_limit_zero_remembers_nothing_and_a_full_memo_starts_again() -> None:
    memo: Memo[int, float] = Memo(limit=0)
    assert memo.keep(1, 0.5) == 0.5 and memo.find(1) is None
    small: Memo[int, float] = Memo(limit=2)
    small.keep(1, 1.0), small.keep(2, 2.0), small.keep(3, 3.0)
    assert small.find(1) is None and small.find(3) == 3.0


def test_the_shared_hand_terms_give_each_pairs_probability_exactly() -> None:
    """A hand's pairs share its terms: the cached probability equals the closed form computed afresh, bit
    for bit, and the normalised pair scores to rounding, for every pair of random 12-card hands."""
    rng = random.Random(42)
    cache = ProbabilityCache()
    for code in ("H-S", "M-40", "N-B", "H-SU"):
        bid = BIDS_BY_CODE[code]
        if discard_family(bid) not in COEFFICIENTS:
            continue
        coefficients = COEFFICIENTS[discard_family(bid)]
        for _ in range(5):
            hand = sum(1 << c for c in rng.sample(range(32), 12))
            table = pair_table(hand, bid)
            scores = pair_scores(coefficients, table)
            norm = sum(pow(2.718281828459045, s) for s in scores)
            for (a, b), score in zip(table.pairs, scores, strict=True):
                pair = (1 << a) | (1 << b)
                fresh = discard_probability(coefficients, hand, bid, pair)
                assert cache.probability(hand, bid, pair) == fresh
                assert fresh == pytest.approx(pow(2.718281828459045, score) / norm, rel=1e-9)


@pytest.mark.parametrize("code", ["N-B", "N-D", "N-OB", "N-HD"])
def test_a_no_trump_raise_doubles_the_value_in_every_world(code: str) -> None:
    """A no-trump contract is won or lost whole: its part raised one step doubles the solved value, so the
    kontra decision takes the doubled value instead of solving again."""
    rng = random.Random(code)
    bid = BIDS_BY_CODE[code]
    (part, _), = bid.parts
    assert raise_doubles(bid) == frozenset({part})
    for _ in range(12):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[i * 10 : (i + 1) * 10]) for i in range(3)]
        declarer = rng.randrange(3)
        deal = Deal.at_play(hands, (declarer + 2) % 3, declarer, bid, NO_TRUMP, (1 << cards[30]) | (1 << cards[31]))
        deal.levels[part] = rng.randrange(3)
        pos = Position.from_deal(deal)
        raised = dict(pos.multipliers)
        raised[part] = raised.get(part, 1) * 2
        assert solve_value(replace(pos, multipliers=raised)) == 2 * solve_value(pos)


def test_a_contract_with_trumps_solves_every_raise() -> None:
    assert raise_doubles(BIDS_BY_CODE["H-S"]) == frozenset()
    assert raise_doubles(BIDS_BY_CODE["M-40U"]) == frozenset()
    assert Part.BETLI in raise_doubles(BIDS_BY_CODE["N-B"])


class FreshProbabilities:
    """The talon weight's probabilities computed afresh every time (the reference without a cache)."""

    def probability(self, hand: CardSet, bid: object, pair: CardSet) -> float:
        """``discard_probability`` with the family's coefficients."""
        assert hasattr(bid, "code")
        return discard_probability(COEFFICIENTS[discard_family(bid)], hand, bid, pair)  # type: ignore[arg-type]


def decisions(level: str, views: list[SeatView]) -> list[Action]:
    """One bot of ``level`` (a seeded rng) deciding every view in turn, as a bot decides a deal's turns."""
    bot = bot_for_level(level, random.Random(40))
    return [bot.act(view) for view in views]


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_remembered_weights_change_no_choice(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    """One bot deciding the views of seeded deals in turn (auction, talon, trump, kontra and card play)
    takes the same actions with every memo on as with every memo off (nothing remembered from one world or
    decision to the next)."""
    views = positions(3, 36)
    with_memos = decisions(level, views)
    with monkeypatch.context() as patch:
        patch.setattr(hand_module, "_LIKELIHOODS", Memo(limit=0))
        patch.setattr(declarer_model, "_WEIGHTS", Memo(limit=0))
        patch.setattr(discard_model, "_PROBABILITIES", FreshProbabilities())
        without = decisions(level, views)
    assert with_memos == without
