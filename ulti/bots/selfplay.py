"""Bots playing a deal among themselves, each seat acting from its own view."""

from __future__ import annotations

from ulti.bots.interface import Bot
from ulti.engine.deal import Deal

#: more actions than any deal can take: a deal still going past them is a bug, not a long deal
MAX_ACTIONS = 400


def play_deal(deal: Deal, bots: list[Bot]) -> None:
    """Play ``deal`` to its end, each seat's bot acting from its own view."""
    for _ in range(MAX_ACTIONS):
        if deal.is_over:
            return
        seat = deal.to_move
        assert seat is not None  # a deal not over has a seat on turn
        deal.apply(bots[seat].act(deal.seat_view(seat)))
    raise RuntimeError("deal did not finish")
