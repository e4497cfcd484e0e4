"""Player pages and the leaderboard over a real server process (docs/protocol/players.md §21).

Accounts are registered through the API; their finished matches and ratings are written straight
into the server's SQLite file through the models (the match-end writer has its own tests).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx2
import orjson
import pytest
from sqlalchemy import insert

from tests.server.conftest import ServerProcess
from tests.server.test_accounts import call, error_of, register
from ulti.store.eventstore import EventStore
from ulti.store.models import match_players, match_results, ratings

pytestmark = pytest.mark.asyncio

STATS = {
    "deals": 6, "declarer_deals": 2, "declarer_points": 10, "defender_deals": 4, "defender_points": -6,
    "declared": {"ulti": {"played": 1, "made": 1, "kontrad": 0}, "simple": {"played": 1, "made": 0, "kontrad": 1}},
    "kontra": {"betli": {"given": 1, "won": 1}},
}


async def fill(server: ServerProcess, ids: dict[str, str]) -> None:
    """Ratings for three accounts and two finished matches (one rated, one casual) of all three."""
    store = await EventStore.open(server.db_url)
    try:
        async with store.engine.begin() as conn:
            for name, mu, n in (("Anna <b>", 26.0, 1), ("Béla/2", 24.0, 1), ("Cili", 28.5, 12)):
                await conn.execute(
                    insert(ratings).values(player_id=ids[name], mu=mu, sigma=7.0, rated_matches=n, updated_at=1)
                )
            for table_id, at, rated in (("tRated", 1_700_000_000_000, True), ("tCasual", 1_700_000_100_000, False)):
                await conn.execute(
                    insert(match_results).values(table_id=table_id, finished_at=at, rated=rated, deals_played=6)
                )
                for seat, (name, total, rank, before, after) in enumerate(
                    (("Anna <b>", 8, 1, 1500, 1540), ("Béla/2", -2, 2, 1500, 1460), ("Cili", -6, 3, 1620, 1640))
                ):
                    await conn.execute(
                        insert(match_players).values(
                            table_id=table_id, seat=seat, player_id=ids[name], name=name, is_bot=False,
                            total=total, rank=rank, left=False, won=rank == 1, finished_at=at, rated=rated,
                            rating_before=before if rated else None, rating_after=after if rated else None,
                            stats=orjson.dumps(STATS).decode(),
                        )
                    )
    finally:
        await store.close()


async def get(server: ServerProcess, path: str, token: str = "") -> httpx2.Response:
    """A GET without cookies."""
    return await call(server, "GET", path, token)


async def test_player_pages_and_the_leaderboard(server: ServerProcess) -> None:
    accounts = {name: await register(server, name) for name in ("Anna <b>", "Béla/2", "Cili", "Dóra")}
    ids = {name: body["player"]["id"] for name, body in accounts.items()}
    await fill(server, ids)

    # unknown name: 404 in the API's error shape
    missing = await get(server, "/api/players/nobody")
    assert missing.status_code == 404
    assert error_of(missing)["code"] == "not_found"
    # a name the edge refuses (a control character) never reaches the store
    bad = await get(server, "/api/players/" + quote("a\x00b"))
    assert bad.status_code == 400 and error_of(bad)["code"] == "bad_name"
    too_long = await get(server, "/api/players/" + "x" * 40)
    assert too_long.status_code == 400 and error_of(too_long)["code"] == "bad_name"

    # case-insensitive, percent-decoded, a slash in the name included
    anna = await get(server, "/api/players/" + quote("ANNA <B>", safe=""))
    assert anna.status_code == 200, anna.text
    body: dict[str, Any] = anna.json()
    assert body["name"] == "Anna <b>" and body["bot"] is False
    assert body["rating"] == {
        "value": 1540, "provisional": True, "rated_matches": 1,
        "history": [{"at": 1_700_000_000_000, "value": 1540}],
    }
    assert body["matches"]["rated"] == {"played": 1, "won": 1}
    assert body["matches"]["casual"] == {"played": 1, "won": 1}
    recent = body["matches"]["recent"]
    assert [m["table_id"] for m in recent] == ["tCasual", "tRated"]
    assert recent[1]["rating_change"] == 40 and recent[0]["rating_change"] is None
    assert recent[1]["replay"] == "/matches.html?t=tRated"
    assert [p["name"] for p in recent[1]["players"]] == ["Anna <b>", "Béla/2", "Cili"]
    stats = body["stats"]
    assert stats["deals"] == 12
    assert stats["declarer"] == {"deals": 4, "points": 20, "average": 5.0}
    assert stats["defender"] == {"deals": 8, "points": -12, "average": -1.5}
    assert [c["part"] for c in stats["contracts"]] == ["simple", "ulti", "betli"]  # the engine's order
    assert stats["contracts"][1] == {
        "part": "ulti", "declared": 2, "made": 2, "kontrad": 0, "kontra_given": 0, "kontra_won": 0,
    }
    assert body["rank"] == 2

    bela = await get(server, "/api/players/" + quote("béla/2", safe=""))
    assert bela.status_code == 200 and bela.json()["name"] == "Béla/2"
    assert (await get(server, "/api/players/b%C3%A9la/2")).json()["rank"] == 3  # an unencoded slash works too

    # a registered player without a match: the newcomer's rating, no rank
    dora = (await get(server, "/api/players/dora")).status_code
    assert dora == 404  # names are NFKC casefolded, accents are kept: "dora" is not "Dóra"
    newcomer = (await get(server, "/api/players/" + quote("DÓRA"))).json()
    assert newcomer["rating"] == {"value": 1500, "provisional": True, "rated_matches": 0, "history": []}
    assert newcomer["rank"] is None and newcomer["matches"]["recent"] == []

    # the leaderboard: by rating, provisional marked; "me" only with a session
    board = await get(server, "/api/leaderboard")
    assert board.status_code == 200
    rows = board.json()["players"]
    assert [(r["rank"], r["name"], r["rating"], r["provisional"]) for r in rows] == [
        (1, "Cili", 1640, False), (2, "Anna <b>", 1540, True), (3, "Béla/2", 1460, True),
    ]
    assert board.json()["me"] is None
    mine = (await get(server, "/api/leaderboard", accounts["Béla/2"]["token"])).json()["me"]
    assert mine == {
        "rank": 3, "name": "Béla/2", "rating": 1460, "provisional": True, "bot": False, "matches": 1, "account": True,
    }
    unranked = (await get(server, "/api/leaderboard", accounts["Dóra"]["token"])).json()["me"]
    assert unranked["rank"] is None and unranked["rating"] == 1500 and unranked["account"] is True


async def test_the_player_page_is_served_for_any_name(server: ServerProcess) -> None:
    page = await get(server, "/@/" + quote("Anna <b>", safe=""))
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "/js/player.js" in page.text
    assert "Anna" not in page.text  # the name is never written into the page by the server
