"""Where a server's long work is queued (``workdesk.queue_url``): beside the store, on Redis, or nowhere."""

from __future__ import annotations

from pathlib import Path

from ulti.queue.runner import QueueRunner
from ulti.server.config import Settings
from ulti.server.workdesk import queue_runner, queue_url


def test_the_embedded_queue_sits_beside_a_sqlite_store(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}")
    assert queue_url(settings) == f"sqlite:{tmp_path / 'ulti-queue.db'}"
    runner = queue_runner(settings)
    assert isinstance(runner, QueueRunner) and runner.scratch is None
    runner.close()
    assert (tmp_path / "ulti-queue.db").is_file()  # kept: jobs of a file store outlive the process


def test_redis_is_the_queue_when_the_servers_share_one_and_pool_means_no_queue() -> None:
    settings = Settings(db_url="postgresql+asyncpg://u@h/db", redis_url="redis://127.0.0.1:6379/0")
    assert queue_url(settings) == "redis://127.0.0.1:6379/0"
    settings.long_work_queue = "pool"
    assert queue_url(settings) is None and queue_runner(settings) is None


def test_a_queue_without_a_store_folder_lives_in_a_folder_deleted_on_close() -> None:
    runner = queue_runner(Settings.for_tests("sqlite+aiosqlite:///:memory:"))
    assert isinstance(runner, QueueRunner) and runner.scratch is not None
    assert (runner.scratch / "ulti-queue.db").is_file()
    runner.close()
    assert not runner.scratch.exists()
