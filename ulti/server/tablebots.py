"""The built-in bots at a table: their names, their accounts' ids, and the action one takes.

Names are given as a table's events are applied, in order (``tablestate.py``), and the rules name the
bots they seat the same way (``tablerules.py``), so a table rebuilt from its log names them the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ulti.engine.actions import Action
from ulti.engine.view import SeatView


def bot_name(level: str, taken: Sequence[str] = ()) -> str:
    """The display name of a new bot of ``level``, distinct from the names ``taken`` at its table.

    The first bot of a level is "Bot · strong", the next "Bot · strong 2", and so on. Names are
    given as the events are applied, in order, so a table rebuilt from its log names them the same.

    >>> bot_name("strong", ["Anna", "Bot · strong"])
    'Bot · strong 2'
    """
    base = f"Bot · {level}"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base} {n}"
    return name


def bot_player_id(name: str) -> str:
    """The player id of the bot account named ``name``: one account per bot name, the same everywhere.

    Made of the name, so that every process and every replay finds the same account; player ids of
    people are hex (``auth.new_id``), so they never start with "bot-".

    >>> bot_player_id("Bot · strong"), bot_player_id("Bot · strong 2")
    ('bot-strong', 'bot-strong-2')
    """
    return "bot-" + "-".join(name.removeprefix("Bot · ").split())


def bot_action(level: str, view: SeatView, seed: str) -> Action:
    """The action a bot of ``level`` takes from ``view`` (deterministic for a given seed)."""
    from ulti.bots.levels import bot_for_level

    return bot_for_level(level, random.Random(seed)).act(view)
