"""A set of puzzles surveyed: how many per theme, phase, rating band and number of moves, and what share a
bot solves.

A bot solves a puzzle when, at every move, the card it plays from the seat's view (``Bot.act``: it sees
only that view, as at a table) is in the move's answer; the other seats answer with the puzzle's stored
replies between moves (``attempt.position``), as on the puzzle page.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ulti.bots.interface import Bot
from ulti.engine.cards import card_str
from ulti.puzzles.attempt import position

#: Rating bands of the survey (shown ratings): lower bound inclusive, upper exclusive.
BANDS: tuple[tuple[str, int, int], ...] = (
    ("below 1500", -10**6, 1500),
    ("1500-1649", 1500, 1650),
    ("1650-1799", 1650, 1800),
    ("1800 and up", 1800, 10**6),
)


def band_of(shown: int) -> str:
    """The name of the rating band ``shown`` falls in.

    >>> band_of(1500), band_of(1499), band_of(1950)
    ('1500-1649', 'below 1500', '1800 and up')
    """
    return next(name for name, low, high in BANDS if low <= shown < high)


@dataclass
class Counts:
    """How many puzzles per theme, phase, rating band and number of moves (a puzzle may have several themes)."""

    total: int = 0
    themes: Counter[str] = field(default_factory=Counter)
    phases: Counter[str] = field(default_factory=Counter)
    bands: Counter[str] = field(default_factory=Counter)
    moves: Counter[int] = field(default_factory=Counter)


def count(puzzles: Sequence[dict[str, Any]]) -> Counts:
    """The counts of ``puzzles``."""
    out = Counts(total=len(puzzles))
    for p in puzzles:
        out.themes.update(p["themes"] or ["(none)"])
        out.phases[p["phase"]] += 1
        out.bands[band_of(int(p["rating"]["shown"]))] += 1
        out.moves[len(p["moves"])] += 1
    return out


def solves(puzzle: dict[str, Any], bot: Bot) -> bool:
    """Whether ``bot`` finds every move of ``puzzle`` from the seat's view."""
    cards: list[str] = []
    seat = int(puzzle["seat"])
    for move in puzzle["moves"]:
        pos = position(puzzle, cards)
        action = bot.act(pos.deal.seat_view(seat))
        if action.card is None:
            return False
        code = card_str(action.card)
        if pos.known_as(code) not in move["answer"]:
            return False
        cards.append(code)
    return True


def solved_share(
    puzzles: Sequence[dict[str, Any]],
    make_bot: Callable[[random.Random], Bot],
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, Counter[str]]:
    """How many of ``puzzles`` a bot made by ``make_bot`` solves (a fresh bot per puzzle, seeded from
    ``seed`` and the puzzle's id: the figure is reproducible), and how many per theme."""
    solved = 0
    by_theme: Counter[str] = Counter()
    for k, puzzle in enumerate(puzzles):
        bot = make_bot(random.Random(f"survey:{seed}:{puzzle['id']}"))
        if solves(puzzle, bot):
            solved += 1
            by_theme.update(puzzle["themes"] or ["(none)"])
        if progress is not None:
            progress(k + 1)
    return solved, by_theme
