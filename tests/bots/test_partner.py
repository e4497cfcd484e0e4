"""Partner fusion: a defender's card valued with its partner's next card chosen from the partner's own view."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.bots.base import BOT_LEVELS, bot_for_level
from ulti.bots.expert import ExpertBot, PartnerExpert, PartnerTrumpsExpert
from ulti.bots.expert.partner import PartnerChoices, partner_values
from ulti.bots.sampling import Sampler, analyse
from ulti.bots.solver import Position, values_after
from ulti.bots.strong.play import position_of
from ulti.engine import actions as act
from ulti.engine.actions import Kind
from ulti.engine.cards import Card, iter_cards
from ulti.engine.contracts import parse_bid
from ulti.engine.deal import Deal
from ulti.engine.view import SeatView

DECLARER, DEFENDER, PARTNER = 1, 2, 0  # the opener declares; the defender plays second, its partner third


def _betli_defence(seed: int) -> Deal:
    """A betli declared by the opener at once (two random cards laid away), the declarer's random lead
    down: the defender to play second, its partner third."""
    rng = random.Random(seed)
    # a hand fit for a betli: the 7s, 8s and 9s, two of them traded for a 10 or a jack
    low = [c for c in range(32) if c & 7 < 3]
    rng.shuffle(low)
    middle = [c for c in range(32) if 3 <= c & 7 < 5]
    rng.shuffle(middle)
    declared = low[2:] + middle[:2]
    rest = [c for c in range(32) if c not in declared]
    rng.shuffle(rest)
    cards = rest
    hands = [sum(1 << c for c in cards[:10]), sum(1 << c for c in declared), sum(1 << c for c in cards[10:])]
    deal = Deal(hands, 0)
    high = sorted(declared, key=lambda c: c & 7)
    discard = (high[-1], high[-2])
    deal.apply(act.bid(DECLARER, parse_bid("N-B"), discard))
    for seat in (DEFENDER, PARTNER, DECLARER):
        deal.apply(act.pass_(seat))
    deal.apply(act.play(DECLARER, rng.choice(list(iter_cards(deal.legal_card_mask())))))
    assert deal.to_move == DEFENDER
    return deal


def _worlds(view: SeatView, seed: int, count: int) -> list[Position]:
    """``count`` worlds of the defender's view, as solver positions."""
    know = analyse(view)
    return [position_of(know, w) for w in Sampler(know).draw_many(random.Random(seed), count)]


def _plain(positions: list[Position], cards: list[Card]) -> list[int]:
    """Each card's defence total over the worlds, every world solved after it (plain sampling)."""
    return [-sum(values_after(pos, [card])[0] for pos in positions) for card in cards]


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000))
def test_the_partners_own_choice_never_values_a_card_above_plain_sampling(seed: int) -> None:
    # each world's solve lets the partner choose knowing every hand: its own view can only do as well for
    # the defence (per_defender at least the solved value), world by world
    deal = _betli_defence(seed)
    view = deal.seat_view(DEFENDER)
    positions = _worlds(view, seed, 8)
    cards = list(iter_cards(deal.legal_card_mask()))
    fused = partner_values(view, positions, cards, PartnerChoices(random.Random(seed), 6))
    for pos, *values in zip(positions, *fused, strict=True):
        assert all(v >= solved for v, solved in zip(values, values_after(pos, cards), strict=True))


def test_the_partner_sometimes_guesses_what_each_world_lets_it_see() -> None:
    # so the fusion can change a card's value: in some deal the partner's own choice costs the defence
    lower = 0
    for seed in range(12):
        deal = _betli_defence(seed)
        view = deal.seat_view(DEFENDER)
        positions = _worlds(view, seed, 8)
        cards = list(iter_cards(deal.legal_card_mask()))
        fused = [-sum(row) for row in partner_values(view, positions, cards, PartnerChoices(random.Random(seed), 6))]
        lower += sum(f < p for f, p in zip(fused, _plain(positions, cards), strict=True))
    assert lower > 0


def _swapped(deal: Deal) -> Deal:
    """``deal`` with a card of the defender and one of the declarer, of a suit neither has played, traded:
    the partner sees the same (such a pair is there in every deal of ``_betli_defence`` tried)."""
    played = [c >> 3 for c in deal.trick]
    for mine in iter_cards(deal.hands[DEFENDER]):
        for theirs in iter_cards(deal.hands[DECLARER]):
            if mine >> 3 == theirs >> 3 and mine >> 3 not in played:
                other = deal.copy()
                other.hands[DEFENDER] ^= (1 << mine) | (1 << theirs)
                other.hands[DECLARER] ^= (1 << mine) | (1 << theirs)
                return other
    raise AssertionError("no card to trade")


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_the_partner_chooses_from_its_own_view_alone(seed: int) -> None:
    # two deals the partner cannot tell apart (cards traded between the two hands it cannot see) get
    # the same card from it, whichever hides the cards where
    deal = _betli_defence(seed)
    card = next(iter_cards(deal.legal_card_mask()))
    deal.apply(act.play(DEFENDER, card))
    other = _swapped(deal)
    assert other.hands[PARTNER] == deal.hands[PARTNER] and other.hands[DEFENDER] != deal.hands[DEFENDER]
    first = PartnerChoices(random.Random(seed), 6).choose(deal, (card,))
    second = PartnerChoices(random.Random(seed), 6).choose(other, (card,))
    assert first == second
    assert deal.legal_card_mask() >> first & 1


def test_the_partner_expert_plays_a_legal_card_in_a_betli_defence() -> None:
    for seed in range(4):
        deal = _betli_defence(seed)
        view = deal.seat_view(DEFENDER)
        assert view.choices is not None
        # the defender may say kontra with its first card: declined here, the card is what is tested
        action = PartnerExpert(random.Random(seed)).act(replace(view, choices=replace(view.choices, kontra=None)))
        assert action.kind is Kind.PLAY
        assert action.card is not None and deal.legal_card_mask() >> action.card & 1


def test_the_partner_levels_are_arena_only() -> None:
    for level, cls in (("expert-partner", PartnerExpert), ("expert-partner-trumps", PartnerTrumpsExpert)):
        assert level not in BOT_LEVELS
        bot = bot_for_level(level, random.Random(0))
        assert isinstance(bot, cls) and bot.partner_fusion
    assert PartnerExpert.partner_trumps_from == 10 and PartnerTrumpsExpert.partner_trumps_from == 1
    assert not ExpertBot.partner_fusion
