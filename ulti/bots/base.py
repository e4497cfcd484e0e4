"""The bot interface and helpers to read a seat's view."""

from __future__ import annotations

import random
from typing import Any, Protocol

from ulti.engine.actions import Action
from ulti.engine.cards import CardSet, parse_card


class Bot(Protocol):
    """A bot chooses an action for ``seat`` from that seat's view alone."""

    def act(self, view: dict[str, Any]) -> Action:
        """The action to take now (the view's ``choices`` are not empty)."""
        ...


def hand_mask(view: dict[str, Any]) -> CardSet:
    """The viewer's own hand as a card set."""
    mask = 0
    for code in view["hands"][str(view["seat"])]:
        mask |= 1 << parse_card(code)
    return mask


def card_mask(codes: list[str]) -> CardSet:
    """A list of card codes as a card set."""
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


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
