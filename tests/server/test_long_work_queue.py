"""Long work on the job queue with real ``ulti serve`` processes (docs/queue.md): the embedded default
needs no Redis (``make run``), and ``ulti worker`` on Redis does a server's work when it has no workers."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest
from tests.server.test_long_work import finished_match, get, long_work, played_deal, until_done
from tests.services import Redis, start_redis
from ulti.client import GameClient
from ulti.queue.runner import NO_WORKER_SECONDS


def workers_of(pid: int) -> list[str]:
    """The command lines of ``pid``'s child processes that are queue workers."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        line = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        if " worker " in line:
            found.append(line)
    return found


async def metric(srv: ServerProcess, name: str) -> float:
    """One unlabelled series of the server's ``/metrics``."""
    async with httpx2.AsyncClient(timeout=30) as http:
        text = (await http.get(srv.base_url + "/metrics")).text
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found is not None, name
    return float(found[1])


@pytest.fixture
def redis_server() -> Iterator[Redis]:
    server = start_redis()
    yield server
    server.stop()


@pytest.mark.asyncio
async def test_the_embedded_queue_needs_no_redis_and_gets_an_analysis_done(
    server: ServerProcess, tmp_path: Path,
) -> None:
    host = await guest(server.base_url, "Host")
    table_id = await finished_match(server, host)
    index, _, _ = await played_deal(server, table_id)
    analysis = await until_done(server, f"/api/tables/{table_id}/deals/{index}/analysis", host)
    assert analysis["status"] == "done"
    assert (await long_work(server))["analysis"] >= 1
    # the queue is a SQLite file beside the store, done by the server's own low-priority worker
    assert (tmp_path / "ulti-queue.db").is_file()
    assert server.proc is not None
    lines = workers_of(server.proc.pid)
    assert len(lines) == 1 and f"--queue sqlite:{tmp_path / 'ulti-queue.db'}" in lines[0], lines
    assert "--low-priority" in lines[0]
    assert await metric(server, "ulti_long_work_queue_depth") == 0
    assert await metric(server, "ulti_long_work_requeued_total") == 0
    await host.close()


