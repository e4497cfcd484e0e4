"""One test per rule of docs/rules.md not covered by the worked examples: §1 (the bid table), §2.1 (public
information), §3.1, §3.4-§3.6 (card play) and §6 (kontra)."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any

import pytest

from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import Card, CardSet, iter_cards, mask_of, parse_card, parse_suit
from ulti.engine.contracts import BIDS, BIDS_BY_CODE, Bid, Part, TrumpKind, bids_above, parse_bid
from ulti.engine.deal import Deal, Phase
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.play import NO_TRUMP, beats, legal_cards, trick_winner_index

SPADES = parse_suit("S")
S, U, P40, P20, D, B = Part.SIMPLE, Part.ULTI, Part.FORTY_HUNDRED, Part.TWENTY_HUNDRED, Part.DURCHMARS, Part.BETLI

# ---------------------------------------------------------------------------- helpers


def cards(text: str) -> list[Card]:
    """Card ints from codes such as ``"AS KS 7H"``."""
    return [parse_card(code) for code in text.split()]


def mask(text: str) -> CardSet:
    """The card mask of ``text``."""
    return mask_of(cards(text))


def card(code: str) -> Card:
    """One card."""
    return parse_card(code)


def bid(code: str) -> Bid:
    """The bid with record code ``code``."""
    return BIDS_BY_CODE[code]


def lowest(cardset: CardSet) -> Card:
    """The lowest card of a non-empty set."""
    return next(iter_cards(cardset))


def snapshot(deal: Deal) -> list[dict[str, Any]]:
    """Everything any seat or a spectator can see, plus the raw kontra state."""
    views: list[dict[str, Any]] = [deal.view(None)] + [deal.view(s) for s in range(3)]
    views.append({"levels": dict(deal.levels), "chain": deal.chain_level, "history": len(deal.history)})
    return views


def assert_illegal(deal: Deal, action: Action) -> None:
    """``action`` is refused with ``IllegalAction`` and nothing changes."""
    before = snapshot(deal)
    with pytest.raises(IllegalAction):
        deal.apply(action)
    assert snapshot(deal) == before


# Declarer D = seat 0 (dealer 2, so D is also the opener), X = seat 1, Y = seat 2.
# D leads ♣A and wins trick 1; if D leads ♦K (♠ trumps), Y's ♦10 wins it.
PLAY_HANDS = (
    "7S AS TS KS QS AC KC AD KD AH",
    "8S 9S JS 7C 8C 9C 7D 8D 9D 7H",
    "TC QC JC TD QD JD 8H 9H TH JH",
)
PLAY_TALON = "QH KH"
DECL, X, Y = 0, 1, 2


def at_play(code: str, trump: int = SPADES) -> Deal:
    """A deal at the start of play: seat 0 declares ``code`` with the hands above."""
    deal = Deal.at_play([mask(h) for h in PLAY_HANDS], 2, DECL, bid(code), trump, mask(PLAY_TALON))
    assert deal.phase is Phase.PLAY
    return deal


def play(deal: Deal, *moves: tuple[int, str]) -> None:
    """Play ``(seat, card code)`` moves in order."""
    for seat, code in moves:
        deal.apply(act.play(seat, card(code)))


def trick_one_won_by_declarer(deal: Deal) -> None:
    """D leads ♣A, X and Y follow low: D wins trick 1."""
    play(deal, (DECL, "AC"), (X, "7C"), (Y, "TC"))
    assert deal.tricks[0].winner == DECL


def play_out(deal: Deal) -> None:
    """Play the lowest legal card until the deal ends (a play by the trick-2 leader closes any chain)."""
    while deal.phase is Phase.PLAY:
        seat = deal.leader if deal.in_chain else deal.to_move
        assert seat is not None  # the play always has a leader and a seat on turn
        deal.apply(act.play(seat, lowest(deal.choices(seat).cards)))


# ---------------------------------------------------------------------------- §1 the bid table

# docs/rules.md §1.4, transcribed: rung, key, code, parts (value each), value per defender.
BID_TABLE = """
1  0+1  M-S     S1            1
2  0+2  H-S     S2            2
3  4+0  M-40    40:4          4
4  4+1  M-SU    U4 S1         5
5  5+0  N-B     B5            5
6  6+0  N-D     D6            6
7  8+0  M-20    20:8          8
7  8+0  M-40U   40:4 U4       8
7  8+0  H-40    40:8          8
8  8+2  H-SU    U8 S2         10
9  10+0 M-40D   40:4 D6       10
9  10+0 M-UD    U4 D6         10
9  10+0 N-HB    B10           10
10 12+0 M-20U   20:8 U4       12
10 12+0 N-HD    D12           12
11 14+0 M-20D   20:8 D6       14
11 14+0 M-40UD  40:4 U4 D6    14
12 16+0 H-20    20:16         16
12 16+0 H-40U   40:8 U8       16
13 18+0 M-20UD  20:8 U4 D6    18
14 20+0 H-40D   40:8 D12      20
14 20+0 H-UD    U8 D12        20
14 20+0 N-OB    B20           20
15 24+0 H-20U   20:16 U8      24
15 24+0 N-OD    D24           24
16 28+0 M-40O   40:4 O24      28
16 28+0 M-UO    U4 O24        28
16 28+0 H-20D   20:16 D12     28
16 28+0 H-40UD  40:8 U8 D12   28
17 32+0 M-20O   20:8 O24      32
17 32+0 M-40UO  40:4 U4 O24   32
17 32+0 H-40O   40:8 O24      32
17 32+0 H-UO    U8 O24        32
18 36+0 M-20UO  20:8 U4 O24   36
18 36+0 H-20UD  20:16 U8 D12  36
19 40+0 H-20O   20:16 O24     40
19 40+0 H-40UO  40:8 U8 O24   40
20 48+0 H-20UO  20:16 U8 O24  48
"""

_PART_LETTERS = {"S": S, "U": U, "D": D, "O": D, "B": B, "40": P40, "20": P20}


def parse_parts(tokens: list[str]) -> dict[Part, int]:
    """``["40:4", "U4"]`` -> ``{40-100: 4, ulti: 4}``."""
    parts: dict[Part, int] = {}
    for token in tokens:
        name, value = token.split(":") if ":" in token else (token[0], token[1:])
        parts[_PART_LETTERS[name]] = int(value)
    return parts


def table_rows() -> list[tuple[int, tuple[int, int], str, dict[Part, int], int]]:
    """The transcribed table as (rung, key, code, parts, value)."""
    rows = []
    for line in BID_TABLE.strip().splitlines():
        rung, key, code, *tokens, value = line.split()
        a, b = key.split("+")
        rows.append((int(rung), (int(a), int(b)), code, parse_parts(tokens), int(value)))
    return rows


def test_exactly_38_bids() -> None:
    assert len(BIDS) == 38
    assert len(BIDS_BY_CODE) == 38
    assert len(table_rows()) == 38


def test_exactly_20_rungs() -> None:
    assert len({b.rung for b in BIDS}) == 20
    assert len({b.key for b in BIDS}) == 20
    assert sorted({b.rung for b in BIDS}) == list(range(1, 21))


def test_bids_per_rung() -> None:
    per_rung = Counter(b.rung for b in BIDS)
    assert [per_rung[r] for r in range(1, 21)] == [1, 1, 1, 1, 1, 1, 3, 1, 3, 2, 2, 2, 1, 3, 2, 4, 4, 2, 2, 1]


def test_bid_table_matches_rules_1_4() -> None:
    rows = table_rows()
    assert [b.code for b in BIDS] == [row[2] for row in rows]  # the ladder order of §1.4
    for rung, key, code, parts, value in rows:
        b = BIDS_BY_CODE[code]
        assert b.rung == rung, code
        assert b.key == key, code
        assert dict(b.parts) == parts, code
        assert b.value == value, code
        assert sum(parts.values()) == value, code  # the transcription is consistent
        assert b.kind is TrumpKind(code[0]), code
        assert b.is_open == ("O" in code[2:]), code


def test_rung_keys_listed_in_1_5() -> None:
    keys = [(0, 1), (0, 2), (4, 0), (4, 1), (5, 0), (6, 0), (8, 0), (8, 2), (10, 0), (12, 0), (14, 0), (16, 0),
            (18, 0), (20, 0), (24, 0), (28, 0), (32, 0), (36, 0), (40, 0), (48, 0)]
    assert sorted({b.key for b in BIDS}) == keys
    for b in BIDS:
        assert keys.index(b.key) + 1 == b.rung


def test_count_verification_1_5() -> None:
    kinds = Counter(b.kind for b in BIDS)
    assert kinds == {TrumpKind.MINOR: 16, TrumpKind.HEARTS: 16, TrumpKind.NO_TRUMP: 6}
    no_trump = [b for b in BIDS if b.kind is TrumpKind.NO_TRUMP]
    assert Counter(b.parts[0][0] for b in no_trump) == {B: 3, D: 3}


def test_part_values_1_1() -> None:
    minor = {S: 1, U: 4, P40: 4, P20: 8}
    hearts = {S: 2, U: 8, P40: 8, P20: 16}
    for b in BIDS:
        values = dict(b.parts)
        if b.kind is TrumpKind.NO_TRUMP:
            price = {"B": 5, "HB": 10, "OB": 20, "D": 6, "HD": 12, "OD": 24}[b.code[2:]]
            assert len(values) == 1 and next(iter(values.values())) == price
            continue
        table = minor if b.kind is TrumpKind.MINOR else hearts
        for part, value in values.items():
            if part is D:
                # §9 A1: open durchmars is 24 in every bid; closed is 6, or 12 in hearts
                closed = 6 if b.kind is TrumpKind.MINOR else 12
                assert value == (24 if b.is_open else closed), b.code
            else:
                assert value == table[part], b.code


def test_trump_bids_are_exactly_the_1_2_combinations() -> None:
    expected: set[tuple[frozenset[Part], bool]] = set()
    for base, ulti, durch in product((S, P40, P20), (False, True), ("", "D", "O")):
        if durch and not (ulti or base in (P40, P20)):
            continue  # durchmars only with ulti and/or a 100
        parts = {base} if base is not S or not durch else set()  # durchmars drops the Simple game
        if ulti:
            parts.add(U)
        if durch:
            parts.add(D)
        expected.add((frozenset(parts), durch == "O"))
    assert len(expected) == 16
    for kind in (TrumpKind.MINOR, TrumpKind.HEARTS):
        got = {(b.part_set, b.is_open) for b in BIDS if b.kind is kind}
        assert got == expected
        assert sum(1 for b in BIDS if b.kind is kind and not b.has(D)) == 6
        assert sum(1 for b in BIDS if b.kind is kind and b.has(D)) == 10


def test_ulti_durchmars_has_no_simple_game() -> None:
    assert dict(bid("M-UD").parts) == {U: 4, D: 6}
    assert bid("M-UD").value == 10


def test_not_bids_1_2() -> None:
    for b in BIDS:
        assert not (b.has(P40) and b.has(P20)), b.code
        if b.has(B):
            assert len(b.parts) == 1, b.code  # betli never combines
        if b.kind is not TrumpKind.NO_TRUMP:
            assert b.has(S) or b.has(P40) or b.has(P20) or b.has(D), b.code  # no ulti without a base
            if b.has(D):
                assert b.has(U) or b.has(P40) or b.has(P20), b.code  # no stand-alone trump durchmars
                assert not b.has(S), b.code
    for code in ("M-D", "M-O", "H-D", "H-O", "M-U", "H-U", "M-4A", "N-SB", "M-4020"):
        assert code not in BIDS_BY_CODE
        with pytest.raises(RecordError):
            parse_bid(code)


def test_rank_key_is_value_without_simple_then_simple() -> None:
    for b in BIDS:
        simple = dict(b.parts).get(S, 0)
        assert b.key == (b.value - simple, simple)


def test_ulti_beats_40_100() -> None:
    assert bid("M-SU").key > bid("M-40").key
    assert bid("M-SU") in bids_above(bid("M-40"))
    assert bid("M-40") not in bids_above(bid("M-SU"))


def test_betli_beats_ulti_at_equal_total() -> None:
    assert bid("N-B").value == bid("M-SU").value == 5
    assert bid("N-B").rung > bid("M-SU").rung
    assert bid("N-B") in bids_above(bid("M-SU"))


def test_hearts_simple_beats_minor_simple() -> None:
    assert bid("H-S").key > bid("M-S").key
    assert bid("H-S") in bids_above(bid("M-S"))


def test_hearts_ulti_beats_every_bid_worth_8() -> None:
    worth_8 = [b for b in BIDS if b.value == 8]
    assert {b.code for b in worth_8} == {"M-20", "M-40U", "H-40"}
    for b in worth_8:
        assert bid("H-SU") in bids_above(b)


def test_heart_betli_beats_hearts_ulti() -> None:
    assert bid("N-HB").value == bid("H-SU").value == 10
    assert bid("N-HB") in bids_above(bid("H-SU"))
    assert bid("H-SU") not in bids_above(bid("N-HB"))


def test_smaller_total_never_outranks_larger() -> None:
    for a, b in product(BIDS, BIDS):
        if a.value < b.value:
            assert a.key < b.key, (a.code, b.code)


def test_equal_keys_block_each_other() -> None:
    for a in BIDS:
        above = list(bids_above(a))
        assert above == [b for b in BIDS if b.key > a.key]
        for b in BIDS:
            if b.rung == a.rung:
                assert b not in above, (a.code, b.code)
    assert list(bids_above(None)) == list(BIDS)
    assert list(bids_above(bid("H-20UO"))) == []


# ---------------------------------------------------------------------------- §2.1 public information

AUCTION_HANDS = (
    "AC TC KC QC JC 9C 8C 7C AS TS KS QS",
    "JS 9S 8S 7S AD TD KD QD JD 9D",
    "8D 7D AH TH KH QH JH 9H 8H 7H",
)


def auction_deal() -> Deal:
    """A deal by dealer 2: the opener is seat 0."""
    return Deal([cards(h) for h in AUCTION_HANDS], 2)


def test_discards_are_seen_only_by_the_seat_that_made_them() -> None:
    deal = auction_deal()
    deal.apply(act.bid(0, bid("M-S"), (card("QS"), card("KS"))))
    assert deal.view(0)["log"][0] == {"seat": 0, "action": "bid", "bid": "M-S", "discard": ["QS", "KS"]}
    for viewer in (1, 2, None):
        assert deal.view(viewer)["log"][0] == {"seat": 0, "action": "bid", "bid": "M-S"}
    deal.apply(act.take(1))
    deal.apply(act.bid(1, bid("M-SU"), (card("8S"), card("9S"))))
    assert deal.view(1)["log"][1] == {"seat": 1, "action": "take", "cards": ["QS", "KS"]}
    assert deal.view(1)["log"][2]["discard"] == ["8S", "9S"]
    for viewer in (0, 2, None):
        log = deal.view(viewer)["log"]
        assert log[1] == {"seat": 1, "action": "take"}  # the pick-up is public, its cards are not
        assert log[2] == {"seat": 1, "action": "bid", "bid": "M-SU"}
    for viewer in (1, 2, None):
        assert "discard" not in deal.view(viewer)["log"][0]


def test_talon_is_visible_only_to_the_seat_whose_discards_it_is() -> None:
    deal = auction_deal()
    deal.apply(act.bid(0, bid("M-S"), (card("QS"), card("KS"))))
    assert deal.view(0)["talon"] == ["QS", "KS"]
    for viewer in (1, 2, None):
        assert deal.view(viewer)["talon"] is None
    deal.apply(act.take(1))
    for viewer in (0, 1, 2, None):
        assert deal.view(viewer)["talon"] is None  # in seat 1's hand now
    picked_up = "JS 9S 8S 7S AD TD KD QD JD 9D QS KS"
    assert deal.view(1)["hands"]["1"] == sorted(picked_up.split(), key=parse_card)
    deal.apply(act.bid(1, bid("M-SU"), (card("8S"), card("9S"))))
    assert deal.view(1)["talon"] == ["8S", "9S"]
    for viewer in (0, 2, None):
        assert deal.view(viewer)["talon"] is None


def test_other_hands_are_hidden_and_hand_sizes_public() -> None:
    deal = auction_deal()
    for seat in range(3):
        assert list(deal.view(seat)["hands"]) == [str(seat)]
        assert deal.view(seat)["hand_sizes"] == [12, 10, 10]
    assert deal.view(None)["hands"] == {}


def test_talon_is_revealed_at_the_end_of_the_deal() -> None:
    deal = auction_deal()
    deal.apply(act.bid(0, bid("M-S"), (card("QS"), card("KS"))))
    for seat in (1, 2, 0):
        deal.apply(act.pass_(seat))
    deal.apply(act.give_up(0))
    for viewer in (0, 1, 2, None):
        assert deal.view(viewer)["talon"] == ["QS", "KS"]


# ---------------------------------------------------------------------------- §3.1 ranks and trick winners

TRUMP_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
PLAIN_ORDER = ["A", "K", "Q", "J", "T", "9", "8", "7"]


@pytest.mark.parametrize("trump", [SPADES, parse_suit("H"), parse_suit("C")])
def test_rank_order_with_trumps_in_every_suit(trump: int) -> None:
    for suit in "CSDH":
        for hi, lo in product(range(8), range(8)):
            if hi < lo:
                high, low = card(TRUMP_ORDER[hi] + suit), card(TRUMP_ORDER[lo] + suit)
                assert trick_winner_index([low, high], trump) == 1
                assert trick_winner_index([high, low], trump) == 0
                assert beats(high, low, trump) and not beats(low, high, trump)


def test_rank_order_without_trumps() -> None:
    for suit in "CSDH":
        for hi, lo in product(range(8), range(8)):
            if hi < lo:
                high, low = card(PLAIN_ORDER[hi] + suit), card(PLAIN_ORDER[lo] + suit)
                assert trick_winner_index([low, high], NO_TRUMP) == 1
                assert trick_winner_index([high, low, card("AC" if suit != "C" else "AD")], NO_TRUMP) == 0


def test_highest_trump_takes_the_trick() -> None:
    assert trick_winner_index(cards("AC 7S 8S"), SPADES) == 2
    assert trick_winner_index(cards("AC TS 8S"), SPADES) == 1  # the ten is the second trump
    assert trick_winner_index(cards("7S AC AH"), SPADES) == 0


def test_without_trump_the_highest_of_the_led_suit_takes_it() -> None:
    assert trick_winner_index(cards("7C AH 8C"), SPADES) == 2  # ♥A is off-suit and never wins
    assert trick_winner_index(cards("7C AH AD"), SPADES) == 0
    assert trick_winner_index(cards("7C AS AH"), NO_TRUMP) == 0  # no trumps: ♠A is just off-suit
    assert trick_winner_index(cards("JC TC 9C"), NO_TRUMP) == 0  # J above 10 without trumps
    assert trick_winner_index(cards("JC TC 9C"), SPADES) == 1  # 10 above J with trumps


# ---------------------------------------------------------------------------- §3.3 legal cards on a deal


def test_illegal_card_is_refused_and_changes_nothing() -> None:
    deal = at_play("M-S")
    play(deal, (DECL, "AC"))
    assert_illegal(deal, act.play(X, card("8S")))  # must follow clubs
    assert_illegal(deal, act.play(Y, card("TC")))  # not Y's turn
    assert_illegal(deal, act.play(X, card("AD")))  # not in X's hand
    assert deal.choices(X).cards == mask("7C 8C 9C")


# ---------------------------------------------------------------------------- §3.4 the ulti trump 7


def test_ulti_declarer_may_not_lead_the_trump_7() -> None:
    deal = at_play("M-SU")
    assert deal.held_seven(DECL) == card("7S")
    ch = deal.choices(DECL)
    assert not ch.cards >> card("7S") & 1
    assert ch.refused == {card("7S"): "the trump 7 stays until the last trick"}
    assert_illegal(deal, act.play(DECL, card("7S")))


def test_trump_7_may_be_led_when_it_is_the_last_card() -> None:
    seven = card("7S")
    assert legal_cards(mask("7S"), -1, -1, SPADES, seven) == mask("7S")


def test_ulti_rule_binds_only_the_declarer_of_an_ulti_bid() -> None:
    deal = at_play("M-S")
    assert deal.held_seven(DECL) == -1
    assert deal.choices(DECL).cards == mask(PLAY_HANDS[0])  # may lead the ♠7 without an ulti bid
    deal = at_play("M-SU", trump=parse_suit("C"))  # ♣ trumps: X holds the trump 7
    assert deal.held_seven(X) == -1
    play(deal, (DECL, "KC"))
    assert deal.choices(X).cards == mask("7C 8C 9C")  # X cannot beat ♣K; the 7 is as free as the rest


def test_ulti_declarer_keeps_the_7_until_it_is_the_only_legal_card() -> None:
    deal = at_play("M-SU")
    seven = card("7S")
    seen_alone = False
    while deal.phase is Phase.PLAY:
        seat = deal.to_move
        assert seat is not None  # the play always has a seat on turn
        legal = deal.choices(seat).cards
        if seat == DECL and legal >> seven & 1:
            assert legal == 1 << seven
            seen_alone = True
        deal.apply(act.play(seat, lowest(legal)))
    assert seen_alone
    assert deal.tricks[9].card_of(DECL) == seven  # held back to the last trick


# ---------------------------------------------------------------------------- §3.5 open contracts


def visible_hands(deal: Deal, viewer: int | None) -> set[str]:
    """The seats whose hands ``viewer`` sees."""
    return set(deal.view(viewer)["hands"])


def test_open_hands_visible_to_all_only_after_trick_1() -> None:
    deal = at_play("M-40O")
    assert bid("M-40O").is_open
    for moves in ([], [(DECL, "AC")], [(X, "7C")]):
        play(deal, *moves)
        for seat in range(3):
            assert visible_hands(deal, seat) == {str(seat)}
        assert visible_hands(deal, None) == set()
    play(deal, (Y, "TC"))
    assert len(deal.tricks) == 1
    for viewer in (0, 1, 2, None):
        assert visible_hands(deal, viewer) == {"0", "1", "2"}
        assert deal.view(viewer)["hands"]["1"] == ["8C", "9C", "8S", "9S", "JS", "7D", "8D", "9D", "7H"]


def test_closed_contract_hands_stay_hidden_after_trick_1() -> None:
    deal = at_play("M-40")
    trick_one_won_by_declarer(deal)
    for seat in range(3):
        assert visible_hands(deal, seat) == {str(seat)}


def test_open_betli_hands_shown_after_trick_1() -> None:
    deal = at_play("N-OB")
    play(deal, (DECL, "7S"), (X, "8S"))
    assert visible_hands(deal, Y) == {"2"}
    play(deal, (Y, "8H"))
    assert deal.tricks[0].winner == X
    assert deal.phase is Phase.PLAY
    assert visible_hands(deal, Y) == {"0", "1", "2"}


def test_open_hands_wait_for_the_kontra_chain() -> None:
    deal = at_play("M-40O")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (P40,)))
    play(deal, (X, "7C"), (Y, "TC"))
    assert deal.in_chain
    assert visible_hands(deal, X) == {"1"}
    deal.apply(act.kontra(DECL, ()))  # the declarer declines rekontra: the chain ends
    assert not deal.in_chain
    assert visible_hands(deal, X) == {"0", "1", "2"}


# ---------------------------------------------------------------------------- §3.6 early end


def test_betli_ends_when_the_declarer_wins_a_trick() -> None:
    for code, value in (("N-B", 5), ("N-HB", 10), ("N-OB", 20)):
        deal = at_play(code)
        trick_one_won_by_declarer(deal)
        assert deal.phase is Phase.DONE, code
        assert deal.result is not None
        assert deal.result.ended_early and deal.result.tricks == 1
        assert deal.result.scores == (-2 * value, value, value)
        assert_illegal(deal, act.play(DECL, card("AS")))


def test_betli_continues_while_the_declarer_wins_no_trick() -> None:
    deal = at_play("N-B")
    play(deal, (DECL, "7S"), (X, "8S"), (Y, "8H"))
    assert deal.tricks[0].winner == X
    assert deal.phase is Phase.PLAY


def test_no_trump_durchmars_ends_when_a_defender_wins_a_trick() -> None:
    for code, value in (("N-D", 6), ("N-HD", 12), ("N-OD", 24)):
        deal = at_play(code)
        play(deal, (DECL, "AC"), (X, "7C"), (Y, "TC"))
        assert deal.phase is Phase.PLAY  # the declarer won trick 1: go on
        play(deal, (DECL, "7S"), (X, "8S"), (Y, "8H"))
        assert deal.tricks[1].winner == X
        assert deal.phase is Phase.DONE, code  # type: ignore[comparison-overlap]  # mypy keeps the earlier narrowing of deal.phase
        assert deal.result is not None
        assert deal.result.ended_early and deal.result.tricks == 2
        assert deal.result.scores == (-2 * value, value, value)


def test_trump_contracts_always_play_ten_tricks() -> None:
    deal = at_play("M-UD")
    play(deal, (DECL, "KD"), (X, "7D"), (Y, "TD"))
    assert deal.tricks[0].winner == Y  # the durchmars is already lost
    assert deal.phase is Phase.PLAY
    play_out(deal)
    assert len(deal.tricks) == 10
    assert deal.result is not None
    assert not deal.result.ended_early and deal.result.tricks == 10
    assert [(p.part, p.won) for p in deal.result.parts if p.part is D] == [(D, False)]


# ---------------------------------------------------------------------------- §6 kontra


def test_kontra_only_just_before_the_defenders_own_card_in_trick_1() -> None:
    deal = at_play("M-SU")
    for seat in (DECL, X, Y):  # nobody before the lead
        assert deal.choices(seat).kontra_step == ""
        assert_illegal(deal, act.kontra(seat, (U,)))
    play(deal, (DECL, "AC"))
    ch = deal.choices(X)
    assert ch.kontra_step == "kontra"
    assert ch.kontra_parts == [S, U]
    assert deal.choices(Y).kontra_step == ""  # not yet Y's card
    assert_illegal(deal, act.kontra(Y, (U,)))
    assert_illegal(deal, act.kontra(DECL, (U,)))  # the declarer never says kontra
    deal.apply(act.kontra(X, (U,)))
    assert deal.multiplier(U) == 2
    assert deal.multiplier(S) == 1
    play(deal, (X, "7C"))
    assert_illegal(deal, act.kontra(X, (S,)))  # X's card is down
    assert deal.choices(Y).kontra_step == "kontra"
    play(deal, (Y, "TC"))
    deal.apply(act.kontra(DECL, ()))  # the chain: the declarer declines
    assert not deal.in_chain
    play(deal, (DECL, "KC"))
    for seat in (X, Y):  # after trick 1 there is no plain kontra
        assert deal.choices(seat).kontra_step == ""
        assert_illegal(deal, act.kontra(seat, (S,)))


def test_kontra_only_on_the_contracts_parts() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    assert_illegal(deal, act.kontra(X, (B,)))
    assert_illegal(deal, act.kontra(X, (P40,)))
    assert_illegal(deal, act.kontra(X, (U, U)))


def test_second_defender_adds_only_undoubled_parts() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"))
    ch = deal.choices(Y)
    assert ch.kontra_step == "kontra"
    assert ch.kontra_parts == [S]
    assert_illegal(deal, act.kontra(Y, (U,)))
    assert_illegal(deal, act.kontra(Y, (S, U)))
    deal.apply(act.kontra(Y, (S,)))
    assert deal.multiplier(S) == 2 and deal.multiplier(U) == 2  # not 4: kontra is ×2 once


def test_kontra_is_joint_for_both_defenders() -> None:
    deal = at_play("N-D")
    play(deal, (DECL, "7S"))
    deal.apply(act.kontra(X, (D,)))  # only X says it
    play(deal, (X, "8S"), (Y, "8H"))
    assert deal.phase is Phase.DONE
    assert deal.result is not None
    assert deal.result.scores == (-24, 12, 12)  # both defenders get the doubled 6


def test_no_chain_when_trick_1_ends_the_deal() -> None:
    deal = at_play("N-B")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (B,)))
    play(deal, (X, "7C"), (Y, "TC"))
    assert deal.phase is Phase.DONE
    assert not deal.in_chain
    assert deal.result is not None
    assert deal.result.scores == (-20, 10, 10)


def test_no_chain_if_nobody_said_kontra() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, ()))  # declining is allowed and changes nothing
    play(deal, (X, "7C"), (Y, "TC"))
    assert not deal.in_chain
    assert deal.chain_level == 0
    assert deal.levels == {}
    assert deal.choices(DECL).kontra_step == ""
    assert_illegal(deal, act.kontra(DECL, (U,)))
    assert deal.to_move == DECL


def test_chain_after_trick_1_up_to_fedaksari() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"), (Y, "TC"))
    assert deal.in_chain and deal.chain_level == 2
    steps = [(DECL, "rekontra", 4), (Y, "szubkontra", 8), (DECL, "hirskontra", 16), (X, "mordkontra", 32),
             (DECL, "fedáksári", 64)]
    for seat, name, multiplier in steps:
        assert deal.in_chain
        assert deal.choices(seat).kontra_step == name
        assert deal.choices(seat).kontra_parts == [U]
        side = [s for s in range(3) if (s == DECL) != (seat == DECL)]
        for other in side:  # the other side has no step now
            assert deal.choices(other).kontra_step == ""
            assert_illegal(deal, act.kontra(other, (U,)))
        deal.apply(act.kontra(seat, (U,)))
        assert deal.multiplier(U) == multiplier
        assert deal.multiplier(S) == 1
    assert not deal.in_chain  # ×64 is the top
    for seat in range(3):
        assert deal.choices(seat).kontra_step == ""
        assert_illegal(deal, act.kontra(seat, (U,)))
    assert deal.to_move == DECL
    play_out(deal)
    assert deal.result is not None
    ulti = next(p for p in deal.result.parts if p.part is U)
    assert ulti.multiplier == 64


def test_chain_step_raises_only_what_the_previous_step_raised() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (S, U)))
    play(deal, (X, "7C"), (Y, "TC"))
    assert deal.choices(DECL).kontra_parts == [S, U]
    deal.apply(act.kontra(DECL, (U,)))  # rekontra on the ulti only
    assert deal.multiplier(U) == 4 and deal.multiplier(S) == 2
    assert deal.choices(X).kontra_parts == [U]
    assert_illegal(deal, act.kontra(X, (S,)))
    assert_illegal(deal, act.kontra(Y, (S, U)))
    deal.apply(act.kontra(X, (U,)))
    assert deal.multiplier(U) == 8 and deal.multiplier(S) == 2


def test_chain_stops_at_the_first_step_raising_nothing() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"), (Y, "TC"))
    deal.apply(act.kontra(DECL, ()))
    assert not deal.in_chain
    assert deal.multiplier(U) == 2
    assert_illegal(deal, act.kontra(X, (U,)))  # no szubkontra after a declined rekontra


def test_defenders_step_needs_both_to_decline() -> None:
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"), (Y, "TC"))
    deal.apply(act.kontra(DECL, (U,)))
    deal.apply(act.kontra(X, ()))
    assert deal.in_chain  # Y may still raise
    assert_illegal(deal, act.kontra(X, (U,)))  # X has declined this step
    deal.apply(act.kontra(Y, ()))
    assert not deal.in_chain
    assert deal.multiplier(U) == 4

    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"), (Y, "TC"))
    deal.apply(act.kontra(DECL, (U,)))
    deal.apply(act.kontra(Y, ()))
    deal.apply(act.kontra(X, (U,)))  # the other defender raises for the side
    assert deal.multiplier(U) == 8
    assert deal.choices(DECL).kontra_step == "hirskontra"


def test_a_play_by_the_trick_2_leader_closes_the_chain() -> None:
    # the declarer leads trick 2
    deal = at_play("M-SU")
    play(deal, (DECL, "AC"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7C"), (Y, "TC"))
    assert deal.in_chain
    assert_illegal(deal, act.play(X, card("8C")))  # only the trick-2 leader may play
    play(deal, (DECL, "KC"))
    assert not deal.in_chain
    assert deal.multiplier(U) == 2
    assert deal.trick == [card("KC")]

    # a defender leads trick 2, during the declarer's rekontra step
    deal = at_play("M-SU")
    play(deal, (DECL, "KD"))
    deal.apply(act.kontra(X, (U,)))
    play(deal, (X, "7D"), (Y, "TD"))
    assert deal.tricks[0].winner == Y
    assert deal.in_chain and deal.choices(DECL).kontra_step == "rekontra"
    # a live table offers only the kontra steps while the chain is open ...
    assert not deal.choices(Y).cards
    # ... but a record may omit the declines: the trick-2 lead closes the chain (docs/record.md)
    play(deal, (Y, "8H"))
    assert not deal.in_chain
    assert_illegal(deal, act.kontra(DECL, (U,)))
    assert deal.multiplier(U) == 2
