"""Bots: each gets one seat's view (``Deal.seat_view(seat)``, a ``SeatView``) and returns an action for that seat."""

from ulti.bots.base import BOT_LEVELS, LEVELS, Bot, bot_for_level
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.random_bot import RandomBot

__all__ = ["BOT_LEVELS", "LEVELS", "Bot", "HeuristicBot", "RandomBot", "bot_for_level"]
