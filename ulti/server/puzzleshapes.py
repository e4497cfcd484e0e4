"""The shapes of what the puzzle routes answer, typed (docs/protocol/puzzles.md).

The values are built by ``puzzle_routes.py``; a seat's view and the revealed deal are
``ulti.puzzles.attempt``'s JSON. Here are only the types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict


class PuzzlePlayer(TypedDict):
    """The solver's puzzle rating as shown, attempts and puzzles solved."""

    rating: int
    attempts: int
    solved: int


class PuzzleSummary(TypedDict):
    """A puzzle as a list shows it: no position, no answer."""

    id: str
    themes: list[str]
    phase: str
    rating: int
    source: str
    attempts: int
    solved: int


class PuzzleCard(PuzzleSummary):
    """A puzzle being solved: with the solver's seat and how many moves it asks."""

    seat: int
    moves: int


class Mistake(PuzzleSummary):
    """A puzzle cut from the player's own mistake, and how their latest attempt at it ended (``new``: none)."""

    status: str


class AttemptState(TypedDict):
    """The solver's attempt: open (or new), its next move, the cards played so far."""

    status: Literal["open", "new"]
    move: int
    cards: list[str]


class PuzzleState(TypedDict):
    """A puzzle as its solver sees it before their next move (``daily``: the daily puzzle's UTC date)."""

    puzzle: PuzzleCard
    attempt: AttemptState
    view: Mapping[str, object]  # ``ulti.puzzles.attempt.view``: the solver's seat only
    player: PuzzlePlayer
    daily: NotRequired[str]


class Named(TypedDict):
    """A theme or a phase: its name and its words in English and Hungarian."""

    name: str
    en: str
    hu: str


class Themes(TypedDict):
    """``GET /api/puzzles/themes``."""

    themes: list[Named]
    phases: list[Named]


class History(TypedDict):
    """``GET /api/puzzles/history``: the solver's rating and latest attempts (``PuzzleAttempt.to_json``)."""

    player: PuzzlePlayer
    attempts: list[Mapping[str, object]]


class Mistakes(TypedDict):
    """``GET /api/puzzles/mistakes``."""

    puzzles: list[Mistake]


class Judged(TypedDict):
    """One card judged (``ulti.puzzles.attempt.Outcome``); the exact values with all hands open only once
    the attempt is over."""

    correct: bool
    card: str
    answer: list[str]
    values: dict[str, float]
    replies: list[str]
    line: list[str]
    open_values: NotRequired[dict[str, int]]


class RatingChange(TypedDict):
    """An ended attempt's rating change (an unrated one: none, and no puzzle figures)."""

    rated: bool
    before: int
    after: int
    change: int
    puzzle_before: NotRequired[int]
    puzzle_after: NotRequired[int]


class MoveOpen(Judged):
    """A right card of an attempt that goes on: the next move and the view before it."""

    status: Literal["open"]
    move: int
    view: Mapping[str, object]
    player: PuzzlePlayer


class MoveEnded(Judged):
    """The card that ended the attempt: solved or failed, the rating change, and the whole deal."""

    status: Literal["solved", "failed"]
    move: int
    rating: RatingChange
    reveal: Mapping[str, object]  # ``ulti.puzzles.attempt.reveal``
    player: PuzzlePlayer
