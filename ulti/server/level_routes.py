"""The bot levels offered to people, with their measured ratings (docs/protocol/http.md §4.3).

The page offers no level of its own: the lobby's seats, Play now, events and tournaments show the levels
this route names, in rating order, and Play now seats the level it recommends for the session's player.
The choice by rating is ``ulti.bots.ladder_ratings.level_for_rating``: one place, on the server.
"""

from __future__ import annotations

from typing import Protocol, TypedDict

from fastapi import APIRouter, Request

from ulti.accounts.ratings import NEWCOMER, is_provisional, shown_rating
from ulti.bots.ladder_ratings import OFFERED_LEVELS, RATINGS, level_for_rating
from ulti.server import sessions
from ulti.server.bodies import store_of
from ulti.server.errors import CommandError
from ulti.server.visibility import shows_no_table

router = APIRouter()


class RatingReads(Protocol):
    """The store's part this route reads: a player's rating."""

    async def rating_of(self, player_id: str) -> tuple[float, int] | None:
        """``(mu, rated_matches)`` of ``player_id``, or None if the player was never rated."""
        ...


def _store(request: Request) -> RatingReads:
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
    """The level for the session's player: nearest their shown rating once it is no longer provisional;
    the lowest rung without a session, for a guest and for a newcomer."""
    try:
        who = await sessions.identity_of(request)
    except CommandError:
        return level_for_rating(NEWCOMER.shown, provisional=True)
    stored = await _store(request).rating_of(who.player_id)
    mu, played = (NEWCOMER.mu, 0) if stored is None else stored
    return level_for_rating(shown_rating(mu), provisional=is_provisional(played))


@router.get("/api/bot_levels", response_model=dict[str, object])
@shows_no_table("the bot levels offered to people and their measured ratings")
async def bot_levels(request: Request) -> Offer:
    """The offered levels in rating order, and the level recommended for the caller (no session needed)."""
    return {"levels": offered_levels(), "recommended": await recommended_level(request)}
