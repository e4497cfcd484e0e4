"""Ratings with three server processes on PostgreSQL and Redis: one update per match.

Rated matches run at the same time on all three processes and share the same bot accounts (so
their rating updates compete for the same rows), and the process owning one of them is killed (by
SIGKILL) the moment its match ends, before recording it: another process takes the table over and
records it. In the end every match has exactly one result and every bot's rating counts every match
exactly once.
"""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from tests.cluster.conftest import Cluster
from tests.server.helpers import until
from ulti.client import GameClient
from ulti.server.results import CRASH_ENV
from ulti.store.eventstore import EventStore
from ulti.store.models import match_players, match_results, ratings

PASSWORD = "correct horse battery"
BOTS = [{"kind": "bot", "level": "random"}] * 3
BOT_IDS = ["bot-random", "bot-random-2", "bot-random-3"]
TABLES_PER_PROCESS = 2


async def account(base_url: str, name: str) -> GameClient:
    client = GameClient(base_url)
    data = await client.http("POST", "/api/account/register", {"name": name, "password": PASSWORD})
    client.token, client.player_id = data["token"], data["player"]["id"]
    return client


@pytest.mark.asyncio
async def test_three_processes_update_ratings_once_per_match(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CRASH_ENV, "before_record")
    crashing = cluster.start(1)[0]  # dies the moment its first match ends, before recording it
    monkeypatch.delenv(CRASH_ENV)
    processes = cluster.start(2)
    hosts = [await account(srv.base_url, f"Host {i}") for i, srv in enumerate(processes)]


    async def create_at(base_url: str, host: GameClient) -> tuple[str, GameClient]:
        """A rated all-bot table created at (and so owned by) the process at ``base_url``."""
        creator = GameClient(base_url)
        creator.token = host.token  # an account's session is good at every process
        table = await creator.http("POST", "/api/tables", {"deals": 6, "rated": True, "seats": BOTS})
        return str(table["table_id"]), creator

    created = [await create_at(crashing.base_url, hosts[0])]
    for srv, host in zip(processes, hosts, strict=True):
        created += [await create_at(srv.base_url, host) for _ in range(TABLES_PER_PROCESS)]
    table_ids = [t for t, _ in created]
    await asyncio.gather(*(creator.http("POST", f"/api/tables/{t}/start", {}) for t, creator in created))

    store = await EventStore.open(cluster.db_url)
    try:

        async def all_recorded() -> bool:
            async with store.engine.connect() as conn:
                count = (await conn.execute(sa.select(sa.func.count()).select_from(match_results))).scalar_one()
            return int(count) >= len(table_ids)

        await until(all_recorded, 240, "every match recorded")
        assert crashing.proc is not None and crashing.proc.poll() == -9  # it did die at its match end
        await asyncio.sleep(1)  # anything still trying to record would do it now
        async with store.engine.connect() as conn:
            results = (await conn.execute(sa.select(match_results.c.table_id, match_results.c.rated))).all()
            seats = (await conn.execute(sa.select(match_players.c.table_id, match_players.c.player_id))).all()
            rows = (await conn.execute(sa.select(ratings.c.player_id, ratings.c.rated_matches))).all()
        assert sorted(r.table_id for r in results) == sorted(table_ids) and all(r.rated for r in results)
        assert sorted((s.table_id, s.player_id) for s in seats) == sorted((t, b) for t in table_ids for b in BOT_IDS)
        # every bot sat at every table: one update per match, none lost, none twice
        assert {r.player_id: r.rated_matches for r in rows} == {b: len(table_ids) for b in BOT_IDS}
    finally:
        await store.close()
