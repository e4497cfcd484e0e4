"""``GET /api/bot_levels`` over a real server process: the ladder offered to people in rating order with
its measured ratings, and the level recommended for the caller by their rating (docs/protocol/http.md)."""

from __future__ import annotations

import pytest
from sqlalchemy import insert

from tests.server.conftest import ServerProcess
from tests.server.test_accounts import call, register
from ulti.accounts.ratings import SCALE_FACTOR, SCALE_ORIGIN
from ulti.bots.ladder_ratings import OFFERED_LEVELS, RATINGS
from ulti.store.eventstore import EventStore
from ulti.store.models import ratings

pytestmark = pytest.mark.asyncio


async def rate(server: ServerProcess, player_id: str, mu: float, matches: int) -> None:
    """Give ``player_id`` a rating of ``mu`` after ``matches`` rated matches, straight into the server's file."""
    store = await EventStore.open(server.db_url)
    try:
        async with store.engine.begin() as conn:
            await conn.execute(
                insert(ratings).values(player_id=player_id, mu=mu, sigma=3.0, rated_matches=matches, updated_at=1)
            )
    finally:
        await store.close()


async def test_the_offer_is_the_ladder_in_rating_order_with_its_measured_ratings(server: ServerProcess) -> None:
    answer = (await call(server, "GET", "/api/bot_levels")).json()
    assert [entry["level"] for entry in answer["levels"]] == list(OFFERED_LEVELS)
    club = RATINGS.levels["club"]
    assert answer["levels"][OFFERED_LEVELS.index("club")] == {
        "level": "club", "rating": club.rating, "low": club.low, "high": club.high, "matches": club.matches,
        "about": "bot.about.club"}
    ratings_shown = [entry["rating"] for entry in answer["levels"]]
    assert ratings_shown == sorted(ratings_shown)
    assert all(entry["level"] not in ("strong", "heuristic", "random") for entry in answer["levels"])


async def test_without_a_session_and_for_a_newcomer_the_lowest_rung_is_recommended(server: ServerProcess) -> None:
    assert (await call(server, "GET", "/api/bot_levels")).json()["recommended"] == "beginner"
    guest = (await call(server, "POST", "/api/session", json={"name": "Gabi"})).json()
    assert (await call(server, "GET", "/api/bot_levels", guest["token"])).json()["recommended"] == "beginner"
    newcomer = await register(server, "Nora")
    assert (await call(server, "GET", "/api/bot_levels", newcomer["token"])).json()["recommended"] == "beginner"


async def test_a_start_fills_the_open_seats_with_bots_of_the_level_asked(server: ServerProcess) -> None:
    token = (await call(server, "POST", "/api/session", json={"name": "Olga"})).json()["token"]
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table = (await call(server, "POST", "/api/tables", token, json={"deals": 6, "seats": seats})).json()["table_id"]
    refused = await call(server, "POST", f"/api/tables/{table}/start", token, json={"fill_bots": True, "level": "ace"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request"
    started = await call(server, "POST", f"/api/tables/{table}/start", token, json={"fill_bots": True, "level": "club"})
    assert started.status_code == 200, started.text
    view = (await call(server, "GET", f"/api/tables/{table}", token)).json()
    assert [(s["kind"], s.get("level")) for s in view["table"]["seats"][1:]] == [("bot", "club"), ("bot", "club")]


async def test_a_player_rated_near_a_level_is_recommended_that_level(server: ServerProcess) -> None:
    # (name, mu, rated matches, the level): a player shown 5 above club's rating is nearest club, one
    # 10 above expert's nearest expert; nine rated matches are one short of a settled rating: the lowest rung
    def mu_showing(rating: int) -> float:
        return 25.0 + (rating - SCALE_ORIGIN) / SCALE_FACTOR

    club, expert = RATINGS.levels["club"].rating, RATINGS.levels["expert"].rating
    cases = (("Cili", mu_showing(club + 5), 12, "club"), ("Ede", mu_showing(expert + 10), 30, "expert"),
             ("Pál", mu_showing(club + 5), 9, "beginner"))
    for name, mu, matches, level in cases:
        account = await register(server, name)
        await rate(server, account["player"]["id"], mu, matches)
        answer = (await call(server, "GET", "/api/bot_levels", account["token"])).json()
        assert answer["recommended"] == level, name
