"""A rated tournament open to bots: a bot account registers through the bot API, is told on its event
stream when its table is ready and plays it there; every table of the tournament moves the ratings,
table by table, as rated matches do."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.server.botapi_helpers import Reader, new_account, play_over_api
from tests.server.conftest import ServerProcess
from tests.server.helpers import until


@pytest.mark.asyncio
async def test_bot_account_registers_is_told_its_table_and_plays_a_rated_tournament(server: ServerProcess) -> None:
    host = await new_account(server.base_url, "Director", bot=False)
    people = [await new_account(server.base_url, name, bot=False) for name in ("Anna", "Bela")]
    robo = await new_account(server.base_url, "Robo")
    async with host.web(server.base_url) as desk:
        made = await desk.post("/api/tournaments", json={
            "name": "Rated cup", "rounds": 2, "deals_per_round": 6, "move_seconds": 5, "level": "random",
            "break_seconds": 0, "rated": True, "entry": "bots",
        })
        assert made.status_code == 200, made.text
        tid = made.json()["tournament_id"]
        for person in people:
            async with person.web(server.base_url) as web:
                assert (await web.post(f"/api/tournaments/{tid}/register", json={})).status_code == 200
        async with robo.api(server.base_url) as api:
            # a bot account registers through the API only, and a person's session cannot register it
            async with robo.web(server.base_url) as web:
                refused = await web.post(f"/api/tournaments/{tid}/register", json={})
                assert refused.json()["error"]["code"] == "bot_account"
            registered = await api.post(f"/api/bot/tournaments/{tid}/register", json={})
            assert registered.status_code == 200 and registered.json() == {"player": 2}, registered.text
            stream = Reader(api, "/api/stream/event").start()
            await until(lambda: _true(stream.status == 200), 10, "the event stream is open")
            started = await desk.post(f"/api/tournaments/{tid}/desk", json={"action": "start"})
            assert started.status_code == 200, started.text
            for number in (1, 2):
                await stream.wait_for(lambda s, n=number: _told(s, n), 60)
                told = [m for m in stream.messages if m.get("type") == "tournament_table"][-1]
                assert told["tournament"] == tid and told["round"] == number
                await play_over_api(api, told["table"], seed=number)
            await stream.stop()

        final: dict[str, Any] = {}

        async def over() -> bool:
            nonlocal final
            final = (await desk.get(f"/api/tournaments/{tid}")).json()
            return bool(final["status"] == "finished")

        await until(over, 120, "the tournament is over")
    tables = [t["table_id"] for r in final["rounds"] for t in r["tables"]]
    assert len(tables) == 2
    path = server.db_url.split(":///", 1)[1]
    with sqlite3.connect(path) as conn:
        for table_id in tables:
            rows = conn.execute("SELECT name, rated, rating_before, rating_after FROM match_players WHERE table_id = ?",
                                (table_id,)).fetchall()
            assert {r[0] for r in rows} == {"Anna", "Bela", "Robo"}
            assert all(r[1] and r[2] is not None and r[3] is not None for r in rows), rows
        # the second table's ratings start where the first table's ended
        first = dict(conn.execute("SELECT name, rating_after FROM match_players WHERE table_id = ?",
                                  (tables[0],)).fetchall())
        second = dict(conn.execute("SELECT name, rating_before FROM match_players WHERE table_id = ?",
                                   (tables[1],)).fetchall())
    assert first == second


async def _true(value: bool) -> bool:
    return value


def _told(stream: Reader, round_number: int) -> bool:
    return any(m.get("type") == "tournament_table" and m.get("round") == round_number for m in stream.messages)
