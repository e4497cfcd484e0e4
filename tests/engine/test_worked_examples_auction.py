"""docs/rules.md §8.1: the auction examples A-1..A-11, each played on a real deal.

Seats: the dealer is seat 2, so the opener O (``OPN``) is seat 0, then P is seat 1 and Q is seat 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import Card, CardSet, mask_of, parse_card
from ulti.engine.contracts import BIDS, BIDS_BY_CODE, Bid
from ulti.engine.deal import Deal, Phase
from ulti.engine.errors import IllegalAction
from ulti.engine.play import NO_TRUMP

DEALER = 2
OPN, P, Q = 0, 1, 2
HANDS = (
    "AC TC KC QC JC 9C 8C 7C AS TS KS QS",  # O, the opener: 12 cards
    "JS 9S 8S 7S AD TD KD QD JD 9D",  # P
    "8D 7D AH TH KH QH JH 9H 8H 7H",  # Q
)


def cards(text: str) -> list[Card]:
    """Card ints from codes such as ``"AS KS 7H"``."""
    return [parse_card(code) for code in text.split()]


def mask(text: str) -> CardSet:
    """The card mask of ``text``."""
    return mask_of(cards(text))


def pair(text: str) -> tuple[Card, Card]:
    """Two cards to discard."""
    a, b = cards(text)
    return (a, b)


def bid(code: str) -> Bid:
    """The bid with record code ``code``."""
    return BIDS_BY_CODE[code]


def codes(bids: list[Bid]) -> list[str]:
    """The record codes of ``bids``."""
    return [b.code for b in bids]


def new_deal() -> Deal:
    """A fresh deal at the start of the auction, O to open."""
    deal = Deal([cards(h) for h in HANDS], DEALER)
    assert deal.opener == OPN
    return deal


def snapshot(deal: Deal) -> list[dict[str, Any]]:
    """Everything any seat or a spectator can see, plus the raw auction state."""
    views: list[dict[str, Any]] = [deal.view(None)] + [deal.view(s) for s in range(3)]
    views.append({"hands": list(deal.hands), "talon": deal.talon, "passes": deal.passes, "len": len(deal.history)})
    return views


def assert_illegal(deal: Deal, action: Action) -> None:
    """``action`` is refused with ``IllegalAction`` and nothing changes."""
    before = snapshot(deal)
    with pytest.raises(IllegalAction):
        deal.apply(action)
    assert snapshot(deal) == before


def open_with(deal: Deal, code: str, discard: str = "QS KS") -> None:
    """O discards two cards and names the opening bid."""
    deal.apply(act.bid(OPN, bid(code), pair(discard)))


def test_A1_take_and_rebid_then_three_passes() -> None:
    deal = new_deal()
    open_with(deal, "M-S", "QS KS")
    assert deal.talon == mask("QS KS")
    deal.apply(act.take(P))
    assert deal.hands[P] == mask(HANDS[P]) | mask("QS KS")
    assert deal.choices(P).must_discard
    deal.apply(act.bid(P, bid("M-SU"), pair("8S 9S")))
    deal.apply(act.pass_(Q))
    deal.apply(act.pass_(OPN))
    assert deal.phase is Phase.AUCTION  # two passes are not enough
    assert deal.view(None)["auction"]["passes"] == 2
    deal.apply(act.pass_(P))
    assert deal.phase is Phase.TRUMP  # type: ignore[comparison-overlap]  # mypy keeps the earlier narrowing of deal.phase
    assert deal.declarer == P
    assert deal.contract is bid("M-SU")
    # the talon is P's own discards
    assert deal.talon == mask("8S 9S")
    assert deal.view(P)["talon"] == ["8S", "9S"]
    ch = deal.choices(P)
    assert ch.trumps == [0, 1, 2]
    assert not ch.may_give_up
    deal.apply(act.trump(P, 1))
    assert deal.phase is Phase.PLAY
    assert deal.trump == 1
    assert deal.to_move == P  # the declarer leads trick 1
    assert deal.held_seven(P) == parse_card("7S")


def test_A2_standing_20_100_blocks_its_rung_and_below() -> None:
    deal = new_deal()
    open_with(deal, "M-20")
    ch = deal.choices(P)
    illegal = ["M-40U", "H-40", "M-SU", "N-B", "N-D", "M-40", "M-20", "M-S", "H-S"]
    for code in illegal:
        assert code not in codes(ch.bids)
        assert_illegal(deal, act.bid(P, bid(code)))
    assert "H-SU" in codes(ch.bids)
    assert codes(ch.bids) == [b.code for b in BIDS if b.rung >= 8]
    assert min(b.rung for b in ch.bids) == 8
    deal.apply(act.bid(P, bid("H-SU")))
    assert deal.high_bid is bid("H-SU")
    assert deal.high_bidder == P


def test_A3_betli_beats_ulti_but_40_100_does_not() -> None:
    deal = new_deal()
    open_with(deal, "M-SU")
    ch = deal.choices(P)
    assert "N-B" in codes(ch.bids)
    assert "M-40" not in codes(ch.bids)
    assert_illegal(deal, act.bid(P, bid("M-40")))
    deal.apply(act.bid(P, bid("N-B")))
    assert deal.high_bid is bid("N-B")


def test_A4_heart_betli_beats_hearts_ulti_but_bids_worth_8_do_not() -> None:
    deal = new_deal()
    open_with(deal, "H-SU")
    ch = deal.choices(P)
    assert "N-HB" in codes(ch.bids)
    for code in ("H-40", "M-20"):
        assert code not in codes(ch.bids)
        assert_illegal(deal, act.bid(P, bid(code)))
    deal.apply(act.bid(P, bid("N-HB")))
    assert deal.high_bid is bid("N-HB")


def test_A5_opener_takes_back_own_discards_and_bids_betli() -> None:
    deal = new_deal()
    open_with(deal, "M-S", "QS KS")
    deal.apply(act.pass_(P))
    deal.apply(act.pass_(Q))
    assert deal.passes == 2
    assert deal.phase is Phase.AUCTION
    ch = deal.choices(OPN)
    assert ch.may_pass and ch.may_take and not ch.must_discard
    deal.apply(act.take(OPN))
    assert deal.hands[OPN] == mask(HANDS[OPN])  # the 12 dealt cards again
    deal.apply(act.bid(OPN, bid("N-B"), pair("AS TS")))
    assert deal.passes == 0
    assert deal.view(P)["auction"]["passes"] == 0
    deal.apply(act.pass_(P))
    deal.apply(act.pass_(Q))
    assert deal.phase is Phase.AUCTION
    deal.apply(act.pass_(OPN))
    assert deal.declarer == OPN
    assert deal.contract is bid("N-B")
    assert deal.phase is Phase.PLAY  # type: ignore[comparison-overlap]  # no trump to name (mypy keeps the earlier narrowing)
    assert deal.trump == NO_TRUMP
    assert deal.talon == mask("AS TS")


def test_A6_take_after_a_bid_without_the_talon_gets_the_openers_discards() -> None:
    deal = new_deal()
    open_with(deal, "M-S", "QS KS")
    deal.apply(act.bid(P, bid("M-40")))
    assert deal.talon == mask("QS KS")  # unchanged by a bid without the talon
    assert deal.hands[P] == mask(HANDS[P])
    deal.apply(act.take(Q))
    assert deal.hands[Q] == mask(HANDS[Q]) | mask("QS KS")
    take_entry = deal.view(Q)["log"][-1]
    assert take_entry == {"seat": Q, "action": "take", "cards": ["QS", "KS"]}
    ch = deal.choices(Q)
    assert ch.must_discard and not ch.may_pass and not ch.may_take
    assert ch.bids and all(b.rung > 3 for b in ch.bids)
    assert codes(ch.bids) == [b.code for b in BIDS if b.rung > 3]
    assert_illegal(deal, act.bid(Q, bid("M-40"), pair("QS KS")))
    assert_illegal(deal, act.bid(Q, bid("M-SU")))  # 12 cards: the bid must discard 2
    deal.apply(act.bid(Q, bid("M-SU"), pair("7D 8D")))
    assert deal.talon == mask("7D 8D")
    assert deal.high_bidder == Q


def test_A7_at_the_top_rung_only_pass_is_allowed() -> None:
    deal = new_deal()
    open_with(deal, "H-20UO")
    assert bid("H-20UO").rung == 20
    for seat in (P, Q, OPN):
        ch = deal.choices(seat)
        assert list(ch.bids) == []
        assert not ch.may_take
        assert ch.may_pass
        assert_illegal(deal, act.take(seat))
        for b in BIDS:
            assert_illegal(deal, act.bid(seat, b))
        deal.apply(act.pass_(seat))
    assert deal.declarer == OPN
    assert deal.contract is bid("H-20UO")
    assert deal.phase is Phase.PLAY


def test_A8_seat_that_took_the_talon_may_not_pass() -> None:
    deal = new_deal()
    open_with(deal, "M-S")
    deal.apply(act.pass_(P))
    deal.apply(act.take(Q))
    ch = deal.choices(Q)
    assert not ch.may_pass
    assert not ch.may_take
    assert ch.must_discard
    assert_illegal(deal, act.pass_(Q))
    assert_illegal(deal, act.take(Q))
    assert_illegal(deal, act.bid(Q, bid("M-40")))  # no discard
    assert_illegal(deal, act.bid(Q, bid("M-40"), pair("AS KH")))  # AS is not in Q's hand
    assert_illegal(deal, act.bid(Q, bid("M-40"), pair("KH KH")))  # two different cards
    deal.apply(act.bid(Q, bid("M-40"), pair("QS KS")))
    assert deal.choices(P).may_pass is False  # not P's turn
    assert deal.choices(OPN).may_pass


def test_A9_passing_is_not_final() -> None:
    deal = new_deal()
    open_with(deal, "M-S")
    deal.apply(act.pass_(P))
    deal.apply(act.bid(Q, bid("M-40")))
    deal.apply(act.pass_(OPN))
    ch = deal.choices(P)
    assert ch.may_take
    assert ch.may_pass
    assert codes(ch.bids) == [b.code for b in BIDS if b.rung > 3]
    deal.apply(act.take(P))
    deal.apply(act.bid(P, bid("N-B"), pair("QS KS")))
    assert deal.high_bidder == P
    assert deal.passes == 0


def test_A10_give_up_of_plain_minor_simple_game() -> None:
    deal = new_deal()
    open_with(deal, "M-S")
    for seat in (P, Q, OPN):
        deal.apply(act.pass_(seat))
    assert deal.phase is Phase.TRUMP
    assert deal.choices(OPN).may_give_up
    assert_illegal(deal, act.give_up(P))  # only the declarer
    deal.apply(act.give_up(OPN))
    assert deal.phase is Phase.DONE  # type: ignore[comparison-overlap]  # mypy keeps the earlier narrowing of deal.phase
    assert deal.is_over
    assert deal.result is not None
    assert deal.result.given_up
    assert deal.result.scores == (-4, 2, 2)
    assert deal.tricks == []  # no play
    assert_illegal(deal, act.trump(OPN, 1))
    assert_illegal(deal, act.play(OPN, parse_card("AC")))


def test_A11_hearts_simple_game_cannot_be_given_up() -> None:
    deal = new_deal()
    open_with(deal, "H-S")
    for seat in (P, Q, OPN):
        deal.apply(act.pass_(seat))
    assert deal.phase is Phase.PLAY  # hearts are trumps: nothing to name
    assert deal.trump == 3
    ch = deal.choices(OPN)
    assert not ch.may_give_up
    assert ch.trumps == []
    assert ch.cards == deal.hands[OPN]
    assert_illegal(deal, act.give_up(OPN))
    assert_illegal(deal, act.trump(OPN, 1))
    deal.apply(act.play(OPN, parse_card("AC")))
    assert deal.trick == [parse_card("AC")]


def test_A11_no_other_bid_than_plain_minor_simple_game_may_be_given_up() -> None:
    deal = new_deal()
    open_with(deal, "M-40")
    for seat in (P, Q, OPN):
        deal.apply(act.pass_(seat))
    assert deal.phase is Phase.TRUMP
    assert not deal.choices(OPN).may_give_up
    assert_illegal(deal, act.give_up(OPN))
    assert_illegal(deal, act.trump(OPN, 3))  # hearts cannot be named for a minor-suit bid
