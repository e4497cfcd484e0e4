"""kill -9 the server mid-deal, start it again: the clients reconnect and finish the match, and the
records are exactly those of a run without the crash."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.client import GameClient, play_randomly

SEED = 4242
# Long grace: the crash must not make anyone "away" (a bot would then play other cards than the run without it).
ARGS = ("--fast", "--disconnect-grace", "60")


async def records_of(client: GameClient, table_id: str) -> list[dict[str, Any]]:
    """Every finished deal's record, and the match record."""
    match = await client.http("GET", f"/api/tables/{table_id}/record")
    deals = [
        await client.http("GET", f"/api/tables/{table_id}/deals/{i}/record") for i in range(len(match["deals"]))
    ]
    match.pop("players")
    return [match, *deals]


async def finish(clients: list[GameClient]) -> None:
    await asyncio.wait_for(asyncio.gather(*(play_randomly(c, SEED + i) for i, c in enumerate(clients))), 300)


@pytest.mark.asyncio
async def test_kill_9_mid_deal_then_restart_resumes_exactly(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    # The reference run, without a crash.
    reference = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", args=ARGS)
    reference.start(tmp_path / "a.log")
    table_a, clients = await three_players(reference.base_url, seed=SEED)
    await clients[0].http("POST", f"/api/tables/{table_a}/start", {})
    await finish(clients)
    expected = await records_of(clients[0], table_a)
    for client in clients:
        await client.close()
    assert len(expected) >= 7

    # The same table, killed in the middle of deal 2.
    crashing = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", args=ARGS)
    crashing.start(tmp_path / "b.log")
    table_b, clients = await three_players(crashing.base_url, seed=SEED)
    await clients[0].http("POST", f"/api/tables/{table_b}/start", {})

    def mid_deal_2() -> bool:
        state = clients[0].state
        return bool(state and (state["deal_index"] or 0) >= 2 and state["deal"]["phase"] == "play")

    players = [asyncio.create_task(play_randomly(c, SEED + i)) for i, c in enumerate(clients)]
    await clients[0].wait_for(mid_deal_2, 120)
    crashing.kill()
    for task in players:
        with contextlib.suppress(Exception):
            await task
    seq_before = clients[0].seq

    crashing.start(tmp_path / "b.log")  # the same database file and port
    for client in clients:
        await client.close()
        await client.connect()
        await client.open_table(table_b)
    state = clients[0].state
    assert state is not None
    assert state["deal_index"] >= 2 and state["deal"]["phase"] != "done"
    assert clients[0].seq >= seq_before  # nothing the players were told was lost
    await finish(clients)
    got = await records_of(clients[0], table_b)
    for client in clients:
        await client.close()
    assert got == expected
