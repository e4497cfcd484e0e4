"""Two processes on PostgreSQL and Redis: lobby changes reach the other process as changes, unstarted
tables expire, and an unloaded finished table is taken up again by whichever process is asked for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cluster.conftest import Cluster
from tests.server.helpers import until
from tests.services import Postgres, Redis
from ulti.client import GameClient

BOTS = [{"kind": "bot", "level": "random"}] * 3
ME, OPEN = {"kind": "me"}, {"kind": "open"}


async def login(base: str, name: str, connect: bool = False) -> GameClient:
    client = GameClient(base)
    await client.login(name)
    if connect:
        await client.connect()
    return client


@pytest.mark.asyncio
async def test_lobby_changes_expiry_and_unloading_work_across_processes(
    postgres_server: Postgres, redis_server: Redis, tmp_path: Path
) -> None:
    db_url = postgres_server.create_database("idle1")
    args = ("--fast", "--unload-idle-seconds", "0.5", "--expire-unstarted-seconds", "3")
    group = Cluster(db_url, redis_server.url, tmp_path, args)
    try:
        first, second = (srv.base_url for srv in group.start(2))
        watcher = await login(second, "Watcher", connect=True)
        await watcher.send({"type": "watch_lobby"})
        await watcher.wait_for(lambda: watcher.lobby is not None, 10)
        host = await login(first, "Anna")
        bots = [(await host.http("POST", "/api/tables", {"deals": 6, "seats": BOTS}))["table_id"] for _ in range(3)]
        table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]}))["table_id"]
        for bot_table in bots:
            await host.http("POST", f"/api/tables/{bot_table}/start", {})

        # a change made at the first process reaches the second one's watcher as that table alone
        guest = await login(second, "Bence")
        await guest.http("POST", f"/api/tables/{table_id}/join", {"seat": 1})

        def bence_sits() -> bool:
            return any(t["table_id"] == table_id and t["seats"][1]["name"] == "Bence" for t in watcher.lobby or [])

        await watcher.wait_for(bence_sits, 10)
        updates = [m for m in watcher.received if m["type"] == "lobby_update"]
        assert updates and all(len(m["tables"]) + len(m["removed"]) <= 4 for m in updates)
        assert all(len(json.dumps(m)) < 2048 for m in updates)
        # it expires (its owner is the first process), and the bot matches finish: all leave the lobby
        await watcher.wait_for(lambda: watcher.lobby == [], 20)
        assert any(m.get("removed") == [table_id] for m in updates + watcher.received)
        assert (await host.http("GET", "/api/tables"))["tables"] == []

        # nobody watches the finished and expired tables: their owner unloads them and lets them go
        async def first_holds_none() -> bool:
            return bool((await host.http("GET", "/healthz"))["tables"] == 0)

        await until(first_holds_none, 10, "the first process unloaded its idle tables")
        # the second process loads one again when asked, and takes it over for a command
        spectator = await login(second, "Dora", connect=True)
        view = await spectator.http("GET", f"/api/tables/{bots[0]}")
        assert view["table"]["status"] == "finished" and view["match"]["winner"] is not None
        await spectator.open_table(bots[0])
        await spectator.request({"type": "chat", "text": "well played, bots"})
        assert spectator.state is not None and spectator.state["chat"][-1]["text"] == "well played, bots"
        assert spectator.seq == view["seq"] + 1
        for client in (watcher, spectator):
            await client.close()
    finally:
        group.stop()
    for srv in group.processes:
        assert srv.log_path is not None
        assert "Traceback" not in srv.log_path.read_text()
