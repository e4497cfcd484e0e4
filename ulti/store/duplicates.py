"""The store's part for duplicates and the solo-duplicate par replays (a mixin of ``EventStore``).

A duplicate's row (table ``duplicate_events``, a name kept from before "event" meant only a table's
stored event) holds what cannot be read from its tables: its seed, its settings and its tables in
order. Seats, results and standings are always derived from the tables' own events, so a restart or
a takeover by another process needs nothing more than this row. ``par_jobs`` is a queue like
``analyses``: a job is inserted once, claimed by one worker (a conditional update), and marked done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.models import duplicate_event_tables, duplicate_events, par_jobs, table_players

#: the id of a sport ulti tournament round's duplicate starts with this (``t-{tournament}-{round}``): the round
#: belongs to its tournament's page, so the lobby's list of duplicates leaves it out (a hosted one's id is hex)
TOURNAMENT_ROUND_PREFIX = "t-"


@dataclass(frozen=True)
class DuplicateRow:
    """A duplicate as stored, with its tables' ids in order (table 1 first)."""

    duplicate_id: str
    host: str
    host_name: str
    deals: int
    tables: int
    level: str
    move_seconds: int
    seed: int
    started: bool
    created_at: int
    table_ids: tuple[str, ...]


@dataclass(frozen=True)
class ParJob:
    """A queued par replay: the table, the deal and what the replay needs (JSON text)."""

    table_id: str
    deal_index: int
    spec: str


class DuplicateStore:
    """Duplicates and par jobs over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def add_duplicate(self, row: DuplicateRow) -> None:
        """Store a new duplicate and its tables in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(duplicate_events).values(
                    id=row.duplicate_id, host=row.host, host_name=row.host_name, deals=row.deals, tables=row.tables,
                    level=row.level, move_seconds=row.move_seconds, seed=row.seed, started=row.started,
                    created_at=row.created_at,
                )
            )
            await conn.execute(
                insert(duplicate_event_tables),
                [{"event_id": row.duplicate_id, "table_no": i, "table_id": t} for i, t in enumerate(row.table_ids, 1)],
            )

    async def duplicate(self, duplicate_id: str) -> DuplicateRow | None:
        """The duplicate ``duplicate_id`` with its tables, or None."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(duplicate_events).where(duplicate_events.c.id == duplicate_id))).first()
            if found is None:
                return None
            ids = await conn.execute(
                select(duplicate_event_tables.c.table_id)
                .where(duplicate_event_tables.c.event_id == duplicate_id)
                .order_by(duplicate_event_tables.c.table_no)
            )
            table_ids = tuple(r[0] for r in ids)
        return DuplicateRow(
            found.id, found.host, found.host_name, found.deals, found.tables, found.level, found.move_seconds,
            int(found.seed), bool(found.started), found.created_at, table_ids,
        )

    async def mark_duplicate_started(self, duplicate_id: str) -> None:
        """Note that the host started the duplicate (its tables' logs say so too; this is for listing)."""
        async with self.engine.begin() as conn:
            started = update(duplicate_events).where(duplicate_events.c.id == duplicate_id).values(started=True)
            await conn.execute(started)

    async def duplicates_of_player(self, player_id: str) -> list[str]:
        """The ids of the duplicates at whose tables ``player_id`` sat (from the tables' seat list)."""
        query = (
            select(duplicate_event_tables.c.event_id)
            .join(table_players, table_players.c.table_id == duplicate_event_tables.c.table_id)
            .where(table_players.c.player_id == player_id)
        )
        async with self.engine.connect() as conn:
            return sorted({r[0] for r in await conn.execute(query)})

    async def recent_duplicates(self, limit: int = 20) -> list[DuplicateRow]:
        """The newest duplicates a host created, newest first (the lobby lists them; a tournament's rounds are
        on its own page)."""
        query = (
            select(duplicate_events.c.id)
            .where(~duplicate_events.c.id.startswith(TOURNAMENT_ROUND_PREFIX, autoescape=True))
            .order_by(duplicate_events.c.created_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            ids = [r[0] for r in await conn.execute(query)]
        rows = [await self.duplicate(i) for i in ids]
        return [r for r in rows if r is not None]

    # ---------------------------------------------------------------- par jobs

    async def queue_par(self, table_id: str, deal_index: int, spec: str) -> bool:
        """Queue a par replay unless it is already there; True if queued now."""
        now = now_ms()
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(par_jobs).values(
                        table_id=table_id, deal_index=deal_index, status="queued", spec=spec, created_at=now,
                        updated_at=now,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def par_job_status(self, table_id: str, deal_index: int) -> str | None:
        """A par job's status (queued, running, done), or None if it was never queued."""
        query = select(par_jobs.c.status).where(par_jobs.c.table_id == table_id, par_jobs.c.deal_index == deal_index)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else str(row[0])

    def _par_pending(self, stale_seconds: float) -> ColumnElement[bool]:
        stale = now_ms() - int(stale_seconds * 1000)
        return or_(par_jobs.c.status == "queued", and_(par_jobs.c.status == "running", par_jobs.c.updated_at < stale))

    async def pending_par_jobs(self, stale_seconds: float) -> list[ParJob]:
        """Jobs to run, oldest first: queued ones, and running ones silent for ``stale_seconds`` (worker gone)."""
        query = (
            select(par_jobs.c.table_id, par_jobs.c.deal_index, par_jobs.c.spec)
            .where(self._par_pending(stale_seconds))
            .order_by(par_jobs.c.created_at)
        )
        async with self.engine.connect() as conn:
            return [ParJob(r[0], r[1], r[2]) for r in await conn.execute(query)]

    async def claim_par_job(self, table_id: str, deal_index: int, stale_seconds: float) -> bool:
        """Take a pending job for this worker; False if another worker holds it or it is done."""
        query = (
            update(par_jobs)
            .where(par_jobs.c.table_id == table_id, par_jobs.c.deal_index == deal_index)
            .where(self._par_pending(stale_seconds))
            .values(status="running", updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            result = await conn.execute(query)
        return bool(result.rowcount)

    async def touch_par_job(self, table_id: str, deal_index: int) -> None:
        """A running job's worker is alive (called after each decision)."""
        query = (
            update(par_jobs)
            .where(par_jobs.c.table_id == table_id, par_jobs.c.deal_index == deal_index)
            .values(updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            await conn.execute(query)

    async def finish_par_job(self, table_id: str, deal_index: int) -> None:
        """The par replay is in the table's log: the job is done."""
        query = (
            update(par_jobs)
            .where(par_jobs.c.table_id == table_id, par_jobs.c.deal_index == deal_index)
            .values(status="done", updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            await conn.execute(query)

    async def par_jobs_of(self, table_ids: Sequence[str]) -> dict[tuple[str, int], str]:
        """The status of every par job of ``table_ids``."""
        if not table_ids:
            return {}
        query = select(par_jobs.c.table_id, par_jobs.c.deal_index, par_jobs.c.status).where(
            par_jobs.c.table_id.in_(list(table_ids))
        )
        async with self.engine.connect() as conn:
            return {(r[0], r[1]): r[2] for r in await conn.execute(query)}
