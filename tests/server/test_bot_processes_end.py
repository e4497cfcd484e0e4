"""The bots' worker processes end with their server: a server killed with kill -9 (or by the kernel for
want of memory) leaves no bot process behind, idle or thinking (``longwork.end_with_server``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest


def children_of(pid: int) -> list[str]:
    """The process ids of ``pid``'s children."""
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def cmdline(pid: str) -> str:
    """Process ``pid``'s command line ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


def running(pid: str) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.asyncio
async def test_a_killed_servers_bot_processes_end_with_it(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Host")
    config = {"deals": 6, "seats": [{"kind": "bot", "level": "strong"}] * 3, "move_seconds": 0}
    table_id = (await host.http("POST", "/api/tables", config))["table_id"]
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    assert server.proc is not None
    pid = server.proc.pid
    for _ in range(600):  # a strong bot's first decision starts the bots' process pool (after its tracker)
        if any("spawn_main" in cmdline(c) for c in children_of(pid) if running(c)):
            break
        await asyncio.sleep(0.1)
    # the pool's workers, and multiprocessing's resource tracker, which ends once no worker holds its pipe
    pool = [c for c in children_of(pid) if running(c) and "multiprocessing" in cmdline(c)]
    assert any("spawn_main" in cmdline(c) for c in pool), pool
    await host.close()
    server.kill()  # kill -9: no shutdown code runs
    for _ in range(200):
        if not any(running(c) for c in pool):
            break
        await asyncio.sleep(0.05)
    assert [c for c in pool if running(c)] == [], "a bot process outlived its server"
