"""docs/rules.md §7 and §8.4: match length, rotation, winner and tie-break deals (M-1..M-3, §9 A23).

Scores are produced by real deals played through ``Match.new_deal``:
- give-up: the opener bids M-S and concedes: opener −4, the others +2 each;
- lost betli: a non-opener bids N-B and wins trick 1 with the ♣A: declarer −10, the others +5 each;
- open durchmars: a non-opener holding all clubs and the ♠A, ♦A bids N-OD and takes all ten: +48, −24, −24.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ulti.engine import actions as act
from ulti.engine.cards import Card, CardSet, cards_of, iter_cards, mask_of, parse_card
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import opener_of
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.match import Match

ALL_CLUBS_AND_TWO_ACES = "7C 8C 9C TC JC QC KC AC AS AD"


def cards(text: str) -> list[Card]:
    """Card ints from codes such as ``"AS KS 7H"``."""
    return [parse_card(code) for code in text.split()]


def hands_for(dealer: int, fixed: dict[int, str] | None = None) -> list[CardSet]:
    """Hands for a deal by ``dealer``: ``fixed[seat]`` cards go to that seat, the rest fill up in deck order."""
    fixed = fixed or {}
    opener = opener_of(dealer)
    used = mask_of(c for text in fixed.values() for c in cards(text))
    rest = [c for c in range(32) if not used >> c & 1]
    hands = []
    for seat in range(3):
        own = cards(fixed.get(seat, ""))
        need = (12 if seat == opener else 10) - len(own)
        own, rest = own + rest[:need], rest[need:]
        hands.append(mask_of(own))
    return hands


def auction(deal: Deal, declarer: int, code: str) -> None:
    """The opener opens M-S (or ``code`` if it is the declarer); ``declarer`` then bids ``code``; all pass."""
    opener = deal.opener
    first = code if declarer == opener else "M-S"
    a, b = cards_of(deal.hands[opener])[:2]
    deal.apply(act.bid(opener, BIDS_BY_CODE[first], (a, b)))
    seat = (opener + 1) % 3
    while deal.phase is Phase.AUCTION:
        if seat == declarer and deal.high_bidder != declarer:
            deal.apply(act.bid(seat, BIDS_BY_CODE[code]))
        else:
            deal.apply(act.pass_(seat))
        seat = (seat + 1) % 3
    assert deal.declarer == declarer
    assert deal.contract is BIDS_BY_CODE[code]


def play_first_legal(deal: Deal) -> None:
    """Play the lowest legal card of the seat on turn."""
    seat = deal.to_move
    assert seat is not None, "the deal is over"
    deal.apply(act.play(seat, next(iter_cards(deal.choices(seat).cards))))


def give_up_deal(match: Match) -> Deal:
    """A deal whose opener bids M-S and gives up."""
    deal = match.new_deal(hands_for(match.dealer_of(len(match.deals))))
    auction(deal, deal.opener, "M-S")
    deal.apply(act.give_up(deal.opener))
    assert deal.is_over
    return deal


def lost_betli_deal(match: Match, declarer: int) -> Deal:
    """A deal where non-opener ``declarer`` bids betli and wins trick 1 with the ♣A."""
    deal = match.new_deal(hands_for(match.dealer_of(len(match.deals)), {declarer: "AC"}))
    auction(deal, declarer, "N-B")
    deal.apply(act.play(declarer, parse_card("AC")))
    play_first_legal(deal)
    play_first_legal(deal)
    assert deal.is_over
    return deal


def won_open_durchmars_deal(match: Match, declarer: int) -> Deal:
    """A deal where non-opener ``declarer`` bids N-OD and takes all ten tricks."""
    deal = match.new_deal(hands_for(match.dealer_of(len(match.deals)), {declarer: ALL_CLUBS_AND_TWO_ACES}))
    auction(deal, declarer, "N-OD")
    for lead in reversed(cards(ALL_CLUBS_AND_TWO_ACES)):
        deal.apply(act.play(declarer, lead))
        play_first_legal(deal)
        play_first_legal(deal)
    assert deal.is_over
    return deal


def play_m2_first_six(match: Match) -> None:
    """Six deals (seat 0 deals first) that leave the totals at +12, +12, −24."""
    give_up_deal(match)  # opener 1: (2, -4, 2)
    give_up_deal(match)  # opener 2: (2, 2, -4)
    give_up_deal(match)  # opener 0: (-4, 2, 2)
    lost_betli_deal(match, 2)  # opener 1: (5, 5, -10)
    give_up_deal(match)  # opener 2: (2, 2, -4)
    lost_betli_deal(match, 2)  # opener 0: (5, 5, -10)


def test_deal_results_used_here() -> None:
    match = Match(6, 0)
    assert give_up_deal(match).result.scores == (2, -4, 2)  # type: ignore[union-attr]
    assert lost_betli_deal(match, 0).result.scores == (-10, 5, 5)  # type: ignore[union-attr]
    assert won_open_durchmars_deal(match, 1).result.scores == (-24, 48, -24)  # type: ignore[union-attr]
    assert match.totals() == [-32, 49, -17]


def test_M1_nine_deals_rotate_dealer_and_opener() -> None:
    match = Match(9, 0)
    dealers, openers = [], []
    for index in range(9):
        assert match.dealer_of(index) == index % 3
        deal = give_up_deal(match)
        dealers.append(deal.dealer)
        openers.append(deal.opener)
    assert dealers == [0, 1, 2, 0, 1, 2, 0, 1, 2]
    assert openers == [1, 2, 0, 1, 2, 0, 1, 2, 0]
    assert Counter(dealers) == {0: 3, 1: 3, 2: 3}
    assert Counter(openers) == {0: 3, 1: 3, 2: 3}
    assert len(match.deals) == 9
    # every seat gave up three times and received 2 from six give-ups of others
    assert match.totals() == [0, 0, 0]


def test_M2_two_way_tie_plays_deal_7_and_stops_when_one_seat_leads() -> None:
    match = Match(6, 0)
    play_m2_first_six(match)
    assert match.totals() == [12, 12, -24]
    assert match.winner() is None
    assert not match.is_over
    assert match.dealer_of(6) == 0
    deal = give_up_deal(match)  # deal 7
    assert (deal.dealer, deal.opener) == (0, 1)
    assert match.totals() == [14, 8, -22]
    assert match.winner() == 0
    assert match.is_over
    with pytest.raises(IllegalAction):
        match.new_deal(hands_for(1))
    assert len(match.deals) == 7


def test_M3_three_way_tie_plays_extra_deals_until_one_seat_leads() -> None:
    match = Match(6, 0)
    for _ in range(6):
        give_up_deal(match)
    assert match.totals() == [0, 0, 0]
    assert match.winner() is None
    assert not match.is_over
    deal = give_up_deal(match)  # deal 7: seat 1 opens and gives up
    assert (deal.dealer, deal.opener) == (0, 1)
    assert match.totals() == [2, -4, 2]
    assert match.winner() is None  # seats 0 and 2 still share the top
    assert not match.is_over
    deal = give_up_deal(match)  # deal 8: the rotation continues
    assert (deal.dealer, deal.opener) == (1, 2)
    assert match.totals() == [4, -2, -2]
    assert match.winner() == 0
    assert match.is_over


def test_tie_break_may_be_won_by_a_seat_that_was_not_tied() -> None:
    # §9 A23: after +12, +12, −24 seat 2 wins deal 7 big and takes the match
    match = Match(6, 0)
    play_m2_first_six(match)
    deal = won_open_durchmars_deal(match, 2)
    assert deal.dealer == 0
    assert match.totals() == [-12, -12, 24]
    assert match.winner() == 2
    assert match.is_over


def test_winner_after_the_last_planned_deal_without_tie() -> None:
    match = Match(6, 0)
    for _ in range(5):
        give_up_deal(match)
    assert match.winner() is None  # not all planned deals played
    lost_betli_deal(match, 1)  # deal 6: dealer 2, opener 0; seat 1 loses a betli
    assert match.totals() == [9, -12, 3]
    assert match.winner() == 0
    assert match.is_over


def test_no_winner_before_the_planned_deals_even_with_a_clear_leader() -> None:
    match = Match(6, 0)
    won_open_durchmars_deal(match, 2)
    assert match.totals() == [-24, -24, 48]
    assert match.winner() is None
    assert not match.is_over


def test_new_deal_refused_while_the_last_deal_is_unfinished() -> None:
    match = Match(6, 0)
    deal = match.new_deal(hands_for(0))
    with pytest.raises(IllegalAction):
        match.new_deal(hands_for(1))
    assert match.deals == [deal]
    auction(deal, deal.opener, "M-S")
    with pytest.raises(IllegalAction):  # trump phase: still unfinished
        match.new_deal(hands_for(1))
    deal.apply(act.give_up(deal.opener))
    nxt = match.new_deal(hands_for(1))
    assert nxt.dealer == 1
    assert len(match.deals) == 2


def test_unfinished_last_planned_deal_decides_nothing() -> None:
    match = Match(6, 0)
    for _ in range(5):
        give_up_deal(match)
    assert match.totals() == [4, -2, -2]  # seat 0 leads alone, but one planned deal is left
    deal = match.new_deal(hands_for(match.dealer_of(5)))
    assert len(match.deals) == 6
    assert not deal.is_over
    assert match.winner() is None
    assert not match.is_over
    assert match.totals() == [4, -2, -2]  # only finished deals count


def test_a_given_up_deal_counts_as_a_deal() -> None:
    match = Match(6, 1)
    for _ in range(6):
        give_up_deal(match)
    assert len(match.deals) == 6
    assert all(d.result is not None and d.result.given_up for d in match.deals)
    assert match.dealer_of(6) == 1  # the seventh deal continues the rotation


@pytest.mark.parametrize("planned", [6, 9, 12])
@pytest.mark.parametrize("first", [0, 1, 2])
def test_each_seat_deals_and_opens_planned_over_three_times(planned: int, first: int) -> None:
    match = Match(planned, first)
    dealers = [match.dealer_of(i) for i in range(planned)]
    assert dealers[0] == first
    assert all(dealers[i + 1] == (dealers[i] + 1) % 3 for i in range(planned - 1))
    openers = [(d + 1) % 3 for d in dealers]
    assert Counter(dealers) == {0: planned // 3, 1: planned // 3, 2: planned // 3}
    assert Counter(openers) == {0: planned // 3, 1: planned // 3, 2: planned // 3}


def test_new_deal_uses_the_rotation_dealer() -> None:
    match = Match(6, 2)
    got = []
    for _ in range(4):
        deal = give_up_deal(match)
        got.append((deal.dealer, deal.opener))
    assert got == [(2, 0), (0, 1), (1, 2), (2, 0)]


def test_totals_always_sum_to_zero() -> None:
    match = Match(6, 0)
    play_m2_first_six(match)
    won_open_durchmars_deal(match, 2)
    for row in match.score_sheet():
        assert sum(row) == 0
    assert match.score_sheet()[-1] == match.totals()
    assert len(match.score_sheet()) == 7


@pytest.mark.parametrize("planned", [0, 3, 7, 10, 15])
def test_only_6_9_or_12_deals(planned: int) -> None:
    with pytest.raises(RecordError):
        Match(planned, 0)
