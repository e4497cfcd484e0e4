"""An arena open to bots through the bot API (docs/bot-api.md, docs/protocol/tournaments.md "Bot API"):
bot accounts register with their tokens, are told of each table the arena seats them at on their event
stream, play it over the table's stream until the arena ends, and their places reach the standings."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.botapi_helpers import Account, Reader, new_account, play_over_api
from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from ulti.tournaments.record import score_tournament
from ulti.tournaments.standings import places

ARENA = {"name": "Bot arena", "format": "arena", "minutes": 1, "bot_wait_seconds": 2, "deals_per_round": 6,
         "move_seconds": 5, "level": "random", "break_seconds": 0, "entry": "bots"}


def _told(stream: Reader, played: list[str]) -> list[dict[str, Any]]:
    """The tables the stream has told of that the bot has not played yet."""
    return [m for m in stream.messages if m.get("type") == "tournament_table" and m["table"] not in played]


async def bot_plays_its_arena(api: httpx2.AsyncClient, stream: Reader, tid: str, over: asyncio.Event,
                              played: list[str]) -> None:
    """What a bot program does: each table it is told of, it plays to the end, until the arena is over."""
    while True:
        fresh = _told(stream, played)
        if fresh:
            assert fresh[0]["tournament"] == tid
            played.append(fresh[0]["table"])
            await play_over_api(api, fresh[0]["table"], seed=len(played))
            continue
        if over.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await stream.wait_for(lambda s: bool(_told(s, played)), 1)


@pytest.mark.asyncio
async def test_bot_accounts_play_an_arena_through_the_bot_api_until_it_ends(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    # a grace longer than a bot program's reaction: the seats are played by the bot accounts themselves
    server = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'a.db'}",
                            args=("--fast", "--disconnect-grace", "5"))
    server.start(tmp_path / "server.log")
    host = await new_account(server.base_url, "Director", bot=False)
    bots: list[Account] = [await new_account(server.base_url, name) for name in ("Robo", "Droid", "Automat")]
    async with host.web(server.base_url) as desk:
        made = await desk.post("/api/tournaments", json=ARENA)
        assert made.status_code == 200, made.text
        tid = made.json()["tournament_id"]
        apis = [bot.api(server.base_url) for bot in bots]
        streams: list[Reader] = []
        for number, api in enumerate(apis):
            registered = await api.post(f"/api/bot/tournaments/{tid}/register", json={})
            assert registered.status_code == 200 and registered.json() == {"player": number}, registered.text
            streams.append(Reader(api, "/api/stream/event").start())
        for stream in streams:
            await until(lambda s=stream: _true(s.status == 200), 10, "the event stream is open")
        started = await desk.post(f"/api/tournaments/{tid}/desk", json={"action": "start"})
        assert started.status_code == 200, started.text
        over = asyncio.Event()
        played: list[list[str]] = [[] for _ in bots]
        playing = [asyncio.create_task(bot_plays_its_arena(api, stream, tid, over, mine))
                   for api, stream, mine in zip(apis, streams, played, strict=True)]
        final: dict[str, Any] = {}

        async def finished() -> bool:
            nonlocal final
            final = (await desk.get(f"/api/tournaments/{tid}")).json()
            return bool(final["status"] == "finished")

        try:
            await until(finished, 240, "the arena ends and its last table finishes")
        finally:
            over.set()
            await asyncio.wait_for(asyncio.gather(*playing), 60)
            for stream in streams:
                await stream.stop()
            for api in apis:
                await api.aclose()
        record = (await desk.get(f"/api/tournaments/{tid}/record")).json()
    # every table the arena seated was told to each of its bots and played by them to the end
    seated = [t["table_id"] for r in final["rounds"] for t in r["tables"]]
    assert seated and all(sorted(mine) == sorted(seated) for mine in played)
    assert all(t["result"] is not None and sorted(t["seats"]) == [0, 1, 2] for r in final["rounds"]
               for t in r["tables"])
    for entry in (t for r in record["rounds"] for t in r["tables"]):
        match = entry["match"]
        assert match["players"] == [bots[p].name for p in entry["seats"]]
        # each seat's cards were played by its bot account (no action marked as a stand-in's)
        for seat in range(3):
            assert any(a["seat"] == seat and a.get("by") != "bot" for d in match["deals"] for a in d["actions"])
    # the standings: two points for first place, one for second, none for third, table by table
    expected = dict.fromkeys(range(3), 0)
    for entry in (t for r in final["rounds"] for t in r["tables"]):
        for p, place in zip(entry["seats"], places(entry["result"]["points"]), strict=True):
            expected[p] += (2, 1, 0)[place]
    assert {line["player"]: line["total"] for line in final["standings"]} == expected
    assert score_tournament(record)["standings"] == final["standings"]


async def _true(value: bool) -> bool:
    return value
