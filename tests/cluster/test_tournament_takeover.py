"""Three processes on PostgreSQL and Redis: a tournament is directed by one of them (a lease, like a
table's); kill -9 that one mid-round and another takes the tournament over and runs it to its end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.conftest import Cluster
from tests.server.helpers import until
from tests.services import Postgres, Redis
from ulti.client import GameClient
from ulti.tournaments.record import score_tournament


def director_of(cluster: Cluster, tournament_id: str) -> int | None:
    """Which process took the tournament's lease last (by the time its log gives), if any did: the process
    killed still has its own line, whatever index the one that took over has."""
    found: tuple[float, int] | None = None
    for n, srv in enumerate(cluster.processes):
        assert srv.log_path is not None
        for line in srv.log_path.read_text().splitlines():
            if f'"table": "tournament:{tournament_id}"' in line and "lease taken" in line:
                taken = (float(json.loads(line)["ts"]), n)
                found = taken if found is None else max(found, taken)
    return None if found is None else found[1]


@pytest.mark.asyncio
async def test_tournament_director_killed_mid_round_another_process_takes_over(
    postgres_server: Postgres, redis_server: Redis, tmp_path: Path
) -> None:
    db_url = postgres_server.create_database("tournament_takeover")
    # a short grace: absent players' seats go to bots quickly; still long enough to kill mid-round
    cluster = Cluster(db_url, redis_server.url, tmp_path, ("--fast", "--disconnect-grace", "4"))
    try:
        processes = cluster.start(3)
        host = GameClient(processes[1].base_url)
        await host.login("Director")
        tid = (await host.http("POST", "/api/tournaments", {
            "name": "Failover cup", "format": "standings", "rounds": 2, "deals_per_round": 6, "move_seconds": 5,
            "level": "random", "break_seconds": 0,
        }))["tournament_id"]
        players = []
        for i in range(6):
            player = GameClient(processes[i % 3].base_url)
            await player.login(f"Player {i}")
            await player.http("POST", f"/api/tournaments/{tid}/register", {})
            players.append(player)

        async def directed() -> bool:
            return director_of(cluster, tid) is not None

        await until(directed, 20, "a process directs the tournament")
        owner = director_of(cluster, tid)
        assert owner is not None
        other = processes[(owner + 1) % 3]
        host.base_url = other.base_url
        await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
        view = await host.http("GET", f"/api/tournaments/{tid}")
        assert view["round"] == 1 and all(t["result"] is None for t in view["rounds"][0]["tables"])
        before = [json.dumps(e) for e in (await host.http("GET", f"/api/tournaments/{tid}"))["rounds"][0]["tables"]]
        processes[owner].kill()

        final: dict[str, Any] = {}

        async def over() -> bool:
            nonlocal final
            final = await host.http("GET", f"/api/tournaments/{tid}")
            return bool(final["status"] == "finished")

        await until(over, 300, "another process finishes the tournament")
        new_owner = director_of(cluster, tid)
        assert new_owner is not None and new_owner != owner
        assert [len(r["tables"]) for r in final["rounds"]] == [2, 2]
        assert [t["table_id"] for t in final["rounds"][0]["tables"]] == [json.loads(e)["table_id"] for e in before]
        record = await host.http("GET", f"/api/tournaments/{tid}/record")
        assert score_tournament(record)["standings"] == final["standings"]
        for client in [host, *players]:
            await client.close()
        for n, srv in enumerate(processes):
            assert srv.log_path is not None
            if n != owner:  # the survivors directed and played on without a failure
                assert "tournament director failed" not in srv.log_path.read_text(), srv.log_path.read_text()[-3000:]
    finally:
        cluster.stop()
