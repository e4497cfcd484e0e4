"""A match at a table of four (ulti/engine/fourmatch.py): the dealer sits out, 12 deals, tie-breaks go on.

Deals are played through ``FourMatch.new_deal`` by the random legal player of the property tests,
or by the opener giving up (opener −4, the other two +2 each), so each rule is checked on real deals.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.test_match import auction, hands_for
from tests.engine.test_properties import play_out
from ulti.engine import actions as act
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.fourmatch import ENGINE_DEALER, FOUR_MATCH_DEALS, FourMatch, four_table_deal
from ulti.tournaments import fours

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_four_match(seed: int, first_dealer: int, deals: int = FOUR_MATCH_DEALS) -> FourMatch:
    """A four-player match whose first ``deals`` deals are dealt from ``seed`` and played at random."""
    rng = random.Random(seed)
    match = FourMatch(first_dealer=first_dealer)
    for index in range(deals):
        if match.is_over:
            break
        play_out(match.new_deal(deal_hands(rng, match.dealer_of(index))), rng)
    return match


def give_up_deal(match: FourMatch) -> Deal:
    """A deal whose opener (the player on the dealer's left) bids M-S and gives up."""
    deal = match.new_deal(hands_for(match.dealer_of(len(match.deals))))
    auction(deal, deal.opener, "M-S")
    deal.apply(act.give_up(deal.opener))
    assert deal.is_over
    return deal


def test_each_player_sits_out_three_of_twelve_deals_and_opens_three() -> None:
    for first in range(4):
        match = FourMatch(first_dealer=first)
        sitters = Counter(match.sits_out(k) for k in range(FOUR_MATCH_DEALS))
        openers = Counter(match.position_of(k, 0) for k in range(FOUR_MATCH_DEALS))
        assert sitters == {p: 3 for p in range(4)}
        assert openers == {p: 3 for p in range(4)}


def test_the_dealer_sits_out_and_the_player_on_the_dealers_left_opens() -> None:
    match = FourMatch(first_dealer=1)
    for k in range(8):
        out = match.sits_out(k)
        assert out == (1 + k) % 4
        assert match.position_of(k, 0) == (out + 1) % 4  # the dealer's left opens (engine seat 0)
        assert match.position_of(k, ENGINE_DEALER) == (out + 3) % 4  # the dealer's right holds the engine's deal
        assert match.engine_seat_of(k, out) is None
        assert match.dealer_of(k) == ENGINE_DEALER


def test_the_player_sitting_out_scores_zero() -> None:
    match = FourMatch()
    for _ in range(4):
        give_up_deal(match)
    for k in range(4):
        scores = match.deal_scores(k)
        assert scores is not None
        assert scores[k] == 0
        assert scores[(k + 1) % 4] == -4  # the opener gave up
    assert match.totals() == [0, 0, 0, 0]


def test_a_table_of_four_plays_twelve_deals() -> None:
    assert FourMatch().deals_planned == 12
    for wrong in (6, 9, 8, 16):
        with pytest.raises(RecordError, match="deals_planned must be 12"):
            FourMatch(wrong)
    with pytest.raises(RecordError, match="first_dealer must be 0, 1, 2 or 3"):
        FourMatch(first_dealer=4)
    with pytest.raises(RecordError, match="players must be a list of 4 names"):
        FourMatch(players=["a", "b", "c"])


def test_tie_break_deals_continue_the_rotation() -> None:
    match = FourMatch(first_dealer=2)
    for _ in range(12):
        give_up_deal(match)
    assert match.totals() == [0, 0, 0, 0] and match.winner() is None and not match.is_over
    deal = give_up_deal(match)  # deal 12: position 2 deals again, 3 opens
    assert match.sits_out(12) == 2
    assert deal.result is not None and match.totals() == [2, 2, 0, -4]
    assert match.winner() is None  # positions 0 and 1 share the top
    give_up_deal(match)  # deal 13: position 3 sits out, 0 opens and gives up
    assert match.totals() == [-2, 4, 2, -4]
    assert match.winner() == 1 and match.is_over
    with pytest.raises(IllegalAction, match="the match is decided"):
        give_up_deal(match)


def test_a_deal_starts_only_after_the_last_one_ends() -> None:
    match = FourMatch()
    match.new_deal(deal_hands(random.Random(3), ENGINE_DEALER))
    with pytest.raises(IllegalAction, match="deal 0 is not finished"):
        match.new_deal(deal_hands(random.Random(4), ENGINE_DEALER))


def test_tournament_fours_uses_the_engines_rotation() -> None:
    assert fours.four_table_deal is four_table_deal
    assert fours.FOUR_TABLE_DEALS == FOUR_MATCH_DEALS
    assert fours.four_table_seats("ABCD", 2) == ("C", ("D", "A", "B"))


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), first=st.integers(min_value=0, max_value=3))
def test_four_column_sheet_sums_to_zero_and_the_sitter_out_scores_zero(seed: int, first: int) -> None:
    match = random_four_match(seed, first)
    sheet = match.score_sheet()
    assert len(sheet) == FOUR_MATCH_DEALS
    running = [0, 0, 0, 0]
    for k, row in enumerate(sheet):
        scores = match.deal_scores(k)
        assert scores is not None and len(row) == 4
        assert sum(row) == 0 and sum(scores) == 0
        assert scores[match.sits_out(k)] == 0
        engine = match.deals[k].result
        assert engine is not None
        assert [scores[match.position_of(k, s)] for s in range(3)] == list(engine.scores)
        running = [t + d for t, d in zip(running, scores, strict=True)]
        assert row == running
    assert match.totals() == sheet[-1]
    top = max(match.totals())
    assert (match.winner() is not None) == (match.totals().count(top) == 1)
