"""The phases of a deal (``Deal.phase``)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phases of a deal."""

    AUCTION = "auction"
    TRUMP = "trump"
    PLAY = "play"
    DONE = "done"
