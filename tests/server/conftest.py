"""Fixtures that start a real server process (uvicorn via ``ulti serve``) on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from ulti.serverprocess import ServerProcess as ServerProcess
from ulti.serverprocess import free_port as free_port
from ulti.store.eventstore import EventStore


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server with its own SQLite file, no waiting (bots act at once).

    Whatever a test does with it, the server must log no traceback: checked when the test ends.
    """
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}")
    srv.start(tmp_path / "server.log")
    yield srv
    srv.stop()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[type[ServerProcess]]:
    """Build servers with custom arguments; all are stopped at the end of the test."""
    started: list[ServerProcess] = []

    class Factory(ServerProcess):
        def start(self, log_path: Path) -> None:
            started.append(self)
            super().start(log_path)

    yield Factory
    for srv in started:
        srv.stop()


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    """A real, migrated SQLite store in a temporary file (in-process tests of the actor and events)."""
    opened = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'actor.db'}")
    yield opened
    await opened.close()
