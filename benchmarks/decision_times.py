"""Time a bot level's decisions on given views, in whatever tree of the project is first on ``sys.path``.

``benchmarks.bot_bench --against COMMIT`` runs this file in a subprocess twice per round: once with the
current tree, once with the tree of ``COMMIT`` (``benchmarks.git_tree``) first on ``sys.path``, so both
sides time the same views with the same seeds in one run. It reads only what every tree since the
bots' levels had a registry offers (``SeatView.from_json``, ``bot_for_level``), so the older side needs
nothing of this file's tree.

    python benchmarks/decision_times.py VIEWS.json OUT.json --level strong --level expert [--seed S]

``VIEWS.json`` holds a list of seat views (``SeatView.to_json``); ``OUT.json`` receives, per level, one
``[kind, CPU seconds, action]`` per view, in order (kind: ``auction``, ``card`` with two or more legal
cards, ``forced`` card, ``other``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any


def level_maker() -> Callable[[str, random.Random], Any]:
    """The tree's ``bot_for_level`` (``ulti.bots.levels`` now; ``ulti.bots.base`` in older trees)."""
    for module in ("ulti.bots.levels", "ulti.bots.base"):
        try:
            maker: Callable[[str, random.Random], Any] = importlib.import_module(module).bot_for_level
        except (ImportError, AttributeError):
            continue
        return maker
    raise ImportError("no bot_for_level in this tree")


def kind_of(view: Any) -> str:
    """The kind of decision ``view`` asks for (the phase, and for a card whether there is a choice)."""
    phase = view.phase.value
    if phase == "auction":
        return "auction"
    if phase == "play":
        return "card" if view.choices is not None and view.choices.cards.bit_count() >= 2 else "forced"
    return "other"


def main() -> None:
    """Time each ``--level``'s bot on every view, one bot per level acting in order, CPU seconds."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("views")
    parser.add_argument("out")
    parser.add_argument("--level", action="append", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):  # one core: the figures of both sides compare
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    from ulti.engine.view import SeatView

    with open(args.views, encoding="utf-8") as f:
        views = [SeatView.from_json(data) for data in json.load(f)]
    bot_for_level = level_maker()
    out: dict[str, list[tuple[str, float, str]]] = {}
    for level in args.level:
        bot = bot_for_level(level, random.Random(args.seed))
        rows = []
        for view in views:
            start = time.process_time()
            action = bot.act(view)
            rows.append((kind_of(view), time.process_time() - start, repr(action)))
        out[level] = rows
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
