"""What every bot is and needs: the ``Bot`` interface and a helper to read a seat's view.

This module imports no bot: the bots import it, and the registry of levels (``ulti.bots.levels``)
stands apart, above them.
"""

from __future__ import annotations

from typing import Protocol

from ulti.engine.actions import Action
from ulti.engine.view import SeatChoices, SeatView


class Bot(Protocol):
    """A bot chooses an action for ``seat`` from that seat's view alone (``Deal.seat_view(seat)``;
    a client holding the wire form parses it with ``SeatView.from_json``)."""

    def act(self, view: SeatView) -> Action:
        """The action to take now (the view's ``choices`` are not empty)."""
        ...


def seat_and_choices(view: SeatView) -> tuple[int, SeatChoices]:
    """The viewer's seat and what it may do (a ``ValueError`` for a view a bot cannot act on)."""
    if view.seat is None or view.choices is None:
        raise ValueError("a bot acts on a seat's view that offers choices")
    return view.seat, view.choices
