"""docs/rules.md §8.3: every scoring example S-1..S-45 as its own test.

Each test builds a finished deal that realises what the example states (card points, marriages,
talon, who took which trick, what happened in trick 10), settles it, and checks the per-defender
amount, the score changes (D +2n, X -n, Y -n) and, where the example names them, the parts and the
silent bonuses. Tricks are written "D X Y W" (see ``scoring_deals``); ♠ is trumps unless stated.
Examples about kontra are also played through a real ``Deal`` to check that the multipliers said at
the table reach the settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

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
from tests.engine.scoring_deals import (
    parts as parts_of,
)
from ulti.engine import actions as act
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.deal import Deal, Phase
from ulti.engine.scoring import DealResult

S, U, F, T, DM, B = Part.SIMPLE, Part.ULTI, Part.FORTY_HUNDRED, Part.TWENTY_HUNDRED, Part.DURCHMARS, Part.BETLI
SPADES_HEARTS = {"S": "H"}


def check(result: DealResult, built: Built, n: int) -> None:
    """The per-defender amount is ``n`` and the scores are D +2n, X -n, Y -n (summing to zero)."""
    assert result.per_defender == n
    assert result.scores == deltas(built.declarer, n)
    assert result.scores[built.seat("D")] == 2 * n
    assert result.scores[built.seat("X")] == result.scores[built.seat("Y")] == -n
    assert sum(result.scores) == 0


def scored(
    bid: str,
    built: Built,
    multipliers: Mapping[Part, int] | None = None,
    *,
    points: tuple[int, int],
    parts: dict[Part, tuple[bool, int, int]],
    n: int,
    silent: tuple[object, ...] | None = None,
) -> DealResult:
    """``built`` settled as ``bid``: its card points (declarer, defenders), its parts as ``{part: (won,
    value, per_defender)}``, ``n`` per defender (``check``) and, when given, its silent bonuses; the result."""
    result = score(bid, built, multipliers)
    assert result.points == points, result.points
    assert parts_of(result) == parts
    if silent is not None:
        assert result.silent == silent
    check(result, built, n)
    return result


# ---------------------------------------------------------------------------------------------
# Deals. Each comment gives the card points of the tricks; "last" is the 10 for trick 10.

# D 40 in tricks + last 10 = 50; defenders 40; talon ♦7 ♥J = 0; no seat holds a marriage.
DEAL_S1 = [
    "AS 9S 7S D",  # D 10
    "TS QS 8S D",  # D 10
    "AC 8C 7C D",  # D 10
    "AD KD 9D D",  # D 10
    "8H AH TH X",  # X 20
    "9C TC JC X",  # X 10 (X leads)
    "8D TD JD X",  # X 10
    "9H QH KH Y",  # Y beats the ♥Q
    "JS KC QC D",  # Y leads ♣Q, D trumps
    "KS 7H QD D",  # last trick to D, not with the ♠7
]
TALON_S1 = "7D JH"

# D 30 in tricks + last 10 = 40; defenders 50; talon ♠Q ♣8 = 0; D leads the ♠7 in trick 8.
DEAL_S2 = [
    "AS JC TH D",  # D 20
    "TS 9D 9C D",  # D 10
    "KS 9H 8D D",
    "7C AC TC X",  # X 20
    "7D AD TD X",  # X 20
    "7H AH KH X",  # X 10
    "JS KC QC D",  # X leads ♣K, D trumps
    "7S KD QD D",
    "9S QH JD D",
    "8S 8H JH D",  # last
]
TALON_S2 = "QS 8C"

# D 30 in tricks + last 10 = 40; defenders 30 in tricks + talon ♣A ♦T = 50.
DEAL_S3 = [
    "AS KS 9C D",  # D 10
    "TS 9H TH D",  # D 20
    "7C KC TC Y",  # Y 10 (the ♣10 beats the ♣K)
    "7D KD AD Y",  # Y 10 (Y leads)
    "7H 8H AH Y",  # Y 10
    "QS JC QC D",  # Y leads ♣Q, D trumps
    "JS 9D QD D",
    "9S 8D JD D",
    "7S QH JH D",
    "8S 8C KH D",  # last
]
TALON_S3 = "AC TD"

# D 40 in tricks (+ own ♦K♦Q 20 = 60); defenders 40 + last 10 = 50 (+ X's ♥K♥Q 20 = 70).
DEAL_S4 = [
    "AS TC TH D",  # D 30
    "TS 9C JC D",  # D 10
    "KS KC QC D",
    "JS KH JD D",
    "9S 8D 7D D",
    "8S 9D 9H D",
    "7S QH 8H D",
    "7H AH JH X",  # X 10
    "QD AD TD X",  # X 20 (X leads)
    "KD AC 7C X",  # X 10 + last
]
TALON_S4 = "QS 8C"

# Hearts trumps. D takes all ten: ♥A ♥T ♣A ♦A ♠A ♠T = 60 + last 10 = 70; talon ♣T ♦T = 20.
# X holds ♣K♣Q and Y ♦K♦Q (two 20s); D holds no K+Q; trick 10 is won by the ♥A.
DEAL_S5 = [
    "TH QH 7S D",
    "KH JC 9S D",
    "JH 9C JD D",
    "9H 9D 7D D",
    "8H JS 7C D",
    "7H 8S QS D",
    "AC QC 8C D",
    "AD 8D QD D",
    "AS KS TS D",
    "AH KC KD D",
]
TALON_S5 = "TC TD"

# Hearts trumps. D holds ♥K♥Q (40) and ♣K♣Q (20); D's tricks 40 + last 10 = 50 → 110.
# Defenders 40; the ♥7 lies in the talon (♥8 ♥7 = 0).
DEAL_S6 = [
    "AH TC TS D",  # D 30
    "TH 7C QD D",  # D 10
    "7D AD TD X",  # X 20
    "7S AS KS X",  # X 10
    "QC AC 9C X",  # X 10
    "KC JC 8C D",  # X leads ♣J, D must beat it with the ♣K
    "KH KD JD D",
    "QH QS JS D",
    "JH 9D 9S D",
    "9H 8S 8D D",  # last
]
TALON_S6 = "8H 7H"

# X holds ♠K♠Q (40), Y ♥K♥Q (20); defenders' tricks 50 → 110; D 30 + last 10 = 40.
DEAL_S7 = [
    "AS QS TC D",  # D 20
    "TS KS 9C D",  # D 10
    "7C AC QC X",  # X 10
    "7D AD 9D X",  # X 10
    "7H AH TH X",  # X 20
    "8C KC TD X",  # X 10 (Y discards the ♦10)
    "JS KD QD D",  # X leads ♦K, D trumps
    "7S JC 9H D",
    "8S JD KH D",
    "9S JH QH D",  # last
]
TALON_S7 = "8D 8H"

# D takes the last trick with the ♠7 (held back to the end); D 40 + last 10 = 50, defenders 40.
DEAL_S8 = [
    "7C AC TC X",  # X 20
    "7D AD TD X",  # X 20 (X leads)
    "8S KC QC D",  # X leads ♣K, D trumps with the ♠8 (the ♠7 is held back)
    "AS AH TH D",  # D 30
    "TS JC QD D",  # D 10
    "KS 9C JD D",
    "JS 9D JH D",
    "9S 8D 9H D",
    "7H KH QH X",  # X beats D's ♥7
    "7S KD 8H D",  # X leads ♦K; D's only card is the ♠7, which takes the trick
]
TALON_S8 = "QS 8C"

# X keeps the ♠8 to trick 10 and beats D's ♠7 there. D 60 in tricks, defenders 30 + last 10.
DEAL_S9 = [
    "AS KS QS D",  # D 10
    "7C TC 9C X",  # X 10
    "9S AH 7H D",  # X leads ♥A, D trumps: D 10
    "8C KC QC X",
    "JS TH 8H D",  # D 10
    "7D TD JD X",  # X 10
    "TS KH 9H D",  # D 10
    "AC JC JH D",  # D 10
    "AD KD QD D",  # D 10
    "7S 8S QH X",  # the ♠8 captures the ♠7; last to X
]
TALON_S9 = "9D 8D"

# Like S-8, but the hearts honours go to X: D 20 + last 10 = 30, defenders 60.
DEAL_S10 = [
    "7C AC TC X",  # X 20
    "7D AD TD X",  # X 20
    "8S KC QC D",
    "AS JC QD D",  # D 10
    "TS 9C JD D",  # D 10
    "KS KD 8D D",
    "JS 9D QH D",
    "9S KH JH D",
    "7H AH TH X",  # X 20
    "7S 9H 8H D",  # D's ♠7 wins the last trick
]
TALON_S10 = "QS 8C"

# Like S-9, but the hearts honours lie in the talon: D 40, defenders 20 + last 10 + talon 20 = 50.
DEAL_S11 = [
    "AS KS QS D",  # D 10
    "7C TC 9C X",  # X 10
    "9S KH 7H D",
    "8C KC QC X",
    "JS JH QH D",
    "7D TD JD X",  # X 10
    "TS 9H 8H D",  # D 10
    "AC JC 8D D",  # D 10
    "AD KD QD D",  # D 10
    "7S 8S 9D X",  # the ♠8 captures the ♠7; last to X
]
TALON_S11 = "AH TH"

# The ♠7 (and ♠Q) lie in the talon. D 40 + last 10 = 50, defenders 40.
DEAL_S12 = [
    "7C AC TC X",  # X 20
    "7D AD TD X",  # X 20
    "8S KC QC D",
    "AS JC 8C D",  # D 10
    "TS 9C QD D",  # D 10
    "KS KD JD D",
    "JS 9D 8D D",
    "AH JH TH D",  # D 20
    "KH QH 9H D",
    "9S 8H 7H D",  # last
]
TALON_S12 = "QS 7S"

# Hearts trumps; D holds ♥K♥Q (40). D 50 in tricks + last 10 = 60 → 100; defenders 30.
# D's ♥7 takes trick 10.
DEAL_S14 = [
    "7C AC TC X",  # X 20
    "7D AD 9S X",  # X 10 (Y has no diamonds)
    "8H KC QC D",  # X leads ♣K, D trumps with the ♥8
    "AH AS TS D",  # D 30
    "TH TD 8C D",  # D 20
    "KH KD 9C D",
    "QH JD JC D",
    "9H 9D 8S D",
    "7S KS JS X",
    "7H 8D QS D",  # X leads ♦8, D trumps with the ♥7: last to D
]
TALON_S14 = "JH QD"

# Minor suit: D holds ♠K♠Q (40) and ♦K♦Q (20); D 40 in tricks + last 10 = 50 → 90; defenders 40.
DEAL_S16 = [
    "7C AC TC X",  # X 20
    "QD AD TD X",  # X 20
    "8S KC QC D",
    "AS AH TH D",  # D 30
    "TS JC 9C D",  # D 10
    "KS KH QH D",
    "QS 9H JH D",
    "JS 8H 7H D",
    "KD JD 8D D",
    "9S 9D 7D D",  # last
]
TALON_S16 = "7S 8C"

# D lacks the ♠Q (talon ♠Q ♠7 = 0); D 70 in tricks + last 10 = 80; defenders 10.
DEAL_S17 = [
    "7C TC 9C X",  # X 10
    "AC KC 8C D",  # X leads ♣K, D beats it with the ♣A: D 10
    "AS TD TH D",  # D 30
    "TS 9H QC D",  # D 10
    "AD KD QD D",  # D 10
    "AH QH KH D",  # D 10
    "KS JD 8D D",
    "JS 9D 7D D",
    "9S JH 8H D",
    "8S JC 7H D",  # last
]
TALON_S17 = "QS 7S"

# Clubs trumps. D holds ♣K♣Q (a 40, ignored in 20-100) and ♥K♥Q (20).
# D 70 in tricks + last 10 = 80; defenders 10 (the ♠10).
DEAL_S18 = [
    "7S TS 9S X",  # X 10
    "AD 9D TD D",  # X leads ♦9, Y must beat it with the ♦10, D with the ♦A: D 20
    "AC AS TH D",  # D 30
    "TC AH QS D",  # D 20
    "KC KS JS D",
    "QC KD 8S D",
    "JC JD QD D",
    "9C 8D 7D D",
    "KH JH 8H D",
    "QH 9H 7H D",  # last
]
TALON_S18 = "8C 7C"

# As S-18, but Y keeps the ♥10 out of D's tricks: it lies in the talon; D 60 + last 10 = 70.
DEAL_S19 = [
    "7S TS 9S X",  # X 10
    "AD 9D TD D",  # D 20
    "AC AS 7C D",  # D 20 (Y must follow with its trump)
    "TC AH QS D",  # D 20
    "KC KS JS D",
    "QC KD 8S D",
    "JC JD QD D",
    "9C 8D 7D D",
    "KH JH 8H D",
    "QH 9H 7H D",  # last
]
TALON_S19 = "8C TH"

# No trumps; X takes every trick.
DEAL_BETLI_WON = [
    "7C AC TC X",
    "8C KC JC X",
    "9C QC TS X",
    "7D AD TD X",
    "8D KD JD X",
    "9D QD JS X",
    "7H AH TH X",
    "8H KH JH X",
    "9H QH QS X",
    "7S AS KS X",
]
TALON_BETLI_WON = "9S 8S"

# No trumps; D takes trick 4 with the ♦K and the betli ends there.
DEAL_BETLI_LOST = [
    "7C AC TC X",
    "8C KC JC X",
    "9C QC 8S X",
    "KD 7D 9S D",
]
REST_BETLI_LOST = {"D": "8D 9D 7H 8H 9H 7S", "X": "AD QD AH KH QH AS", "Y": "JH TH KS QS JS TS"}
TALON_BETLI_LOST = "JD TD"

# No trumps; D takes tricks 1-5 and loses trick 6.
DEAL_DURCHMARS_LOST = [
    "AC JC 8C D",
    "KC TC 7C D",
    "QC 9C 7D D",
    "AD TD 8D D",
    "KD JD 9D D",
    "7S QS JS X",
]
REST_DURCHMARS_LOST = {"D": "AH KH AS KS", "X": "QD QH JH TH", "Y": "TS 9S 9H 8H"}
TALON_DURCHMARS_LOST = "7H 8S"

# No trumps; D takes every trick.
DEAL_DURCHMARS_WON = [
    "AC JC 8C D",
    "KC TC 7C D",
    "QC 9C 9S D",
    "AD JD 8D D",
    "KD TD 7D D",
    "QD 9D TS D",
    "AH JH 8H D",
    "KH TH 7H D",
    "QH 9H JS D",
    "AS KS QS D",
]
TALON_DURCHMARS_WON = "8S 7S"

# D holds all eight trumps (so the 40), leads the side aces, then trumps, the ♠7 last.
DEAL_ALL_TEN_SEVEN_LAST = [
    "AC TC 7C D",
    "AD TD 7D D",
    "AS KC QC D",
    "TS JC 9C D",
    "KS 8C QD D",
    "QS KD 9D D",
    "JS JD TH D",
    "9S 8D QH D",
    "8S AH JH D",
    "7S KH 9H D",
]
TALON_ALL_TEN = "8H 7H"

# X wins trick 3 (D's ♦7); X leads the ♥A and D trumps with the ♠8 (holding the ♠7 back).
DEAL_S27 = [
    "AC TC 7C D",
    "AS KC 9C D",
    "7D AD 8D X",
    "8S AH TH D",
    "TS JC QC D",
    "KS TD 8C D",
    "QS KD QD D",
    "JS KH JD D",
    "9S JH QH D",
    "7S 9D 9H D",
]
TALON_S27 = "8H 7H"

# D takes all ten with a 20 (♣K♣Q) and no 40 (the ♠Q lies in the talon); t=0; last with the ♠A.
DEAL_S41 = [
    "AC TC 7C D",
    "KC JC 8C D",
    "QC 9C 7D D",
    "TS 9D 8D D",
    "KS JD 8H D",
    "JS KD 9H D",
    "9S AD QD D",
    "8S JH TD D",
    "7S KH QH D",
    "AS AH TH D",
]
TALON_S41 = "QS 7H"

# Hearts trumps; D holds ♣K♣Q (20), loses trick 9 and takes trick 10 with the ♥7; D 90 + 20.
DEAL_S30 = [
    "AH AC TC D",
    "TH AD TD D",
    "KH AS TS D",
    "JH KS QS D",
    "9H 9S JS D",
    "8H KD QD D",
    "KC JC 8C D",
    "QC 9C 7C D",
    "7D 9D JD Y",
    "7H 8S 8D D",  # Y leads ♦8, D trumps with the ♥7
]
TALON_S30 = "QH 7S"

# X keeps the ♠7 and trumps D's ♥7 lead in trick 10. D holds ♠K♠Q; D 60 in tricks; talon ♦A ♦T.
DEAL_S38 = [
    "AS 8S 7D D",
    "TS 9S 8D D",
    "KS JS 9D D",
    "AC 9C 8C D",
    "TC JC QC D",
    "AH 9H 8H D",
    "TH KH JH D",
    "7C KC JD X",
    "QS KD QD D",  # X leads ♦K, D trumps with the ♠Q
    "7H 7S QH X",  # X trumps with the ♠7 and takes the last trick
]
TALON_S38 = "AD TD"

# X keeps the ♠7 to trick 10, where D's ♠J beats it. D holds no marriage; D 70 + last 10 = 80.
DEAL_S39 = [
    "AS 8S 7D D",
    "TS 9S 8D D",
    "KS QS 9D D",
    "AC 9C 8C D",
    "TC JC QC D",
    "AH 9H 8H D",
    "TH KH JH D",
    "7C KC JD X",
    "AD KD QD D",  # X leads ♦K, D beats it with the ♦A
    "JS 7S QH D",
]
TALON_S39 = "TD 7H"

# X alone takes all ten; t=0; no defender marriage. X leads the ♠7 early, the last trick with ♠8.
DEAL_S42 = [
    "9C AC 8C X",
    "8D AD 7D X",
    "9H AH 7H X",
    "TC 7S QC X",
    "KC AS JC X",
    "TD TS QD X",
    "KD KS JD X",
    "9D JS QH X",
    "TH 9S JH X",
    "KH 8S 8H X",
]
TALON_S42 = "QS 7C"

# The same cards but Y holds the ♥A: Y takes trick 3 and the defenders split the ten tricks.
DEAL_S42_SPLIT = [
    "9C AC 8C X",
    "8D AD 7D X",
    "9H 7H AH Y",  # X leads ♥7, Y must beat it
    "KC 7S QC X",  # Y leads ♣Q, D must beat it with the ♣K, X trumps
    "TC AS JC X",
    "TD TS QD X",
    "KD KS JD X",
    "9D JS QH X",
    "TH 9S JH X",
    "KH 8S 8H X",
]

# M-20D: the defenders take trick 1 (♦A 10); D trumps the rest and ends with ♥K, ♥Q (a 20).
DEAL_S44 = [
    "7D AD 8D X",
    "7S KD TD D",  # X leads ♦K, Y must beat it with the ♦10, D trumps
    "AS AH TH D",
    "TS AC TC D",
    "KS KC QC D",
    "JS JC 8C D",
    "9S JD QD D",
    "8S 9C 9D D",
    "KH JH 8H D",
    "QH 9H 7H D",
]
TALON_S44 = "QS 7C"


def test_deals_realise_the_stated_card_points() -> None:
    # A check of the test data itself: the talons hold the points the examples state.
    assert points_of(TALON_S1) == points_of(TALON_S2) == points_of(TALON_S7) == 0
    assert points_of(TALON_S3) == points_of(TALON_S5) == 20
    assert points_of(TALON_S19) == 10


# ---------------------------------------------------------------------------------------------
# S-1 .. S-7: the Simple game


def test_S1_simple_won_50_to_40() -> None:
    built = build(DEAL_S1, talon=TALON_S1, trump="S")
    scored("M-S", built, points=(50, 40), parts={S: (True, 1, 1)}, n=1, silent=())


def test_S2_simple_lost_40_to_50() -> None:
    built = build(DEAL_S2, talon=TALON_S2, trump="S", declarer=1)
    scored("M-S", built, points=(40, 50), parts={S: (False, 1, -1)}, n=-1, silent=())


def test_S3_talon_points_count_for_the_defenders() -> None:
    built = build(DEAL_S3, talon=TALON_S3, trump="S")
    scored("M-S", built, points=(40, 50), parts={S: (False, 1, -1)}, n=-1)


def test_S4_both_sides_count_their_marriages() -> None:
    built = build(DEAL_S4, talon=TALON_S4, trump="S")
    assert built.hand("D") & mask("KD QD") == mask("KD QD")
    assert built.hand("X") & mask("KH QH") == mask("KH QH")
    scored("M-S", built, points=(60, 70), parts={S: (False, 1, -1)}, n=-1)


def test_S5_hearts_simple_silent_durchmars_no_silent_100() -> None:
    built = build(DEAL_S5, talon=TALON_S5, trump="H")
    assert built.played_in_trick(10, "D") == "AH"
    result = score("H-S", built)
    # The defenders hold two 20s and the talon holds 20, but they took no trick: 0 (§4.3, §9 A17).
    assert result.points == (70, 0)
    assert parts(result) == {S: (True, 2, 2)}
    assert silent(result) == {("durchmars", "declarer", True, 6)}
    check(result, built, 8)


def test_S6_hearts_simple_silent_100_doubles_the_simple_game() -> None:
    built = build(DEAL_S6, talon=TALON_S6, trump="H", declarer=2)
    result = score("H-S", built)
    assert result.points == (110, 40)
    assert parts(result) == {S: (True, 4, 4)}
    assert {s.bonus for s in result.silent} == {"100"}
    check(result, built, 4)


def test_S7_defenders_silent_100_doubles_the_lost_simple_game() -> None:
    built = build(DEAL_S7, talon=TALON_S7, trump="S")
    result = score("M-S", built)
    assert result.points == (40, 110)
    assert parts(result) == {S: (False, 2, -2)}
    assert [(s.bonus, s.side) for s in result.silent] == [("100", "defenders")]
    check(result, built, -2)


# ---------------------------------------------------------------------------------------------
# S-8 .. S-14: ulti


def test_S8_ulti_and_simple_won() -> None:
    built = build(DEAL_S8, talon=TALON_S8, trump="S", ulti=True)
    scored("M-SU", built, points=(50, 40), parts={S: (True, 1, 1), U: (True, 4, 4)}, n=5, silent=())


def test_S9_ulti_seven_beaten_in_trick_10() -> None:
    built = build(DEAL_S9, talon=TALON_S9, trump="S", ulti=True)
    assert (built.played_in_trick(10, "D"), built.played_in_trick(10, "X")) == ("7S", "8S")
    scored("M-SU", built, points=(60, 30), parts={S: (True, 1, 1), U: (False, 4, -8)}, n=-7, silent=())


def test_S10_simple_lost_ulti_won() -> None:
    built = build(DEAL_S10, talon=TALON_S10, trump="S", ulti=True)
    scored("M-SU", built, points=(30, 60), parts={S: (False, 1, -1), U: (True, 4, 4)}, n=3)


def test_S11_simple_and_ulti_lost() -> None:
    built = build(DEAL_S11, talon=TALON_S11, trump="S", ulti=True, declarer=1)
    scored("M-SU", built, points=(40, 50), parts={S: (False, 1, -1), U: (False, 4, -8)}, n=-9)


def test_S12_trump_seven_in_the_talon_loses_the_ulti() -> None:
    built = build(DEAL_S12, talon=TALON_S12, trump="S", ulti=True)
    assert built.talon & mask("7S")
    scored("M-SU", built, points=(50, 40), parts={S: (True, 1, 1), U: (False, 4, -8)}, n=-7, silent=())


# S-9 with the declarer holding the ♠K♠Q (ranks exchanged), then hearts made trumps.
S13_SWAP = {"KS": "JS", "QS": "9S"}
DEAL_S13 = translate(translate(DEAL_S9, S13_SWAP), SPADES_HEARTS)


def test_S13_hearts_40_100_ulti_seven_captured() -> None:
    built = build(DEAL_S13, talon=translate_cards(TALON_S9, SPADES_HEARTS), trump="H", ulti=True)
    assert built.hand("D") & mask("KH QH") == mask("KH QH")
    assert (built.played_in_trick(10, "D"), built.played_in_trick(10, "X")) == ("7H", "8H")
    scored("H-40U", built, points=(100, 30), parts={F: (True, 8, 8), U: (False, 8, -16)}, n=-8)


def test_S14_hearts_40_100_ulti_both_made() -> None:
    built = build(DEAL_S14, talon=TALON_S14, trump="H", ulti=True)
    scored("H-40U", built, points=(100, 30), parts={F: (True, 8, 8), U: (True, 8, 8)}, n=16, silent=())


# ---------------------------------------------------------------------------------------------
# S-15 .. S-19: 40-100 and 20-100

# S-14 in spades, with D trumping trick 3 with the 7 and taking trick 10 with the 8 instead.
DEAL_S15 = translate(translate(DEAL_S14, {"8H": "7H"}), SPADES_HEARTS)
TALON_S15 = translate_cards(TALON_S14, SPADES_HEARTS)


def test_S15_40_100_made_with_60() -> None:
    built = build(DEAL_S15, talon=TALON_S15, trump="S")
    assert built.played_in_trick(10, "D") == "8S"
    scored("M-40", built, points=(100, 30), parts={F: (True, 4, 4)}, n=4, silent=())


def test_S16_40_100_lost_the_20_does_not_count() -> None:
    built = build(DEAL_S16, talon=TALON_S16, trump="S")
    assert built.hand("D") & mask("KD QD KS QS") == mask("KD QD KS QS")
    scored("M-40", built, points=(90, 40), parts={F: (False, 4, -4)}, n=-4)


def test_S17_40_100_lost_without_the_trump_marriage() -> None:
    built = build(DEAL_S17, talon=TALON_S17, trump="S")
    scored("M-40", built, points=(80, 10), parts={F: (False, 4, -4)}, n=-4)


def test_S18_20_100_made_the_trump_40_is_ignored() -> None:
    built = build(DEAL_S18, talon=TALON_S18, trump="C")
    assert built.hand("D") & mask("KC QC KH QH") == mask("KC QC KH QH")
    scored("M-20", built, points=(100, 10), parts={T: (True, 8, 8)}, n=8)


def test_S19_20_100_lost_with_70() -> None:
    built = build(DEAL_S19, talon=TALON_S19, trump="C")
    scored("M-20", built, points=(90, 20), parts={T: (False, 8, -8)}, n=-8)


# ---------------------------------------------------------------------------------------------
# S-20 .. S-25: no-trump contracts


def test_S20_betli_won() -> None:
    built = build(DEAL_BETLI_WON, talon=TALON_BETLI_WON, trump=None)
    result = score("N-B", built)
    assert result.points is None
    assert parts(result) == {B: (True, 5, 5)}
    assert result.silent == ()
    check(result, built, 5)


def test_S21_betli_lost_at_trick_4_play_stops() -> None:
    built = build(DEAL_BETLI_LOST, talon=TALON_BETLI_LOST, trump=None, rest=REST_BETLI_LOST)
    result = score("N-B", built)
    assert parts(result) == {B: (False, 5, -5)}
    assert (result.tricks, result.ended_early) == (4, True)
    check(result, built, -5)


def test_S22_open_betli_lost_with_kontra() -> None:
    built = build(DEAL_BETLI_LOST, talon=TALON_BETLI_LOST, trump=None, rest=REST_BETLI_LOST)
    result = score("N-OB", built, {B: 2})
    assert [(p.won, p.value, p.multiplier, p.per_defender) for p in result.parts] == [(False, 20, 2, -40)]
    check(result, built, -40)


def test_S23_heart_betli_won() -> None:
    built = build(DEAL_BETLI_WON, talon=TALON_BETLI_WON, trump=None, declarer=2)
    result = score("N-HB", built)
    assert parts(result) == {B: (True, 10, 10)}
    check(result, built, 10)


def test_S24_durchmars_lost_at_trick_6() -> None:
    built = build(DEAL_DURCHMARS_LOST, talon=TALON_DURCHMARS_LOST, trump=None, rest=REST_DURCHMARS_LOST)
    result = score("N-D", built)
    assert parts(result) == {DM: (False, 6, -6)}
    assert (result.tricks, result.ended_early) == (6, True)
    check(result, built, -6)


def test_S25_open_durchmars_won() -> None:
    built = build(DEAL_DURCHMARS_WON, talon=TALON_DURCHMARS_WON, trump=None)
    result = score("N-OD", built)
    assert parts(result) == {DM: (True, 24, 24)}
    assert result.silent == ()
    check(result, built, 24)


# ---------------------------------------------------------------------------------------------
# S-26 .. S-30: durchmars with trumps


def test_S26_ulti_durchmars_all_made_no_silent_bonus() -> None:
    built = build(DEAL_ALL_TEN_SEVEN_LAST, talon=TALON_ALL_TEN, trump="S", ulti=True)
    result = score("M-UD", built)
    assert parts(result) == {U: (True, 4, 4), DM: (True, 6, 6)}
    assert S not in parts(result)
    assert result.silent == ()
    check(result, built, 10)


def test_S27_ulti_durchmars_durchmars_lost_at_trick_3() -> None:
    built = build(DEAL_S27, talon=TALON_S27, trump="S", ulti=True)
    result = score("M-UD", built)
    assert parts(result) == {U: (True, 4, 4), DM: (False, 6, -6)}
    assert result.silent == ()
    check(result, built, -2)


# S-26's deal with the ♠7 led in trick 3 and the ♠A kept for trick 10 (no trump 7 in trick 10).
DEAL_S28 = translate(DEAL_ALL_TEN_SEVEN_LAST, {"AS": "7S"})


def test_S28_40_100_open_durchmars_all_made() -> None:
    built = build(DEAL_S28, talon=TALON_ALL_TEN, trump="S")
    assert built.played_in_trick(10, "D") == "AS"
    result = score("M-40O", built)
    assert parts(result) == {F: (True, 4, 4), DM: (True, 24, 24)}
    assert result.silent == ()
    check(result, built, 28)


# S-41's deal with hearts trumps and the ♥7 kept for trick 10.
DEAL_S29 = translate(translate(DEAL_S41, {"AS": "7S"}), SPADES_HEARTS)


def test_S29_hearts_20_100_ulti_open_durchmars_all_made() -> None:
    built = build(DEAL_S29, talon=translate_cards(TALON_S41, SPADES_HEARTS), trump="H", ulti=True)
    assert built.played_in_trick(10, "D") == "7H"
    scored("H-20UO", built, points=(110, 0), parts={T: (True, 16, 16), U: (True, 8, 8), DM: (True, 24, 24)}, n=48)


def test_S30_hearts_20_100_ulti_open_durchmars_defender_wins_trick_9() -> None:
    built = build(DEAL_S30, talon=TALON_S30, trump="H", ulti=True)
    assert built.tricks[8].winner == built.seat("Y")
    won = {T: (True, 16, 16), U: (True, 8, 8), DM: (False, 24, -24)}
    result = scored("H-20UO", built, points=(110, 0), parts=won, n=0)
    assert result.scores == (0, 0, 0)


# ---------------------------------------------------------------------------------------------
# S-31 .. S-35: kontra (settled directly; some are also played through a Deal below)


def test_S31_ulti_kontra_rekontra_both_won() -> None:
    built = build(DEAL_S8, talon=TALON_S8, trump="S", ulti=True)
    result = score("M-SU", built, {U: 4})
    assert parts(result) == {S: (True, 1, 1), U: (True, 4, 16)}
    check(result, built, 17)


def test_S32_ulti_rekontra_lost_extra_not_doubled() -> None:
    built = build(DEAL_S9, talon=TALON_S9, trump="S", ulti=True)
    result = score("M-SU", built, {U: 4})
    assert parts(result) == {S: (True, 1, 1), U: (False, 4, -20)}
    check(result, built, -19)


def test_S33_kontra_on_the_simple_game_only() -> None:
    built = build(DEAL_S10, talon=TALON_S10, trump="S", ulti=True)
    result = score("M-SU", built, {S: 2})
    assert parts(result) == {S: (False, 1, -2), U: (True, 4, 4)}
    check(result, built, 2)


@pytest.mark.parametrize(
    ("deal", "talon", "won", "n"), [(DEAL_S15, TALON_S15, True, 256), (DEAL_S16, TALON_S16, False, -256)]
)
def test_S34_40_100_at_fedaksari(deal: list[str], talon: str, won: bool, n: int) -> None:
    built = build(deal, talon=talon, trump="S")
    result = score("M-40", built, {F: 64})
    assert [(p.won, p.multiplier, p.per_defender) for p in result.parts] == [(won, 64, n)]
    check(result, built, n)
    assert result.scores[built.seat("D")] == (512 if won else -512)


def test_S35_ulti_at_fedaksari_lost_simple_won() -> None:
    built = build(DEAL_S9, talon=TALON_S9, trump="S", ulti=True)
    result = score("M-SU", built, {U: 64})
    assert parts(result) == {S: (True, 1, 1), U: (False, 4, -260)}
    check(result, built, -259)
    assert result.scores[built.seat("D")] == -518


# ---------------------------------------------------------------------------------------------
# S-36 .. S-45: silent bonuses and the rest


def test_S36_silent_ulti_won_by_the_declarer() -> None:
    built = build(DEAL_S8, talon=TALON_S8, trump="S")
    result = score("M-S", built)
    assert parts(result) == {S: (True, 1, 1)}
    assert silent(result) == {("ulti", "declarer", True, 2)}
    check(result, built, 3)


# S-9 with hearts trumps: D wins the Simple game 60 to 30 and X's ♥8 captures D's ♥7.
DEAL_S37 = translate(DEAL_S9, SPADES_HEARTS)
TALON_S37 = translate_cards(TALON_S9, SPADES_HEARTS)


def test_S37_hearts_silent_ulti_lost_by_the_declarer() -> None:
    built = build(DEAL_S37, talon=TALON_S37, trump="H")
    assert built.played_in_trick(10, "D") == "7H"
    result = score("H-S", built)
    assert result.points == (60, 30)
    assert parts(result) == {S: (True, 2, 2)}
    assert silent(result) == {("ulti", "declarer", False, -8)}
    check(result, built, -6)


def test_S38_defender_silent_ulti_against_a_made_40_100() -> None:
    built = build(DEAL_S38, talon=TALON_S38, trump="S")
    assert built.played_in_trick(10, "X") == "7S"
    result = score("M-40", built)
    assert result.points == (100, 30)
    assert parts(result) == {F: (True, 4, 4)}
    assert silent(result) == {("ulti", "defenders", True, -2)}
    check(result, built, 2)


def test_S39_defender_seven_beaten_by_the_declarer() -> None:
    built = build(DEAL_S39, talon=TALON_S39, trump="S")
    assert (built.played_in_trick(10, "D"), built.played_in_trick(10, "X")) == ("JS", "7S")
    result = score("M-S", built)
    assert result.points == (80, 10)
    assert parts(result) == {S: (True, 1, 1)}
    assert silent(result) == {("ulti", "defenders", False, 4)}
    check(result, built, 5)


def test_S40_40_100_ulti_all_ten_silent_durchmars() -> None:
    built = build(DEAL_ALL_TEN_SEVEN_LAST, talon=TALON_ALL_TEN, trump="S", ulti=True)
    result = score("M-40U", built)
    assert result.points == (130, 0)
    assert parts(result) == {F: (True, 4, 4), U: (True, 4, 4)}
    assert silent(result) == {("durchmars", "declarer", True, 3)}
    check(result, built, 11)


def test_S41_all_ten_with_a_20_silent_100_and_silent_durchmars() -> None:
    built = build(DEAL_S41, talon=TALON_S41, trump="S")
    assert built.played_in_trick(10, "D") == "AS"
    result = score("M-S", built)
    assert result.points == (110, 0)
    assert parts(result) == {S: (True, 2, 2)}
    assert {(s.bonus, s.side) for s in result.silent} == {("100", "declarer"), ("durchmars", "declarer")}
    assert ("durchmars", "declarer", True, 3) in silent(result)
    check(result, built, 5)


def test_S42_defender_alone_takes_all_ten() -> None:
    built = build(DEAL_S42, talon=TALON_S42, trump="S")
    result = score("M-S", built)
    assert result.points == (0, 90)
    assert parts(result) == {S: (False, 1, -1)}
    assert silent(result) == {("durchmars", "defenders", False, -3)}
    check(result, built, -4)


def test_S42_defenders_splitting_the_ten_tricks_earn_nothing_extra() -> None:
    built = build(DEAL_S42_SPLIT, talon=TALON_S42, trump="S")
    result = score("M-S", built)
    assert result.points == (0, 90)
    assert result.silent == ()
    check(result, built, -1)


def test_S43_hearts_simple_silent_100_then_kontra() -> None:
    built = build(DEAL_S6, talon=TALON_S6, trump="H")
    result = score("H-S", built, {S: 2})
    assert [(p.part, p.won, p.value, p.multiplier, p.per_defender) for p in result.parts] == [(S, True, 4, 2, 8)]
    check(result, built, 8)


def test_S44_20_100_durchmars_defenders_win_trick_1() -> None:
    built = build(DEAL_S44, talon=TALON_S44, trump="S")
    assert built.tricks[0].winner == built.seat("X")
    scored("M-20D", built, points=(100, 10), parts={T: (True, 8, 8), DM: (False, 6, -6)}, n=2, silent=())


def test_S45_heart_durchmars_kontra_rekontra_made() -> None:
    built = build(DEAL_DURCHMARS_WON, talon=TALON_DURCHMARS_WON, trump=None)
    result = score("N-HD", built, {DM: 4})
    assert [(p.won, p.value, p.multiplier, p.per_defender) for p in result.parts] == [(True, 12, 4, 48)]
    check(result, built, 48)


# ---------------------------------------------------------------------------------------------
# Kontra examples played through a Deal: the multipliers said at the table reach the settlement.

Step = tuple[str, tuple[Part, ...]]


def play_through_deal(
    built: Built,
    bid: str,
    *,
    before_trick_1: dict[str, tuple[Part, ...]],
    chain: Sequence[Step],
) -> Deal:
    """Play ``built`` in a real Deal: kontras before trick 1 by role, then the chain after it.

    ``chain`` lists (role, parts) steps in order; an empty parts tuple declines.
    """
    dealer = (built.declarer + 2) % 3  # the declarer opened; any dealer would do
    deal = Deal.at_play(list(built.start_hands), dealer, built.declarer, BIDS_BY_CODE[bid], built.trump, built.talon)
    assert deal.phase is Phase.PLAY
    for number, trick in enumerate(built.tricks, 1):
        for i, card in enumerate(trick.cards):
            seat = trick.seat_of(i)
            role = "DXY"[(seat - built.declarer) % 3]
            if number == 1 and role in before_trick_1:
                deal.apply(act.kontra(seat, before_trick_1[role]))
            deal.apply(act.play(seat, card))
        if number == 1 and not deal.is_over:
            for role, raised in chain:
                deal.apply(act.kontra(built.seat(role), raised))
            assert not deal.in_chain
    assert deal.is_over and deal.result is not None
    return deal


def test_S22_through_a_deal_kontra_by_x_reaches_the_open_betli() -> None:
    built = build(DEAL_BETLI_LOST, talon=TALON_BETLI_LOST, trump=None, rest=REST_BETLI_LOST)
    deal = play_through_deal(built, "N-OB", before_trick_1={"X": (B,)}, chain=[("D", ())])
    assert deal.multiplier(B) == 2
    assert deal.result is not None
    check(deal.result, built, -40)


def test_S31_through_a_deal_kontra_and_rekontra_on_the_ulti() -> None:
    built = build(DEAL_S8, talon=TALON_S8, trump="S", ulti=True)
    deal = play_through_deal(built, "M-SU", before_trick_1={"X": (U,)}, chain=[("D", (U,)), ("X", ()), ("Y", ())])
    assert (deal.multiplier(U), deal.multiplier(S)) == (4, 1)
    assert deal.result is not None
    assert parts(deal.result) == {S: (True, 1, 1), U: (True, 4, 16)}
    check(deal.result, built, 17)


def test_S32_through_a_deal_rekontra_on_a_lost_ulti() -> None:
    built = build(DEAL_S9, talon=TALON_S9, trump="S", ulti=True)
    deal = play_through_deal(built, "M-SU", before_trick_1={"Y": (U,)}, chain=[("D", (U,)), ("Y", ()), ("X", ())])
    assert deal.result is not None
    check(deal.result, built, -19)


def test_S33_through_a_deal_kontra_on_the_simple_game_declined() -> None:
    built = build(DEAL_S10, talon=TALON_S10, trump="S", ulti=True)
    deal = play_through_deal(built, "M-SU", before_trick_1={"X": (S,)}, chain=[("D", ())])
    assert (deal.multiplier(S), deal.multiplier(U)) == (2, 1)
    assert deal.result is not None
    check(deal.result, built, 2)


FULL_CHAIN: list[Step] = [("D", (F,)), ("Y", (F,)), ("D", (F,)), ("X", (F,)), ("D", (F,))]


@pytest.mark.parametrize(("deal_cards", "talon", "n"), [(DEAL_S15, TALON_S15, 256), (DEAL_S16, TALON_S16, -256)])
def test_S34_through_a_deal_the_whole_chain_to_fedaksari(deal_cards: list[str], talon: str, n: int) -> None:
    built = build(deal_cards, talon=talon, trump="S")
    deal = play_through_deal(built, "M-40", before_trick_1={"X": (F,)}, chain=FULL_CHAIN)
    assert deal.multiplier(F) == 64
    assert deal.result is not None
    check(deal.result, built, n)


def test_S35_through_a_deal_ulti_to_fedaksari() -> None:
    built = build(DEAL_S9, talon=TALON_S9, trump="S", ulti=True)
    chain: list[Step] = [("D", (U,)), ("X", (U,)), ("D", (U,)), ("Y", (U,)), ("D", (U,))]
    deal = play_through_deal(built, "M-SU", before_trick_1={"Y": (U,)}, chain=chain)
    assert (deal.multiplier(U), deal.multiplier(S)) == (64, 1)
    assert deal.result is not None
    check(deal.result, built, -259)


def test_S43_through_a_deal_kontra_on_a_hearts_simple_game_with_silent_100() -> None:
    built = build(DEAL_S6, talon=TALON_S6, trump="H")
    deal = play_through_deal(built, "H-S", before_trick_1={"Y": (S,)}, chain=[("D", ())])
    assert deal.result is not None
    check(deal.result, built, 8)


def test_S45_through_a_deal_y_kontra_declarer_rekontra() -> None:
    built = build(DEAL_DURCHMARS_WON, talon=TALON_DURCHMARS_WON, trump=None)
    deal = play_through_deal(built, "N-HD", before_trick_1={"Y": (DM,)}, chain=[("D", (DM,)), ("X", ()), ("Y", ())])
    assert deal.multiplier(DM) == 4
    assert deal.result is not None
    check(deal.result, built, 48)
    assert deal.result.to_json()["scores"][built.declarer] == 96
