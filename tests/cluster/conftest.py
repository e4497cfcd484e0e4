"""Several server processes sharing a real PostgreSQL server and a real Redis server."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import ServerProcess
from tests.services import Postgres, Redis, start_postgres, start_redis

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    """One PostgreSQL server for the session (each test gets its own database)."""
    server = start_postgres()
    yield server
    server.stop()


@pytest.fixture
def redis_server() -> Iterator[Redis]:
    """A fresh Redis server per test (no leftover leases or presence)."""
    server = start_redis()
    yield server
    server.stop()


class Cluster:
    """N ``ulti serve`` processes on one database and one Redis."""

    def __init__(self, db_url: str, redis_url: str, folder: Path, args: tuple[str, ...]) -> None:
        self.db_url, self.redis_url, self.folder, self.args = db_url, redis_url, folder, args
        self.processes: list[ServerProcess] = []

    def start(self, count: int) -> list[ServerProcess]:
        """Start ``count`` more processes."""
        for _ in range(count):
            n = len(self.processes)
            srv = ServerProcess(
                db_url=self.db_url, args=(*self.args, "--redis", self.redis_url, "--lease-seconds", "3")
            )
            srv.start(self.folder / f"server{n}.log")
            self.processes.append(srv)
        return self.processes

    def stop(self) -> None:
        """Stop every process."""
        for srv in self.processes:
            srv.stop()


@pytest.fixture
def cluster(postgres_server: Postgres, redis_server: Redis, tmp_path: Path) -> Iterator[Cluster]:
    """Build with ``cluster.start(3)``; everything is stopped at the end."""
    db_url = postgres_server.create_database(f"c{next(_databases)}")
    group = Cluster(db_url, redis_server.url, tmp_path, ("--fast", "--disconnect-grace", "60"))
    yield group
    group.stop()
