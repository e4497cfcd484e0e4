"""A bot that picks uniformly among its legal choices (for tests and baselines)."""

from __future__ import annotations

import random
from typing import Any

from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import iter_cards, parse_card, parse_suit
from ulti.engine.contracts import parse_bid, parse_part

from ulti.bots.base import hand_mask


class RandomBot:
    """Chooses any legal action at random; discards two random cards when it must."""

    def __init__(self, rng: random.Random) -> None:
        """A random bot drawing from ``rng``."""
        self.rng = rng

    def act(self, view: dict[str, Any]) -> Action:
        """A uniformly random legal action for the viewer's seat."""
        seat = view["seat"]
        ch = view["choices"]
        rng = self.rng
        options: list[Action] = []
        if ch["may_pass"]:
            options += [act.pass_(seat)] * 4  # passing often keeps random auctions short
        if ch["may_take"]:
            options.append(act.take(seat))
        if ch["bids"]:
            code = rng.choice(ch["bids"][:6])
            discard = None
            if ch["must_discard"]:
                a, b = rng.sample(list(iter_cards(hand_mask(view))), 2)
                discard = (a, b)
            options.append(act.bid(seat, parse_bid(code), discard))
        options += [act.trump(seat, parse_suit(s)) for s in ch["trumps"]]
        if ch["may_give_up"]:
            options.append(act.give_up(seat))
        if ch["cards"]:
            options.append(act.play(seat, parse_card(rng.choice(ch["cards"]))))
        if ch["kontra"] and (not options or rng.random() < 0.3):
            parts = [parse_part(p) for p in ch["kontra"]["parts"]]
            chosen = tuple(p for p in parts if rng.random() < 0.5)
            return act.kontra(seat, chosen)
        return rng.choice(options)
