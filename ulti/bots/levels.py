"""The bot levels a table may seat, as data: a name, the bot's maker and its settings, and which of them
are offered to people (the ladder, each with its measured rating: ``ulti.bots.ladder_ratings``).

A level names its bot's maker (a class or a function) by import path, so that a process which only checks
level names (the server validating a table's settings, a name check) does not load the bots, nor the
compiled solver the searching bots need. Arena-only configurations are not levels: they live in the laboratory
(``ulti.lab.configs``) and reserve no player name.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ulti.bots.interface import Bot


@dataclass(frozen=True)
class Level:
    """A bot configuration: its name, its bot's maker (``"module:name"``, a class or a function called with
    the rng) and the settings it is made with, whether tables accept it, whether the page offers it to people
    (a rung of the ladder, with a measured rating), and whether it runs the compiled search (which holds the
    interpreter lock: a server runs such a bot in another process, never on a thread beside its event loop)."""

    name: str
    bot: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    at_tables: bool = True
    offered: bool = False
    searches: bool = True

    def make(self, rng: random.Random) -> Bot:
        """A bot of this configuration drawing from ``rng``."""
        module, _, name = self.bot.partition(":")
        made: Bot = getattr(importlib.import_module(module), name)(rng, **self.settings)
        return made


#: Every level a table may seat, by name: the one list of level names (tables, the bot client and the
#: name checks read it). ``strong`` stays unchanged: it is the yardstick the others are measured against,
#: still seated by the API, stored tables and the par replays, but no longer offered to people; nor are
#: ``random`` and ``heuristic``, which play badly in ways no person does.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", "ulti.bots.random_bot:RandomBot", searches=False),
        Level("heuristic", "ulti.bots.heuristic:HeuristicBot", searches=False),
        # the ladder's rungs below the expert (ulti.bots.ladder), offered with their measured ratings
        Level("beginner", "ulti.bots.ladder:ladder_bot", {"rung": "beginner"}, offered=True),
        # a rung between the two, not offered: by place in a match it does not stand apart from either
        Level("casual", "ulti.bots.ladder:ladder_bot", {"rung": "casual"}),
        Level("club", "ulti.bots.ladder:ladder_bot", {"rung": "club"}, offered=True),
        Level("strong", "ulti.bots.strong:strong_bot"),
        Level("expert", "ulti.bots.expert:expert_bot", offered=True),
    )
}

#: The levels the server accepts at a table (the page offers only the ladder: ``ladder_ratings.OFFERED_LEVELS``).
BOT_LEVELS: tuple[str, ...] = tuple(name for name, level in LEVELS.items() if level.at_tables)


def level_searches(level: str) -> bool:
    """Whether a bot of ``level`` runs the compiled search (True for an unknown name: the safe side)."""
    entry = LEVELS.get(level)
    return entry is None or entry.searches


def bot_for_level(level: str, rng: random.Random) -> Bot:
    """A bot of ``level``, any name of ``LEVELS``."""
    entry = LEVELS.get(level)
    if entry is None:
        names = list(LEVELS)
        raise ValueError(f"unknown bot level {level!r} ({', '.join(names[:-1])} or {names[-1]})")
    return entry.make(rng)
