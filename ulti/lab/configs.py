"""The arena-only bot configurations: the yardsticks and variants the laboratory measures against.

Each is a ``Level`` that no table offers: a product bot's maker with other settings. ``bot_for``
resolves a name among these and the product's levels (``ulti.bots.levels``), so an arena can set any
of them against any other.
"""

from __future__ import annotations

import random

from ulti.bots.interface import Bot
from ulti.bots.levels import LEVELS, Level

#: the expert's worlds per card decision (``ulti.bots.expert.EXPERT_SAMPLES``), written out so that
#: naming the configurations loads no bot
_EXPERT_WORLDS = 96

#: Every arena-only configuration by name (journal rows in docs/lab-journal.md say what each measured).
CONFIGS: dict[str, Level] = {
    level.name: level
    for level in (
        # the strong bot with fewer worlds: quick arenas and tests of the arena itself
        Level("strong-fast", "ulti.bots.strong:strong_bot", {"samples": 8, "auction_samples": 4}, at_tables=False),
        # the strong bot with the expert's worlds: what of the expert's lead the worlds alone give
        Level("strong-96", "ulti.bots.strong:strong_bot", {"samples": _EXPERT_WORLDS}, at_tables=False),
        # the expert with twice its worlds per card decision
        Level("expert-192", "ulti.bots.expert:expert_bot", {"samples": 2 * _EXPERT_WORLDS}, at_tables=False),
        # the expert whose defenders do not weigh the talon they cannot see (the reading's yardstick)
        Level("expert-blindtalon", "ulti.bots.expert:expert_bot", {"read_talon": False}, at_tables=False),
        # the expert with the strong bot's auction values (double-dummy means, uncorrected)
        Level("expert-ddauction", "ulti.bots.expert:expert_bot", {"played_auction": False}, at_tables=False),
        # the expert valuing kontra steps with the declarer's answer in view, never answering a rekontra
        # (``answered_gain``): the expert before its steps were valued by what they brought played out
        Level("expert-v1", "ulti.bots.expert:expert_bot", {"step_value": "answered"}, at_tables=False),
        # the expert valuing each step as if the opponents let it stand: the kontra calibration's judge
        # whose estimates ``ulti.lab.kontra_calibration --fit`` fits (``ulti.bots.expert.step_values``)
        Level("expert-standing", "ulti.bots.expert:expert_bot", {"step_value": "standing"}, at_tables=False),
    )
}


def names() -> list[str]:
    """Every name ``bot_for`` knows: the product's levels, then the laboratory's configurations."""
    return [*LEVELS, *CONFIGS]


def bot_for(name: str, rng: random.Random) -> Bot:
    """A bot of ``name``: a product level or an arena-only configuration."""
    level = LEVELS.get(name) or CONFIGS.get(name)
    if level is None:
        known = names()
        raise ValueError(f"unknown bot level {name!r} ({', '.join(known[:-1])} or {known[-1]})")
    return level.make(rng)
