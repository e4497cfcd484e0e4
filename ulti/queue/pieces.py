"""The functions a job on the queue may run, by name: a queue entry never names arbitrary code.

A job carries the name of its function (``module:function``) rather than the function itself, and a
worker runs only a name listed here, so that whoever can write to the queue's storage cannot make a
worker import or call anything else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: the long work of the server (``LongWork.call``'s callers): analyses, par replays, what-if lines,
#: hints and the puzzle set's growth
PIECES = frozenset({
    "ulti.analysis.review:price_record_chunk",
    "ulti.analysis.review:assemble_record",
    "ulti.analysis.coach:hint",
    "ulti.server.analysis:_what_if_record",
    "ulti.server.tablebots:bot_action",
    "ulti.server.puzzle_growth:cut_part",
    # a bot's turn, when bots think on the queue (``Settings.bots_on_queue``)
    "ulti.analysis.coach:noted_bot_action",
})


class UnknownPiece(ValueError):
    """A function that is not one of ``PIECES`` was asked for."""


def name_of(fn: Callable[..., Any], allowed: frozenset[str] = PIECES) -> str:
    """The queue's name for ``fn``; ``UnknownPiece`` if it is not one of ``allowed``."""
    name = f"{fn.__module__}:{fn.__qualname__}"
    if name not in allowed:
        raise UnknownPiece(f"{name} is not a piece of long work the queue runs (ulti/queue/pieces.py)")
    return name


def resolve(name: str, allowed: frozenset[str] = PIECES) -> Callable[..., Any]:
    """The function named ``name``; ``UnknownPiece`` if it is not one of ``allowed``."""
    if name not in allowed:
        raise UnknownPiece(f"{name} is not a piece of long work the queue runs (ulti/queue/pieces.py)")
    module, _, function = name.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found
