"""The bot interface and a helper to read a seat's view."""

from __future__ import annotations

import random
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


def bot_for_level(level: str, rng: random.Random) -> Bot:
    """A bot of ``level``: ``random``, ``heuristic``, ``strong`` or ``strong-fast`` (fewer samples, for arenas)."""
    from ulti.bots.heuristic import HeuristicBot
    from ulti.bots.random_bot import RandomBot
    from ulti.bots.strong import StrongBot

    if level == "random":
        return RandomBot(rng)
    if level == "heuristic":
        return HeuristicBot(rng)
    if level == "strong":
        return StrongBot(rng)
    if level == "strong-fast":
        return StrongBot(rng, samples=8, time_budget=0.08, auction_samples=4, auction_budget=0.3)
    raise ValueError(f"unknown bot level {level!r} (random, heuristic, strong or strong-fast)")
