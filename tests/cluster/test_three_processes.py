"""Three server processes on PostgreSQL and Redis: the players of one table on three processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest

from tests.cluster.conftest import Cluster
from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.client import GameClient, play_randomly
from ulti.engine.record import score_record

SEED = 777


async def seat_three(bases: list[str]) -> tuple[str, list[GameClient]]:
    """Player i logs in at process i; all three sit at one table created at process 0, started."""
    return await three_players(bases, seed=SEED, start=True)


async def finish(clients: list[GameClient]) -> None:
    await asyncio.wait_for(asyncio.gather(*(play_randomly(c, SEED + i) for i, c in enumerate(clients))), 300)


async def records(client: GameClient, table_id: str) -> list[dict[str, Any]]:
    match = await client.http("GET", f"/api/tables/{table_id}/record")
    deals = [await client.http("GET", f"/api/tables/{table_id}/deals/{i}/record") for i in range(len(match["deals"]))]
    match.pop("players")
    return [match, *deals]


@pytest.mark.asyncio
async def test_players_on_three_processes_play_a_whole_match(cluster: Cluster) -> None:
    processes = cluster.start(3)
    pids = set()
    for srv in processes:
        health = await GameClient(srv.base_url).http("GET", "/healthz")
        pids.add(health["process"])
    assert len(pids) == 3
    table_id, clients = await seat_three([srv.base_url for srv in processes])
    try:
        await finish(clients)
        states = [c.state for c in clients]
        assert all(s is not None for s in states)
        match = states[0]["match"]  # type: ignore[index]
        assert match["winner"] is not None
        for state in states[1:]:
            assert state["match"]["results"] == match["results"]  # type: ignore[index]
            assert state["match"]["totals"] == match["totals"]  # type: ignore[index]
        # every deal's record (downloaded from any process) scores to what the players were shown
        for i, shown in enumerate(match["results"]):
            record = await clients[i % 3].http("GET", f"/api/tables/{table_id}/deals/{i}/record")
            # the table shows what the points are made of too (`detail`), which a record never holds
            assert score_record(record) == {k: v for k, v in shown.items() if k != "detail"}
        scored = score_record(await clients[1].http("GET", f"/api/tables/{table_id}/record"))
        assert scored["totals"] == match["totals"] and scored["winner"] == match["winner"]
        # the lobby of every process lists the finished table no more; the players' history has it
        for client in clients:
            past = await client.http("GET", "/api/me/matches")
            assert [m["table_id"] for m in past["matches"]] == [table_id]
    finally:
        for client in clients:
            await client.close()


@pytest.mark.asyncio
async def test_owner_killed_mid_deal_another_process_takes_over(
    cluster: Cluster, postgres_server: Any, redis_server: Any, tmp_path: Any
) -> None:
    # Reference: the same table with no failure, on a single process (SQLite, no Redis).
    reference = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ref.db'}", args=("--fast",))
    reference.start(tmp_path / "ref.log")
    try:
        ref_table, ref_clients = await seat_three([reference.base_url] * 3)
        await finish(ref_clients)
        expected = await records(ref_clients[0], ref_table)
        for client in ref_clients:
            await client.close()
    finally:
        reference.stop()

    processes = cluster.start(3)
    table_id, clients = await seat_three([srv.base_url for srv in processes])
    # process 0 created the table, so it owns it; kill it in the middle of deal 2
    owner = processes[0]

    def mid_deal_2() -> bool:
        state = clients[1].state
        return bool(state and (state["deal_index"] or 0) >= 2 and state["deal"]["phase"] == "play")

    players = [asyncio.create_task(play_randomly(c, SEED + i)) for i, c in enumerate(clients)]
    await clients[1].wait_for(mid_deal_2, 120)
    owner.kill()
    for task in players[:1]:
        with contextlib.suppress(Exception):
            await task
    # player 0 was connected to the dead process: it reconnects to process 1
    clients[0].base_url = processes[1].base_url
    await clients[0].close()
    await clients[0].connect()
    await clients[0].open_table(table_id)
    players[0] = asyncio.create_task(play_randomly(clients[0], SEED))
    await asyncio.wait_for(asyncio.gather(*players), 300)
    got = await records(clients[2], table_id)
    for client in clients:
        await client.close()
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)
