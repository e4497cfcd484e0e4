"""The discard model: which discards a seat saw, how they weigh worlds, and its fit."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.bots.expert import expert_bot
from ulti.bots.expert.discard_fitted import COEFFICIENTS
from ulti.bots.expert.discard_model import (
    FEATURE_NAMES,
    discard_probability,
    pair_scores,
    pair_table,
    talon_weight,
)
from ulti.bots.levels import BOT_LEVELS
from ulti.bots.sampling import World, analyse
from ulti.bots.strong import SearchBot
from ulti.engine import actions as act
from ulti.engine.cards import FULL_DECK, CardSet, count, iter_cards, mask_of, parse_card
from ulti.engine.contracts import parse_bid
from ulti.engine.deal import Deal, Phase
from ulti.lab.configs import bot_for
from ulti.lab.discard_fit import fit_conditional_logit, from_level
from ulti.lab.readings import discard_weight, seen_discards


def _cards(text: str) -> CardSet:
    return mask_of(parse_card(c) for c in text.split())


def _card_pair(text: str) -> tuple[int, int]:
    a, b = (parse_card(c) for c in text.split())
    return a, b


# Seat 1 opens with 12 cards and a low club doubleton, which it lays away to void clubs.
SEAT0 = _cards("JC QC KC AC JS 7H 8H 9H JH QH")
SEAT1 = _cards("7C 8C AS TS KS QS 9S AH TH KH AD TD")
SEAT2 = _cards("9C TC 7S 8S 7D 8D 9D JD QD KD")


def _auction(seat1_takes_again: bool = False) -> Deal:
    deal = Deal([SEAT0, SEAT1, SEAT2], dealer=0)
    deal.apply(act.bid(1, parse_bid("M-S"), _card_pair("7C 8C")))
    deal.apply(act.take(2))
    deal.apply(act.bid(2, parse_bid("H-S"), _card_pair("7S 8S")))
    if seat1_takes_again:
        deal.apply(act.pass_(0))
        deal.apply(act.take(1))
        deal.apply(act.bid(1, parse_bid("M-40"), _card_pair("7S 8S")))
    return deal


def test_a_seat_that_took_the_talon_saw_the_discard_of_the_bidder_before_it() -> None:
    deal = _auction()
    seen = seen_discards(deal.seat_view(2).log, 2)
    assert [(d.seat, d.bid.code, d.pair) for d in seen] == [(1, "M-S", _cards("7C 8C"))]
    assert seen_discards(deal.seat_view(0).log, 0) == []  # it took no talon


def test_a_discard_says_nothing_once_its_bidder_took_the_talon_again() -> None:
    deal = _auction(seat1_takes_again=True)
    assert seen_discards(deal.seat_view(2).log, 2) == []


def test_the_fitted_model_lays_a_low_side_doubleton_away_rather_than_trumps_or_aces() -> None:
    bid = parse_bid("H-S")
    void, trumps, aces = _cards("7C 8C"), _cards("AH TH"), _cards("AS AD")
    p = {name: discard_probability(COEFFICIENTS["trumps"], SEAT1, bid, pair) for name, pair in
         (("void", void), ("trumps", trumps), ("aces", aces))}
    assert p["void"] > 10 * p["trumps"]
    assert p["void"] > 10 * p["aces"]


def test_a_world_where_the_discard_made_a_void_weighs_more_than_one_where_it_did_not() -> None:
    deal = _auction()
    know = analyse(deal.seat_view(2))
    weight = discard_weight(deal.seat_view(2).log, know)
    assert weight is not None
    true = World([SEAT0, SEAT1 & ~_cards("7C 8C"), deal.hands[2]], deal.talon)
    # seat 1 holding two more clubs (seat 0's jack and queen for its diamond ace and ten): no void made
    # (the fitted model: 0.99 against 0.45)
    swapped = _cards("AD TD JC QC")
    other = World([SEAT0 ^ swapped, (SEAT1 & ~_cards("7C 8C")) ^ swapped, deal.hands[2]], deal.talon)
    assert weight(true) > 2 * weight(other)


def test_the_fit_recovers_the_coefficients_its_discards_were_drawn_with() -> None:
    rng = random.Random(5)
    planted = [-1.0, -3.0, -1.5, -0.8, 0.0, -1.0, 0.0, 2.0, 0.5]
    assert len(planted) == len(FEATURE_NAMES)
    bid = parse_bid("M-S")
    tables, chosen = [], []
    deck = list(iter_cards(FULL_DECK))
    for _ in range(400):
        hand = mask_of(rng.sample(deck, 12))
        table = pair_table(hand, bid)
        scores = [sum(b * x for b, x in zip(planted, f, strict=True)) for f in table.features]
        top = max(scores)
        k = rng.choices(range(len(scores)), [math.exp(s - top) for s in scores])[0]
        tables.append(table)
        chosen.append(k)
    fitted = fit_conditional_logit(tables, chosen, penalty=0.1)
    for name, want, got in zip(FEATURE_NAMES, planted, fitted, strict=True):
        if name == "lower held":  # always 0 outside a betli: the penalty keeps it at 0
            assert got == 0.0
        else:
            assert abs(got - want) < 0.8, (name, want, got)  # strength and point card trade off


def test_the_fit_reads_every_discard_with_the_twelve_cards_it_was_made_from() -> None:
    examples = list(from_level("heuristic", 12, seed=3))
    assert examples
    for number, hand, bid, pair in examples:
        assert 0 <= number < 12 and bid.code
        assert count(hand) == 12 and hand & pair == pair and count(pair) == 2


@settings(max_examples=60, deadline=None)
@given(
    cards=st.permutations(range(32)),
    coefficients=st.lists(st.floats(-3.0, 3.0), min_size=len(FEATURE_NAMES), max_size=len(FEATURE_NAMES)),
    code=st.sampled_from(["M-S", "H-S", "N-B", "M-40U", "N-D"]),
    k=st.integers(0, 65),
)
def test_the_closed_form_probability_is_the_normalised_score_of_the_pair(
    cards: list[int], coefficients: list[float], code: str, k: int
) -> None:
    hand = mask_of(cards[:12])
    bid = parse_bid(code)
    table = pair_table(hand, bid)
    scores = pair_scores(coefficients, table)
    a, b = table.pairs[k]
    expected = math.exp(scores[k]) / sum(math.exp(s) for s in scores)
    assert math.isclose(discard_probability(coefficients, hand, bid, (1 << a) | (1 << b)), expected, rel_tol=1e-9)


def _played_contract() -> Deal:
    """Seat 2 declares a red party, having laid its spade doubleton away (a void made): the talon."""
    deal = _auction()
    for seat in (0, 1, 2):
        deal.apply(act.pass_(seat))
    while deal.phase is not Phase.PLAY:
        assert deal.to_move is not None  # the deal is not over
        seat = deal.to_move
        choices = deal.seat_view(seat).choices
        assert choices is not None and choices.kontra is not None
        deal.apply(act.kontra(seat, ()))
    return deal


def _talon_worlds(deal: Deal) -> tuple[World, World]:
    """The true world of ``_played_contract``, and one where the declarer kept its spades and laid its king
    and queen of diamonds away instead (a marriage broken, no void made): far less likely."""
    swapped = _cards("7S 8S KD QD")
    true = World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon)
    other = World([deal.hands[0], deal.hands[1], deal.hands[2] ^ swapped], deal.talon ^ swapped)
    return true, other


def test_a_defender_weighs_the_unseen_talon_by_what_the_declarer_would_lay_away() -> None:
    deal = _played_contract()
    assert deal.talon == _cards("7S 8S")
    defender = analyse(deal.seat_view(0))
    weight = talon_weight(defender)
    assert weight is not None
    true, other = _talon_worlds(deal)
    assert weight(true) > 10 * weight(other)
    assert talon_weight(analyse(deal.seat_view(2))) is None  # the declarer knows its talon


def test_the_expert_weighs_a_defenders_worlds_by_the_talon_too() -> None:
    deal = _played_contract()
    view = deal.seat_view(0)
    know = analyse(view)
    true, other = _talon_worlds(deal)
    ratios = []
    for bot in (bot_for("expert-blindtalon", random.Random(1)), expert_bot(random.Random(1))):
        assert isinstance(bot, SearchBot)
        likelihood = bot.play.likelihood(view, know)
        assert likelihood is not None
        ratios.append(likelihood(true) / likelihood(other))
    talon = talon_weight(know)
    assert talon is not None
    assert "expert-blindtalon" not in BOT_LEVELS
    assert math.isclose(ratios[1], ratios[0] * talon(true) / talon(other))
