"""Puzzle themes and phases, named in English and Hungarian, and the classifier that gives them.

A puzzle's themes are read from its first position and the solver's lines (all hands open) after the
answer and after the best other class ("the runner-up"):

- ``catch_seven``: the contract has an ulti and the player defends (catching the trump 7);
- ``save_ulti``: the contract has an ulti and the player is the declarer;
- ``betli_defence``: a betli and the player defends;
- ``durchmars``: the contract has a durchmars;
- ``hundred``: the contract has a 40-100 or a 20-100;
- ``last_trick``: a trump contract whose trick 10 goes to the player's side after the answer and to the
  other side after the runner-up;
- ``silent_bonus``: the silent bonuses scored (ulti, 100, durchmars: docs/rules.md §5.4) differ
  between the two lines;
- ``opening_lead``: the first card of the play.

The phase is by tricks completed before the puzzle: ``early`` 0-2, ``middle`` 3-6, ``endgame`` 7-9.
The same names are the page's keys ``puzzle.theme.<name>`` (web/js/i18n/en.js, hu.js).
"""

from __future__ import annotations

from ulti.engine.cards import Card
from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import DealResult
from ulti.puzzles.line import after

#: Every theme and phase: name → (English, Hungarian).
THEMES: dict[str, tuple[str, str]] = {
    "catch_seven": ("Catching the 7", "A hetes megfogása"),
    "save_ulti": ("Saving the ulti", "Az ulti megmentése"),
    "betli_defence": ("Betli defence", "Betli elleni védekezés"),
    "durchmars": ("Durchmars", "Durchmars"),
    "hundred": ("The hundred", "A száz"),
    "last_trick": ("The last trick", "Az utolsó ütés"),
    "silent_bonus": ("A silent bonus", "Csendes bónusz"),
    "opening_lead": ("The opening lead", "Az első hívás"),
}
PHASES: dict[str, tuple[str, str]] = {
    "early": ("Early", "Korai"),
    "middle": ("Middle game", "Középjáték"),
    "endgame": ("Endgame", "Végjáték"),
}


def phase_of(tricks_done: int) -> str:
    """The phase of a position with ``tricks_done`` tricks completed.

    >>> phase_of(0), phase_of(3), phase_of(7)
    ('early', 'middle', 'endgame')
    """
    if tricks_done <= 2:
        return "early"
    return "middle" if tricks_done <= 6 else "endgame"


def _silent(result: DealResult | None) -> set[tuple[str, str, bool]]:
    return {(s.bonus, s.side, s.won) for s in result.silent} if result is not None else set()


def _last_trick_side(deal: Deal) -> bool | None:
    """Whether the declarer took trick 10 of the finished ``deal`` (None when it ended earlier)."""
    if len(deal.tricks) < 10:
        return None
    return deal.tricks[-1].winner == deal.declarer


def classify(deal: Deal, answer: Card, runner_up: Card) -> list[str]:
    """The themes of the puzzle whose player is on turn in ``deal`` (unchanged): see the module docstring."""
    assert deal.contract is not None
    seat = deal.to_move
    declarer = seat == deal.declarer
    contract = deal.contract
    themes: list[str] = []
    if contract.has(Part.ULTI):
        themes.append("save_ulti" if declarer else "catch_seven")
    if contract.has(Part.BETLI) and not declarer:
        themes.append("betli_defence")
    if contract.has(Part.DURCHMARS):
        themes.append("durchmars")
    if contract.has(Part.FORTY_HUNDRED) or contract.has(Part.TWENTY_HUNDRED):
        themes.append("hundred")
    best_deal, _, best_result = after(deal, answer)
    other_deal, _, other_result = after(deal, runner_up)
    if deal.trump != NO_TRUMP:
        mine, theirs = _last_trick_side(best_deal), _last_trick_side(other_deal)
        if mine is not None and theirs is not None and mine == declarer and theirs != declarer:
            themes.append("last_trick")
    if _silent(best_result) != _silent(other_result):
        themes.append("silent_bonus")
    if not deal.tricks and not deal.trick:
        themes.append("opening_lead")
    return themes
