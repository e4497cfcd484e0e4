"""docs/rules.md §4-§5: one test per scoring rule that the worked examples of §8.3 do not already pin.

The deals come from ``test_worked_examples_scoring`` (written "D X Y W", see ``scoring_deals``) or
are built here the same way; every expected number is worked out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.scoring_deals import (
    Built,
    build,
    deltas,
    mask,
    parts,
    points_of,
    score,
    silent,
    translate,
    translate_cards,
)
from tests.engine.test_worked_examples_scoring import (
    DEAL_ALL_TEN_SEVEN_LAST,
    DEAL_BETLI_WON,
    DEAL_DURCHMARS_WON,
    DEAL_S3,
    DEAL_S5,
    DEAL_S6,
    DEAL_S7,
    DEAL_S8,
    DEAL_S9,
    DEAL_S12,
    DEAL_S15,
    DEAL_S17,
    DEAL_S18,
    DEAL_S38,
    DEAL_S39,
    DEAL_S41,
    DEAL_S42,
    TALON_ALL_TEN,
    TALON_BETLI_WON,
    TALON_DURCHMARS_WON,
    TALON_S3,
    TALON_S5,
    TALON_S6,
    TALON_S7,
    TALON_S8,
    TALON_S9,
    TALON_S12,
    TALON_S15,
    TALON_S17,
    TALON_S18,
    TALON_S38,
    TALON_S39,
    TALON_S41,
    TALON_S42,
)
from ulti.engine import actions as act
from ulti.engine.cards import parse_card
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.deal import Deal, Phase
from ulti.engine.errors import IllegalAction
from ulti.engine.scoring import Trick, settle

S, U, F, T, DM, B = Part.SIMPLE, Part.ULTI, Part.FORTY_HUNDRED, Part.TWENTY_HUNDRED, Part.DURCHMARS, Part.BETLI
SH = {"S": "H"}
MULTIPLIERS = (1, 2, 4, 8, 16, 32, 64)

# D holds ♠K♠Q (40), ♣K♣Q and ♦K♦Q (two 20s); X holds ♥K♥Q (20). D's tricks 50; defenders'
# tricks 30 + last 10 = 40; talon ♠8 ♠7 = 0.
DEAL_MARRIAGES = [
    "AS AD TC D",  # D 30
    "TS TD 9C D",  # D 20
    "KS 9D 8C D",
    "QS 8D 7C D",
    "JS 7D JD D",
    "9S QH JC D",
    "KC AC 9H X",  # X 10
    "QC AH 8H X",  # X 10 (X leads)
    "QD TH 7H X",  # X 10
    "KD KH JH X",  # last
]
TALON_MARRIAGES = "8S 7S"


def marriages_deal() -> Built:
    return build(DEAL_MARRIAGES, talon=TALON_MARRIAGES, trump="S")


# ---------------------------------------------------------------------------------------------
# §4.2 Which marriages count


@pytest.mark.parametrize(
    ("bid", "points"),
    [
        ("M-S", (50 + 40 + 20 + 20, 40 + 20)),  # Simple game: all of them, both sides
        ("M-SU", (50 + 40 + 20 + 20, 40 + 20)),
        ("M-40", (50 + 40, 40)),  # only D's 40; the defenders count nothing
        ("M-40U", (50 + 40, 40)),
        ("M-20", (50 + 20, 40)),  # exactly one 20; the 40 and the second 20 do not count
        ("M-20U", (50 + 20, 40)),
        ("M-UD", (50, 40)),  # durchmars without a 100 part: nothing counts
    ],
)
def test_marriages_count_per_the_4_2_table(bid: str, points: tuple[int, int]) -> None:
    built = marriages_deal()
    assert built.hand("D") & mask("KS QS KC QC KD QD") == mask("KS QS KC QC KD QD")
    assert built.hand("X") & mask("KH QH") == mask("KH QH")
    assert score(bid, built).points == points


def test_defenders_marriages_are_pooled_in_a_simple_game_and_ignored_in_a_40_100() -> None:
    # S-7's deal: X holds the ♠K♠Q (40), Y the ♥K♥Q (20); their tricks hold 50.
    built = build(DEAL_S7, talon=TALON_S7, trump="S")
    assert score("M-SU", built).points == (40, 50 + 40 + 20)  # §9 A33: they count in Ulti bids too
    assert score("M-40", built).points == (40, 50)


def test_no_trump_contracts_have_no_points_and_no_marriages() -> None:
    built = build(DEAL_DURCHMARS_WON, talon=TALON_DURCHMARS_WON, trump=None)
    result = score("N-D", built)
    assert result.points is None
    assert "points" not in result.to_json()
    assert result.to_json()["trump"] is None


# ---------------------------------------------------------------------------------------------
# §4.3 A side that wins no trick has no points


def test_declarer_without_a_trick_has_0_even_with_a_marriage() -> None:
    # S-42's deal with D holding the ♣K♣Q (D leads the ♣Q to trick 1, Y keeps the ♣9).
    deal = translate(DEAL_S42, {"9C": "QC"})
    built = build(deal, talon=TALON_S42, trump="S")
    assert built.hand("D") & mask("KC QC") == mask("KC QC")
    result = score("M-S", built)
    assert result.points == (0, 90)
    assert parts(result) == {S: (False, 1, -1)}


def test_defenders_without_a_trick_have_0_including_talon_points() -> None:
    # S-41's deal with the ♥10 in the talon instead of the ♥7: D 70 + last 10 + 20 = 100.
    deal = translate(DEAL_S41, {"TH": "7H"})
    built = build(deal, talon="QS TH", trump="S")
    assert points_of(built.talon) == 10
    result = score("M-S", built)
    assert result.points == (100, 0)
    assert parts(result) == {S: (True, 2, 2)}  # and D's 100 is a silent 100


# ---------------------------------------------------------------------------------------------
# §4.4 Side totals, computed independently here, and the no-tie property


def expected_totals(
    bid: str, declarer: int, trump: int, tricks: Sequence[Trick], hands: Sequence[int], talon: int
) -> tuple[int, int]:
    """§4.4 for a bid with a Simple-game part: every marriage of every seat counts."""

    def marriage_points(hand: int) -> int:
        total = 0
        for suit in range(4):
            pair = (1 << (suit * 8 + 5)) | (1 << (suit * 8 + 6))
            if hand & pair == pair:
                total += 40 if suit == trump else 20
        return total

    assert BIDS_BY_CODE[bid].has(S)
    totals = [0, 0]  # declarer, defenders
    taken = [0, 0]
    for trick in tricks:
        side = 0 if trick.winner == declarer else 1
        taken[side] += 1
        totals[side] += sum(points_of(1 << c) for c in trick.cards)
    totals[0 if tricks[-1].winner == declarer else 1] += 10
    totals[1] += points_of(talon)
    totals[0] += marriage_points(hands[declarer])
    totals[1] += sum(marriage_points(hands[s]) for s in range(3) if s != declarer)
    return (totals[0] if taken[0] else 0, totals[1] if taken[1] else 0)


@settings(max_examples=400, deadline=None)
@given(
    order=st.permutations(range(32)),
    winners=st.lists(st.integers(0, 2), min_size=10, max_size=10),
    declarer=st.integers(0, 2),
    bid=st.sampled_from(["M-S", "M-SU", "H-S", "H-SU"]),
    minor=st.integers(0, 2),
)
def test_totals_never_tie_over_random_trick_distributions(
    order: list[int], winners: list[int], declarer: int, bid: str, minor: int
) -> None:
    trump = 3 if bid.startswith("H") else minor
    hands = [sum(1 << c for c in order[10 * s : 10 * s + 10]) for s in range(3)]
    talon = (1 << order[30]) | (1 << order[31])
    tricks = []
    leader = declarer
    for i, winner in enumerate(winners):
        seats = [(leader + k) % 3 for k in range(3)]
        cards = tuple(order[10 * s + i] for s in seats)
        tricks.append(Trick(leader, (cards[0], cards[1], cards[2]), winner))
        leader = winner
    result = settle(
        bid=BIDS_BY_CODE[bid],
        declarer=declarer,
        trump=trump,
        tricks=tricks,
        start_hands=hands,
        talon=talon,
        multipliers={},
    )
    decl, defs = expected_totals(bid, declarer, trump, tricks, hands, talon)
    assert result.points == (decl, defs)
    assert decl != defs
    if decl and defs:
        assert (decl + defs - 90) % 20 == 0
    else:
        assert max(decl, defs) >= 10
    simple = parts(result)[S]
    assert simple[0] == (decl > defs)
    assert simple[1] == (2 if (decl >= 100 or defs >= 100) else 1) * (2 if bid.startswith("H") else 1)
    assert sum(result.scores) == 0
    assert result.scores == deltas(declarer, result.per_defender)


# ---------------------------------------------------------------------------------------------
# §4.5 The 100 requirements


def test_40_100_does_not_count_the_declarers_20s() -> None:
    result = score("M-40", marriages_deal())  # 40 + 50 = 90; with the two 20s it would be 130
    assert parts(result) == {F: (False, 4, -4)}


def test_20_100_counts_one_20_only() -> None:
    result = score("M-20", marriages_deal())  # 20 + 50 = 70
    assert parts(result) == {T: (False, 8, -8)}


# S-18's deal with D's ♥Q exchanged for X's ♥J: D holds only the trump ♣K♣Q (a 40); cards 80.
DEAL_ONLY_40 = translate(DEAL_S18, {"QH": "JH"})


def test_20_100_without_a_non_trump_marriage_is_lost_whatever_the_points() -> None:
    built = build(DEAL_ONLY_40, talon=TALON_S18, trump="C")
    assert built.hand("D") & mask("KH QH") != mask("KH QH")
    result = score("M-20", built)
    assert result.points == (80, 10)  # the 40 does not count toward 20-100
    assert parts(result) == {T: (False, 8, -8)}
    assert parts(score("M-40", built)) == {F: (True, 4, 4)}  # while 40 + 80 makes 40-100


def test_20_100_without_any_marriage() -> None:
    built = build(DEAL_S17, talon=TALON_S17, trump="S")  # no K+Q in D's hand; cards 80
    assert parts(score("M-20", built)) == {T: (False, 8, -8)}


# ---------------------------------------------------------------------------------------------
# §5.3 The lost-ulti extra is never multiplied, however the ulti was lost

# D is forced to play the ♠7 in trick 9 (void in ♦, no other trump) and loses trick 10.
DEAL_SEVEN_FORCED_EARLY = [
    "7C AC TC X",  # X 20
    "7D AD TD X",  # X 20
    "8S KC QC D",
    "AS AH TH D",  # D 30
    "TS JC 8C D",  # D 10
    "KS 9C JD D",
    "JS 9D 8D D",
    "8H KH QH X",
    "7S KD QD D",  # X leads ♦K: the ♠7 is D's only legal card
    "7H 9H JH Y",  # last to Y
]
TALON_SEVEN_FORCED_EARLY = "QS 9S"


@pytest.mark.parametrize("m", MULTIPLIERS)
@pytest.mark.parametrize(
    ("deal", "talon", "trump", "bid", "value", "extra"),
    [
        (DEAL_S9, TALON_S9, "S", "M-SU", 4, 4),  # the 7 captured in trick 10
        (DEAL_SEVEN_FORCED_EARLY, TALON_SEVEN_FORCED_EARLY, "S", "M-SU", 4, 4),  # forced out early
        (translate(DEAL_S9, SH), translate_cards(TALON_S9, SH), "H", "H-SU", 8, 8),  # hearts
    ],
    ids=["captured", "forced-early", "hearts"],
)
def test_lost_ulti_extra_is_never_multiplied(
    deal: list[str], talon: str, trump: str, bid: str, value: int, extra: int, m: int
) -> None:
    built = build(deal, talon=talon, trump=trump, ulti=True)
    result = score(bid, built, {U: m})
    won, part_value, amount = parts(result)[U]
    assert (won, part_value) == (False, value)
    assert amount == -value * m - extra
    assert [p.multiplier for p in result.parts if p.part is U] == [m]


def test_lost_ulti_extra_when_the_seven_is_not_held() -> None:
    # S-12's situation (the ♠7 in the talon) under rekontra: -4 × 4 - 4.
    built = build(DEAL_S12, talon=TALON_S12, trump="S", ulti=True)
    assert parts(score("M-SU", built, {U: 4}))[U] == (False, 4, -20)


def test_ulti_forced_out_early_is_lost_and_simple_settled_alone() -> None:
    built = build(DEAL_SEVEN_FORCED_EARLY, talon=TALON_SEVEN_FORCED_EARLY, trump="S", ulti=True)
    assert built.played_in_trick(9, "D") == "7S"
    result = score("M-SU", built)
    assert result.points == (40, 50)
    assert parts(result) == {S: (False, 1, -1), U: (False, 4, -8)}
    assert result.silent == ()
    assert result.per_defender == -9


# ---------------------------------------------------------------------------------------------
# §5.4 Silent bonuses: each one, doubled in hearts, never multiplied by kontra

SILENT_CASES = [
    # (id, deal, talon, trump, bid, silent bonus, Simple-game amount)
    ("decl-ulti-won", DEAL_S8, TALON_S8, "S", "M-S", ("ulti", "declarer", True, 2), 1),
    (
        "decl-ulti-won-H",
        translate(DEAL_S8, SH),
        translate_cards(TALON_S8, SH),
        "H",
        "H-S",
        ("ulti", "declarer", True, 4),
        2,
    ),
    ("decl-ulti-lost", DEAL_S9, TALON_S9, "S", "M-S", ("ulti", "declarer", False, -4), 1),
    (
        "decl-ulti-lost-H",
        translate(DEAL_S9, SH),
        translate_cards(TALON_S9, SH),
        "H",
        "H-S",
        ("ulti", "declarer", False, -8),
        2,
    ),
    ("def-ulti-lost", DEAL_S39, TALON_S39, "S", "M-S", ("ulti", "defenders", False, 4), 1),
    (
        "def-ulti-lost-H",
        translate(DEAL_S39, SH),
        translate_cards(TALON_S39, SH),
        "H",
        "H-S",
        ("ulti", "defenders", False, 8),
        2,
    ),
    ("decl-durchmars-H", DEAL_S5, TALON_S5, "H", "H-S", ("durchmars", "declarer", True, 6), 2),
    ("def-durchmars", DEAL_S42, TALON_S42, "S", "M-S", ("durchmars", "defenders", False, -3), -1),
    (
        "def-durchmars-H",
        translate(DEAL_S42, SH),
        translate_cards(TALON_S42, SH),
        "H",
        "H-S",
        ("durchmars", "defenders", False, -6),
        -2,
    ),
]


@pytest.mark.parametrize("m", [1, 2, 4, 64])
@pytest.mark.parametrize(
    ("deal", "talon", "trump", "bid", "bonus", "simple"),
    [c[1:] for c in SILENT_CASES],
    ids=[c[0] for c in SILENT_CASES],
)
def test_silent_bonus_values_and_kontra_never_multiplies_them(
    deal: list[str], talon: str, trump: str, bid: str, bonus: tuple[str, str, bool, int], simple: int, m: int
) -> None:
    built = build(deal, talon=talon, trump=trump)
    result = score(bid, built, {S: m})
    assert silent(result) == {bonus}
    assert parts(result)[S][2] == simple * m
    assert result.per_defender == simple * m + bonus[3]
    assert result.scores == deltas(built.declarer, simple * m + bonus[3])


def test_defender_silent_ulti_won_doubled_in_hearts() -> None:
    # S-38 with hearts trumps: D makes hearts 40-100 (+8); X's ♥7 takes trick 10 (-4).
    built = build(translate(DEAL_S38, SH), talon=translate_cards(TALON_S38, SH), trump="H")
    result = score("H-40", built, {F: 2})
    assert silent(result) == {("ulti", "defenders", True, -4)}
    assert parts(result) == {F: (True, 8, 16)}
    assert result.per_defender == 16 - 4


@pytest.mark.parametrize("m", [1, 2, 4])
def test_silent_100_doubles_the_simple_game_before_kontra_in_both_suit_kinds(m: int) -> None:
    hearts = score("H-S", build(DEAL_S6, talon=TALON_S6, trump="H"), {S: m})  # D 110
    assert parts(hearts)[S] == (True, 4, 4 * m)
    minor = score("M-S", build(DEAL_S41, talon=TALON_S41, trump="S"), {S: m})  # D 110, all ten tricks
    assert parts(minor)[S] == (True, 2, 2 * m)
    assert minor.per_defender == 2 * m + 3


def test_silent_durchmars_by_the_declarer_in_a_minor_suit_stacks_with_the_bid_parts() -> None:
    result = score("M-40U", build(DEAL_ALL_TEN_SEVEN_LAST, talon=TALON_ALL_TEN, trump="S", ulti=True), {F: 2, U: 2})
    assert silent(result) == {("durchmars", "declarer", True, 3)}
    assert result.per_defender == 4 * 2 + 4 * 2 + 3


def test_no_silent_ulti_when_ulti_was_bid() -> None:
    # §9 A11: S-38's deal as 40-100 ulti: X's ♠7 takes trick 10; only the bid ulti is settled.
    built = build(DEAL_S38, talon=TALON_S38, trump="S")
    result = score("M-40U", built)
    assert result.silent == ()
    assert parts(result) == {F: (True, 4, 4), U: (False, 4, -8)}
    assert result.per_defender == -4


def test_no_silent_100_without_a_simple_game_part() -> None:
    assert score("M-40", build(DEAL_S15, talon=TALON_S15, trump="S")).silent == ()  # D 100
    assert score("M-20", build(DEAL_S18, talon=TALON_S18, trump="C")).silent == ()  # D 100


@pytest.mark.parametrize(
    ("deal", "talon", "bid"),
    [(DEAL_DURCHMARS_WON, TALON_DURCHMARS_WON, "N-D"), (DEAL_BETLI_WON, TALON_BETLI_WON, "N-HB")],
)
def test_no_silent_bonuses_in_no_trump_contracts(deal: list[str], talon: str, bid: str) -> None:
    result = score(bid, build(deal, talon=talon, trump=None))
    assert result.silent == ()
    assert result.per_defender == BIDS_BY_CODE[bid].value


# ---------------------------------------------------------------------------------------------
# §5.5 The talon belongs to the defenders, even as the declarer's own discards


def test_talon_points_go_to_the_defenders_even_when_the_declarer_discarded_them() -> None:
    built = build(DEAL_S3, talon=TALON_S3, trump="S")  # talon ♣A ♦10
    d = built.declarer
    dealer = (d + 2) % 3  # D opens: D holds the talon cards and discards them
    hands = list(built.start_hands)
    hands[d] |= built.talon
    deal = Deal(hands, dealer)
    deal.apply(act.bid(d, BIDS_BY_CODE["M-S"], discard=(parse_card("AC"), parse_card("TD"))))
    for seat in (d + 1, d + 2, d):
        deal.apply(act.pass_(seat % 3))
    assert deal.phase is Phase.TRUMP
    deal.apply(act.trump(d, 1))
    for trick in built.tricks:
        for i, card in enumerate(trick.cards):
            deal.apply(act.play(trick.seat_of(i), card))
    assert deal.result is not None
    assert deal.talon == mask("AC TD")
    # D's tricks 30 + last 10 = 40; the defenders' tricks 30 + the talon 20 = 50.
    assert deal.result.points == (40, 50)
    assert deal.result.per_defender == -1


# ---------------------------------------------------------------------------------------------
# §2.2 Give-up


def _opened_by_the_declarer() -> tuple[Deal, int]:
    built = build(DEAL_S3, talon=TALON_S3, trump="S")
    d = built.declarer
    hands = list(built.start_hands)
    hands[d] |= built.talon
    deal = Deal(hands, (d + 2) % 3)
    return deal, d


def test_give_up_pays_2_to_each_defender() -> None:
    deal, d = _opened_by_the_declarer()
    deal.apply(act.bid(d, BIDS_BY_CODE["M-S"], discard=(parse_card("AC"), parse_card("TD"))))
    for seat in (d + 1, d + 2, d):
        deal.apply(act.pass_(seat % 3))
    deal.apply(act.give_up(d))
    assert deal.is_over and deal.result is not None
    result = deal.result
    assert result.given_up and result.parts == () and result.silent == () and result.points is None
    assert result.per_defender == -2
    assert result.scores == deltas(d, -2)
    assert result.scores[d] == -4
    js = result.to_json()
    assert js["given_up"] is True and js["scores"] == list(deltas(d, -2))
    assert "tricks" not in js and "points" not in js


@pytest.mark.parametrize("bid", ["H-S", "M-SU", "M-40"])
def test_give_up_only_for_the_plain_minor_simple_game(bid: str) -> None:
    deal, d = _opened_by_the_declarer()
    deal.apply(act.bid(d, BIDS_BY_CODE[bid], discard=(parse_card("AC"), parse_card("TD"))))
    for seat in (d + 1, d + 2, d):
        deal.apply(act.pass_(seat % 3))
    with pytest.raises(IllegalAction):
        deal.apply(act.give_up(d))
    assert deal.result is None
