"""Two server processes and two ``ulti worker``s on PostgreSQL and Redis (docs/queue.md): tables of bots
played to the end on both servers, every deal of them analysed by the workers, with one worker killed
in the middle of a job and nothing lost."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from tests.cluster.conftest import Cluster
from tests.server.helpers import guest
from tests.server.test_long_work import finished_match, get, until_done
from tests.services import Postgres, Redis
from ulti.engine.record import score_record
from ulti.queue.jobs import QueueSpec, make_queue


def start_worker(redis_url: str) -> subprocess.Popen[bytes]:
    """``ulti worker`` on the cluster's Redis, one piece at a time."""
    return subprocess.Popen([sys.executable, "-m", "ulti", "worker", "--redis", redis_url], stdin=subprocess.DEVNULL)


async def requeued(base_url: str) -> float:
    """The server's ``ulti_long_work_requeued_total``."""
    async with httpx2.AsyncClient(timeout=30) as http:
        text = (await http.get(base_url + "/metrics")).text
    found = re.search(r"^ulti_long_work_requeued_total (\S+)$", text, re.M)
    assert found is not None
    return float(found[1])


@pytest.mark.asyncio
async def test_two_servers_and_two_workers_play_and_analyse_bot_tables_with_a_worker_killed(
    postgres_server: Postgres, redis_server: Redis, tmp_path: Path,
) -> None:
    db_url = postgres_server.create_database("queueworkers")
    cluster = Cluster(db_url, redis_server.url, tmp_path, ("--fast", "--no-local-workers"))
    workers = [start_worker(redis_server.url), start_worker(redis_server.url)]
    queue = make_queue(QueueSpec(redis_server.url))
    try:
        servers = cluster.start(2)
        hosts = [await guest(srv.base_url, f"Host {i}") for i, srv in enumerate(servers)]
        # two matches of bots on each server, played to their ends at once
        tables = await asyncio.gather(*(finished_match(servers[i % 2], hosts[i % 2]) for i in range(4)))
        for i, table_id in enumerate(tables):
            status, body, _ = await get(servers[i % 2], f"/api/tables/{table_id}/analysis", hosts[i % 2])
            assert status == 200 and body["status"] in ("running", "done"), body
        # kill -9 one worker while both hold a job's lease (each in the middle of a piece)
        for _ in range(3000):
            keys = [k if isinstance(k, str) else k.decode() for k in queue.storage.result_items()]
            if sum(1 for k in keys if k.startswith("lease:")) == 2:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the two workers never ran two pieces at once")
        workers[0].kill()
        workers[0].wait()
        # every match analysed to the end, asked of either server, by the worker left
        for i, table_id in enumerate(tables):
            done = await until_done(servers[(i + 1) % 2], f"/api/tables/{table_id}/analysis", hosts[(i + 1) % 2])
            assert done["status"] == "done"
            assert done["failed"] == 0 and len(done["analysed"]) == done["deals"] >= 1, done
        assert sum([await requeued(srv.base_url) for srv in servers]) >= 1
        for host in hosts:
            await host.close()
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
            worker.wait(10)
        cluster.stop()
    for n in range(2):
        assert "Traceback" not in (tmp_path / f"server{n}.log").read_text()


@pytest.mark.asyncio
async def test_strong_bots_on_the_queue_of_two_servers_finish_their_matches_with_a_worker_killed(
    postgres_server: Postgres, redis_server: Redis, tmp_path: Path,
) -> None:
    db_url = postgres_server.create_database("queuebots")
    cluster = Cluster(db_url, redis_server.url, tmp_path, ("--fast", "--no-local-workers", "--bots-on-queue"))
    workers = [start_worker(redis_server.url), start_worker(redis_server.url)]
    queue = make_queue(QueueSpec(redis_server.url))
    try:
        servers = cluster.start(2)
        hosts = [await guest(srv.base_url, f"Host {i}") for i, srv in enumerate(servers)]
        config = {"deals": 6, "seats": [{"kind": "bot", "level": "strong"}] * 3, "move_seconds": 0}
        tables = []
        for host in hosts:
            table_id: str = (await host.http("POST", "/api/tables", config))["table_id"]
            await host.http("POST", f"/api/tables/{table_id}/start", {})
            tables.append(table_id)
        for _ in range(6000):  # both workers thinking for a bot at once, then one is killed
            keys = [k if isinstance(k, str) else k.decode() for k in queue.storage.result_items()]
            if sum(1 for k in keys if k.startswith("lease:")) == 2:
                break
            await asyncio.sleep(0.005)
        else:
            raise AssertionError("the two workers never thought for two bots at once")
        workers[0].kill()
        workers[0].wait()
        for _ in range(3000):
            states = [(await hosts[i].http("GET", f"/api/tables/{t}"))["table"]["status"] for i, t in enumerate(tables)]
            if states == ["finished", "finished"]:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the matches did not finish: {states}")
        # every deal of both matches is stored whole and scores, read from the other server
        for i, table_id in enumerate(tables):
            record = await hosts[1 - i].http("GET", f"/api/tables/{table_id}/record")
            assert record["deals"], record
            scored = score_record(record)  # every deal replayed and scored: the match has its winner
            assert scored["winner"] is not None, scored
        for host in hosts:
            await host.close()
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
            worker.wait(10)
        cluster.stop()
    for n in range(2):
        log = (tmp_path / f"server{n}.log").read_text()
        assert "Traceback" not in log
        # the killed worker's turn was taken again within the budget (a turn's short lease) and played by
        # its bot, not by the random legal action of a bot over its budget
        assert "over its time budget" not in log
