"""Player pages and the leaderboard (docs/protocol/players.md §21).

``GET /api/players/{name}`` and ``GET /api/leaderboard`` answer JSON; ``GET /@/{name}`` serves the
static page that asks the first. A name comes in the path: it is checked at the edge like any name
a client sends, and looked up by its account key (``Anna`` and ``ANNA`` are one account).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from ulti.accounts.names import name_key
from ulti.accounts.ratings import NEWCOMER, is_provisional, shown_rating
from ulti.engine.contracts import Part
from ulti.server.bodies import store_of
from ulti.server.errors import CommandError
from ulti.server.inputs import MAX_NAME, clean_text
from ulti.server.playershapes import (
    BoardRow,
    Leaderboard,
    Profile,
    ProfileRating,
    Rating,
    RecentMatchJson,
    Side,
    Stats,
)
from ulti.server.sessions import resolve, token_of
from ulti.server.visibility import shows_no_table
from ulti.store.ports import PlayerProfile, PlayerReads, PlayerStats, RatedPlayer, RecentMatch

router = APIRouter()

PLAYER_PAGE = Path(__file__).resolve().parents[2] / "web" / "player.html"
#: the contract families in the engine's order (the page lists them so)
PART_ORDER = [part.value for part in Part]


def _store(request: Request) -> PlayerReads:
    return store_of(request)


def _json(payload: Mapping[str, object]) -> Response:
    return Response(orjson.dumps(payload), media_type="application/json")


def lookup_key(value: str) -> str:
    """The account key of a name from a path: checked at the edge (``bad_name``), then NFKC casefolded.

    The edge's text check, not the registration rules: a name that could not be registered today
    (a reserved word of a bot account, say) can still be looked up, but nothing unencodable, invisible
    or longer than a name ever reaches the store.
    """
    return name_key(clean_text(value, "name", MAX_NAME, code="bad_name"))


def rating_json(mu: float | None, rated_matches: int) -> Rating:
    """``{"value", "provisional"}``: a player with no rating shows the newcomer's 1500, provisional."""
    value = shown_rating(NEWCOMER.mu if mu is None else mu)
    return {"value": value, "provisional": is_provisional(rated_matches)}


def stats_json(stats: PlayerStats) -> Stats:
    """The summed statistics: deals, the declarer's and the defenders' average, and each contract family."""

    def side(deals: int, points: int) -> Side:
        return {"deals": deals, "points": points, "average": round(points / deals, 2) if deals else None}

    known = [p for p in PART_ORDER if p in stats.parts]
    others = sorted(p for p in stats.parts if p not in PART_ORDER)
    return {
        "deals": stats.deals,
        "declarer": side(stats.declarer_deals, stats.declarer_points),
        "defender": side(stats.defender_deals, stats.defender_points),
        "contracts": [
            {
                "part": part,
                "declared": stats.parts[part].declared,
                "made": stats.parts[part].made,
                "kontrad": stats.parts[part].kontrad,
                "kontra_given": stats.parts[part].kontra_given,
                "kontra_won": stats.parts[part].kontra_won,
            }
            for part in known + others
        ],
    }


def recent_json(match: RecentMatch) -> RecentMatchJson:
    """One of the last matches, with the link to its replay."""
    change = (
        match.rating_after - match.rating_before
        if match.rating_after is not None and match.rating_before is not None
        else None
    )
    return {
        "table_id": match.table_id,
        "finished_at": match.finished_at,
        "rated": match.rated,
        "seat": match.seat,
        "total": match.total,
        "rank": match.rank,
        "won": match.won,
        "left": match.left,
        "rating_before": match.rating_before,
        "rating_after": match.rating_after,
        "rating_change": change,
        "replay": f"/matches.html?t={match.table_id}",
        "players": [
            {"seat": s.seat, "name": s.name, "bot": s.is_bot, "total": s.total, "rank": s.rank, "left": s.left}
            for s in match.seats
        ],
    }


def profile_json(profile: PlayerProfile, rank: int | None) -> Profile:
    """The body of ``GET /api/players/{name}``."""
    shown = rating_json(profile.mu, profile.rated_matches)
    rating: ProfileRating = {
        "value": shown["value"],
        "provisional": shown["provisional"],
        "rated_matches": profile.rated_matches,
        "history": [{"at": at, "value": value} for at, value in profile.history],
    }
    return {
        "name": profile.name,
        "bot": profile.is_bot,
        "rating": rating,
        "matches": {
            "rated": {"played": profile.rated_played, "won": profile.rated_won},
            "casual": {"played": profile.casual_played, "won": profile.casual_won},
            "recent": [recent_json(m) for m in profile.recent],
        },
        "stats": stats_json(profile.stats),
        "rank": rank,
    }


def board_json(rank: int | None, name: str, mu: float | None, rated_matches: int, bot: bool) -> BoardRow:
    """One row of the leaderboard: ``{"rank", "name", "rating", "provisional", "bot", "matches"}``."""
    rating = rating_json(mu, rated_matches)
    return {
        "rank": rank,
        "name": name,
        "rating": rating["value"],
        "provisional": rating["provisional"],
        "bot": bot,
        "matches": rated_matches,
    }


@router.get("/api/players/{name:path}")
@shows_no_table("finished matches only: the store leaves out the tables of running events (players.py)")
async def player(request: Request, name: str) -> Response:
    """A player's page as JSON; ``404 not_found`` for a name no account has."""
    store = _store(request)
    found = await store.account_named(lookup_key(name))
    if found is None:
        raise CommandError("not_found", "no player has this name", params={"name": name})
    player_id, shown_name, is_bot = found
    profile = await store.player_profile(player_id, shown_name, is_bot=is_bot)
    return _json(profile_json(profile, await store.rank_of(player_id)))


@router.get("/api/leaderboard")
@shows_no_table("ratings only")
async def leaderboard(request: Request) -> Response:
    """The top rated accounts, and (with a session) where the asking player stands."""
    store = _store(request)
    board = await store.leaderboard()
    me: BoardRow | None = None
    who = await resolve(request.app, token_of(request))
    if who is not None:
        mine = next((row for row in board if row.player_id == who.player_id), None)
        if mine is not None:
            me = _row(mine)
        else:
            stored = await store.rating_of(who.player_id)
            mu, rated_matches = stored if stored is not None else (None, 0)
            me = board_json(await store.rank_of(who.player_id), who.name, mu, rated_matches, False)
        me["account"] = who.kind == "account"
    answer: Leaderboard = {"players": [_row(row) for row in board], "me": me}
    return _json(answer)


def _row(row: RatedPlayer) -> BoardRow:
    return board_json(row.rank, row.name, row.mu, row.rated_matches, row.is_bot)


@router.get("/@/{name:path}", include_in_schema=False)
@shows_no_table("the static player page")
async def player_page(name: str) -> FileResponse:
    """The player page (static: it reads the name from its address and asks the API)."""
    return FileResponse(PLAYER_PAGE, media_type="text/html")
