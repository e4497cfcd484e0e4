"""Inserts that let the first writer win: the same row written by several processes at once is kept once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection


async def insert_ignore(conn: AsyncConnection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows``, skipping any that a unique key already holds (whoever inserted it first wins)."""
    if not rows:
        return
    make = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    await conn.execute(make(table).on_conflict_do_nothing(), [dict(row) for row in rows])
