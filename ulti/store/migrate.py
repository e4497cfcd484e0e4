"""Run the Alembic migrations of ``ulti/store/migrations`` against an async engine."""

from __future__ import annotations

import asyncio
import fcntl
from pathlib import Path
from typing import IO

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration, with ``connection`` handed to env.py."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to ``revision`` (safe when several processes start at once)."""
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        # SQLite has no advisory locks: a lock file beside the database serialises the migrations.
        lock = await asyncio.to_thread(_lock_file, database + ".migrate.lock")
        try:
            await _upgrade(engine, revision)
        finally:
            lock.close()
    else:
        await _upgrade(engine, revision)


def _lock_file(path: str) -> IO[str]:
    handle = open(path, "a")  # noqa: SIM115 - held until the migration is done
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


async def _upgrade(engine: AsyncEngine, revision: str) -> None:
    def run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), revision)

    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Several server processes may start together: one migrates, the others wait, then find head.
            await conn.execute(text("SELECT pg_advisory_xact_lock(7405817)"))
        await conn.run_sync(run)