@pytest.mark.asyncio
async def test_ulti_worker_on_redis_does_the_work_of_a_server_without_workers(
    redis_server: Redis, tmp_path: Path,
) -> None:
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
                        args=("--fast", "--redis", redis_server.url, "--no-local-workers"))
    srv.start(tmp_path / "server.log")
    worker = subprocess.Popen([sys.executable, "-m", "ulti", "worker", "--redis", redis_server.url, "--workers", "2"],
                              stdin=subprocess.DEVNULL)
    try:
        host = await guest(srv.base_url, "Host")
        table_id = await finished_match(srv, host)
        index, start, _ = await played_deal(srv, table_id)
        assert srv.proc is not None and workers_of(srv.proc.pid) == []
        began = time.monotonic()
        status, line, _ = await get(srv, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
        assert status == 200, line
        assert time.monotonic() - began < 30
        analysis = await until_done(srv, f"/api/tables/{table_id}/deals/{index}/analysis", host)
        assert analysis["status"] == "done"
        counts = await long_work(srv)
        assert counts["whatif"] == 1 and counts["analysis"] >= 1
        assert not (tmp_path / "ulti-queue.db").exists()  # on Redis, not on a file of its own
        await host.close()
    finally:
        worker.terminate()
        worker.wait(10)
        srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


@pytest.mark.asyncio
async def test_the_servers_workers_end_with_it(server: ServerProcess, tmp_path: Path) -> None:
    host = await guest(server.base_url, "Host")
    table_id = await finished_match(server, host)
    index, start, _ = await played_deal(server, table_id)
    status, _, _ = await get(server, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
    assert status == 200
    await host.close()
    assert server.proc is not None
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
    assert len(workers_of(server.proc.pid)) == 1
    server.kill()  # kill -9: no shutdown code runs
    for _ in range(200):
        if not any(Path(f"/proc/{pid}").exists() for pid in children):
            break
        await asyncio.sleep(0.05)
    alive = [pid for pid in children if Path(f"/proc/{pid}/cmdline").exists()
             and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"]
    assert alive == [], "a worker outlived its server"


@pytest.mark.asyncio
async def test_strong_bots_on_the_queue_play_a_match_to_its_end(tmp_path: Path) -> None:
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--fast", "--bots-on-queue"))
    srv.start(tmp_path / "server.log")
    try:
        host = await guest(srv.base_url, "Host")
        config = {"deals": 6, "seats": [{"kind": "bot", "level": "strong"}] * 3, "move_seconds": 0}
        table_id: str = (await host.http("POST", "/api/tables", config))["table_id"]
        await host.http("POST", f"/api/tables/{table_id}/start", {})
        for _ in range(3000):
            if (await host.http("GET", f"/api/tables/{table_id}"))["table"]["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the match of strong bots did not finish")
        # the bots thought in the queue's worker: the server started no bot processes of its own
        assert srv.proc is not None
        children = Path(f"/proc/{srv.proc.pid}/task/{srv.proc.pid}/children").read_text().split()
        lines = [Path(f"/proc/{c}/cmdline").read_bytes().replace(b"\0", b" ").decode() for c in children]
        assert len(workers_of(srv.proc.pid)) == 1
        assert not any("multiprocessing" in line for line in lines), lines
        await host.close()
    finally:
        srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


async def healthz(srv: ServerProcess) -> dict[str, Any]:
    """The server's ``/healthz`` answer."""
    async with httpx2.AsyncClient(timeout=30) as http:
        answer: dict[str, Any] = (await http.get(srv.base_url + "/healthz")).json()
    return answer


async def analysis_when(srv: ServerProcess, path: str, client: GameClient, status: str,
                        timeout: float) -> dict[str, Any]:
    """The analysis route's answer at ``path`` once its status is ``status`` (asked every 0.1 s)."""
    deadline = time.monotonic() + timeout
    while True:
        code, body, _ = await get(srv, path, client)
        assert code == 200, body
        if body["status"] == status:
            return dict(body)
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_long_work_no_worker_takes_is_refused_with_no_worker_and_health_says_so(tmp_path: Path) -> None:
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--fast", "--no-local-workers"))
    srv.start(tmp_path / "server.log")
    worker: subprocess.Popen[bytes] | None = None
    try:
        host = await guest(srv.base_url, "Host")
        table_id = await finished_match(srv, host)
        index, start, _ = await played_deal(srv, table_id)
        assert (await healthz(srv))["long_work_workers_missing"] is False  # nothing waits yet
        began = time.monotonic()
        status, body, _ = await get(srv, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
        assert status == 503 and body["error"]["code"] == "no_worker", body
        assert body["error"]["args"] == {"seconds": round(NO_WORKER_SECONDS)}
        assert time.monotonic() - began >= NO_WORKER_SECONDS
        assert (await healthz(srv))["long_work_workers_missing"] is True
        assert await metric(srv, "ulti_long_work_workers_missing") == 1
        # the deal's analysis ends refused too, with the code the page words, not "running" for ever
        path = f"/api/tables/{table_id}/deals/{index}/analysis"
        body = await analysis_when(srv, path, host, "failed", 60)
        assert body["error"]["code"] == "no_worker", body
        # an ``ulti worker`` turns up: the health clears and long work is done again
        worker = subprocess.Popen([sys.executable, "-m", "ulti", "worker", "--queue",
                                   f"sqlite:{tmp_path / 'ulti-queue.db'}"], stdin=subprocess.DEVNULL)
        for _ in range(300):
            if not (await healthz(srv))["long_work_workers_missing"]:
                break
            await asyncio.sleep(0.1)
        assert (await healthz(srv))["long_work_workers_missing"] is False
        assert await metric(srv, "ulti_long_work_workers_missing") == 0
        status, line, _ = await get(srv, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
        assert status == 200, line
        # the analysis refused for want of a worker is queued again when asked for, and done
        assert (await analysis_when(srv, path, host, "done", 120))["analysis"]
        await host.close()
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(10)
        srv.stop()
