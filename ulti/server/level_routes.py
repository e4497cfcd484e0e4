"""The bot levels offered to people, with their measured ratings (docs/protocol/http.md §4.3).

The page offers no level of its own: the lobby's seats, Play now, events and tournaments show the levels
this route names, in rating order, and Play now seats the level it recommends for the session's player.
The choice by rating is ``ulti.server.bot_choice``: one place, on the server.
"""

from __future__ import annotations

from typing import TypedDict

from fastapi import APIRouter, Request

from ulti.bots.ladder_ratings import OFFERED_LEVELS, RATINGS
from ulti.server import sessions
from ulti.server.bodies import store_of
from ulti.server.bot_choice import level_for_players
from ulti.server.errors import CommandError
from ulti.server.visibility import shows_no_table
from ulti.store.ports import RatingRead

router = APIRouter()


def _store(request: Request) -> RatingRead:
    return store_of(request)


class OfferedLevel(TypedDict):
    """One level offered to people: its name, measured rating and 95% interval, the rated matches it was
    measured over, and the key of its short description in the page's dictionaries."""

    level: str
    rating: int
    low: int
    high: int
    matches: int
    about: str


class Offer(TypedDict):
    """``GET /api/bot_levels``: the offered levels, lowest rating first, and the one for the session's player."""

    levels: list[OfferedLevel]
    recommended: str


def offered_levels() -> list[OfferedLevel]:
    """The levels offered to people, lowest rating first, each with its measured rating."""
    return [
        {"level": name, "rating": measured.rating, "low": measured.low, "high": measured.high,
         "matches": measured.matches, "about": f"bot.about.{name}"}
        for name in OFFERED_LEVELS
        for measured in (RATINGS.levels[name],)
    ]


async def recommended_level(request: Request) -> str:
    """The level for the session's player (``bot_choice.level_for_players``): nearest their shown rating
    once it is no longer provisional; the lowest rung without a session, for a guest and for a newcomer."""
    try:
        who = await sessions.identity_of(request)
    except CommandError:
        return await level_for_players(_store(request), [])
    return await level_for_players(_store(request), [who.player_id])


@router.get("/api/bot_levels", response_model=dict[str, object])
@shows_no_table("the bot levels offered to people and their measured ratings")
async def bot_levels(request: Request) -> Offer:
    """The offered levels in rating order, and the level recommended for the caller (no session needed)."""
    return {"levels": offered_levels(), "recommended": await recommended_level(request)}
