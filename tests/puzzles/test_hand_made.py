"""A hand-made position of each theme is found and classed.

Each position below is composed by hand (``tests/puzzles/compose.py`` builds it with the engine's own
auction and play) so that one card, or one class of equal cards, is the only good one from what the player
to move could know. The judge must keep it (not forced, not the heuristic bot's card, not a master that
wins at once, the only good card with all hands open and over the worlds of the player's view), the
puzzle built from it must carry the theme and the phase, and its answer must be the card named here.

The positions are late in the deal (one to three tricks left), except the opening lead, which is trick 1 by
definition; the comment above each says why its card is the only one. Seats: 0 is always the declarer.
Trump order in trump contracts is A 10 K Q J 9 8 7; in betli and no-trump durchmars A K Q J 10 9 8 7.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.puzzles.brute import brute_values
from tests.puzzles.compose import position
from tests.puzzles.test_view import check_view
from ulti.engine.errors import IllegalAction
from ulti.puzzles.cut import build
from ulti.puzzles.judge import judge
from ulti.puzzles.themes import THEMES


@dataclass(frozen=True)
class HandMade:
    """A composed position, the theme and phase it must be classed with, and its answer."""

    text: str
    answer: tuple[str, ...]
    phase: str


POSITIONS: dict[str, HandMade] = {
    # Spades ulti; defender seat 1 leads to trick 9 holding 9D 8H. The declarer ruffed trick 7's AD, so he
    # is void in diamonds; every trump but his 7 and every club is out, and seat 2 showed out of hearts, so
    # the declarer's other card is a heart. A diamond lead forces him to ruff with the 7 now (his only
    # trump, and he must trump): the ulti is lost. After 8H he follows with a heart and keeps the 7 for
    # trick 10. The heuristic bot leads its lowest card, 8H.
    "catch_seven": HandMade(
        """
        M-SU S by 0
        talon 7H QH
        0: 7S KH
        1: 9D 8H
        2: QD KD
        AS 8S JS | TS 9S QS | AC 9C 7C | TC JC 8C | AH 9H 8D | JH TH JD
        AD 7D KS | QC KC TD
        """,
        ("9D",),
        "endgame",
    ),
    # Spades ulti; the declarer holds 7S AH KH, no defender has a trump, seat 2 leads 9H. In trick 3 seat 2
    # played 8H under seat 1's QH: had it held TH it would have had to beat the QH, so TH is seat 1's (who
    # plays after the declarer). KH (the heuristic bot's lowest winner) loses to TH, and seat 1 then leads a
    # club, forcing the 7 out in trick 9. AH wins, seat 1's TH (its only heart) falls under it, and KH and
    # the 7 take the last two tricks.
    "save_ulti": HandMade(
        """
        M-SU S by 0
        talon KS KC
        0: 7S AH KH
        1: TH JC QC
        2: 7H 7C
        AS 9S 8S | TS QS JS | JH QH 8H | JD AD 7D | AC 8C 9C | TD 8D QD | KD 9D TC
        9H
        """,
        ("AH",),
        "endgame",
    ),
    # Betli; defender seat 2 leads to trick 8 holding TD 7D KH. Seat 1 showed out of diamonds in trick 4,
    # so the one diamond not seen, 8D, is the declarer's or in the talon. Led, 7D makes the declarer beat
    # it with 8D (a card that can beat the top must be played) and nobody can overtake: the betli breaks.
    # TD or KH (the heuristic bot's highest card) let him play under.
    "betli_defence": HandMade(
        """
        N-B - by 0
        talon AS KS
        0: 8D 7C 7H
        1: QH QC AH
        2: TD 7D KH
        7S TS JD | JS KD 8S | TC AC 9C | QD 9D TH | 9H 8H JH | QS AD 9S | JC KC 8C
        """,
        ("7D",),
        "endgame",
    ),
    # Open (no-trump) durchmars, so every hand is face up; the declarer leads AC to trick 8 and will lead
    # JS and 7D. Seat 1, void in clubs, must keep 8D, the only card that beats the 7D: a heart goes. The
    # heuristic bot throws its lowest card that scores nothing, the 8D.
    "durchmars": HandMade(
        """
        N-OD - by 0
        talon JC QC
        0: 7D JS
        1: 8D QH KH
        2: 9C TC JH
        AD 9D TD | KD QD JD | AH 7H 8H | AS 7S 8S | KS 9S 9H | QS TS TH | KC 7C 8C
        AC
        """,
        ("QH", "KH"),
        "endgame",
    ),
    # Spades 40-100; the declarer (40 from KS QS) has 50 card points and needs 60. Seat 2 leads 9C to
    # trick 9; seat 1 showed out of clubs in trick 8, so AC is seat 2's and will take trick 10.
    # TC wins this trick and its 10 makes the hundred; KC (the heuristic bot's lowest winner) leaves the
    # TC to fall under the AC.
    "hundred": HandMade(
        """
        M-40 S by 0
        talon TD 7H
        0: TC KC
        1: 7D 8D
        2: AC
        AS 7S 8S | TS 9S JS | KS 8C KH | QS JC QD | AH 8H JH | TH 9H QH | AD 9D JD | 7C KD QC
        9C
        """,
        ("TC",),
        "endgame",
    ),
    # Hearts simple game at 40 card points each before trick 9, so the last trick's 10 decides it. The
    # declarer holds 8H KC; the last trump out, 9H, is a defender's, and every club is seen. Leading KC, the
    # 9H must ruff it and the declarer ruffs the next lead with 8H to take trick 10. Leading 8H (the
    # heuristic bot's lowest card), the 9H beats it and the KC falls to a defender's lead in trick 10.
    "last_trick": HandMade(
        """
        H-S H by 0
        talon QC 8D
        0: 8H KC
        1: 9H KD
        2: JD QD
        AH 7H JH | TH QH 7S | AC 7C 8C | TC 9C JC | 7D AD TD
        AS TS 8S | KS QS 9S | JS 9D KH
        """,
        ("KC",),
        "endgame",
    ),
    # Spades simple game; the declarer holds 7S KH and leads to trick 9 with every other trump, AH and TH
    # out. KH wins now and the 7 wins trick 10 alone: a silent ulti (+2). The 7 led now (the heuristic
    # bot's lowest card) wins too, but not in trick 10, so the bonus is lost.
    "silent_bonus": HandMade(
        """
        M-S S by 0
        talon QD KD
        0: 7S KH
        1: QH KC
        2: QC JC
        AS 8S 9S | TS JS QS | AH 7H 8H | TH 9H JH | AC 7C TC | AD 7D 9D | 8D TD JD
        8C 9C KS
        """,
        ("KH",),
        "endgame",
    ),
    # Betli, the declarer's opening lead. Every card is safe but the singleton KD, which only AD beats. AD is
    # not in the talon, so a defender holds it, and on a KD lead the holder must play it (a card that beats
    # the top must be played). Kept, the KD is forced to win a later diamond trick. The heuristic bot leads
    # its lowest card, 7C.
    "opening_lead": HandMade(
        """
        N-B - by 0
        talon AS AH
        0: 7C 8C 9C 7S 8S 9S 7H 8H 9H KD
        1: TC JC QC KC AC 7D 8D 9D TD JD
        2: TS JS QS KS TH JH QH KH QD AD
        """,
        ("KD",),
        "early",
    ),
}


def test_every_theme_has_a_hand_made_position() -> None:
    assert set(POSITIONS) == set(THEMES)


@pytest.mark.parametrize("theme", sorted(POSITIONS))
def test_a_hand_made_position_of_each_theme_is_found_and_classed(theme: str) -> None:
    made = POSITIONS[theme]
    deal = position(made.text)
    seed = f"hand-made:{theme}"
    verdict = judge(deal, seed, 0)
    assert verdict.ok, verdict
    assert len(verdict.classes) >= 2  # not forced
    assert verdict.answer == made.answer
    puzzle = build(deal, verdict, seed)
    assert theme in puzzle["themes"]
    assert puzzle["phase"] == made.phase
    assert puzzle["moves"][0]["answer"] == list(made.answer)


@pytest.mark.parametrize("theme", sorted(POSITIONS))
def test_a_hand_made_puzzle_shows_only_what_its_player_could_know(theme: str) -> None:
    deal = position(POSITIONS[theme].text)
    seed = f"hand-made:{theme}"
    check_view(build(deal, judge(deal, seed, 0), seed))


@pytest.mark.parametrize("theme", sorted(set(POSITIONS) - {"opening_lead"}))
def test_a_hand_made_positions_open_values_agree_with_a_search_over_every_card_order(theme: str) -> None:
    deal = position(POSITIONS[theme].text)
    verdict = judge(deal, f"hand-made:{theme}", 0)
    assert verdict.open_values == brute_values(deal)


def test_a_composed_position_is_played_by_the_engines_rules() -> None:
    deal = position(POSITIONS["silent_bonus"].text)
    assert len(deal.tricks) == 8 and deal.to_move == 0 and deal.contract is not None
    assert deal.contract.code == "M-S"
    text = POSITIONS["silent_bonus"].text
    # seat 1's 7H and 7C swapped between tricks 3 and 5: in trick 3 it holds hearts and must follow
    with pytest.raises(IllegalAction):
        position(text.replace("AH 7H 8H", "AH 7C 8H").replace("AC 7C TC", "AC 7H TC"))
    with pytest.raises(ValueError, match="twice"):
        position(text.replace("0: 7S KH", "0: 7S KH AS"))
