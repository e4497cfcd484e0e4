"""The store's part for deal analyses: a queue of jobs that survives restarts, and their results.

A mixin of ``EventStore``. A job is a row of ``analyses``: inserted once per (table, deal) as
``queued`` with the deal's record, claimed as ``running`` by one worker (a conditional update, so two
processes never both take it), advanced with its progress (which also proves its worker alive), and
finished as ``done`` with the analysis JSON, which is then served from here for good. A ``running``
row whose worker stopped reporting (a killed process) is queued again by ``pending_analyses``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.models import analyses


@dataclass(frozen=True)
class AnalysisRow:
    """One analysis job as stored: its status, progress (decisions priced of ``total``) and result text."""

    table_id: str
    deal_index: int
    status: str
    record: str
    worlds: int
    done: int
    total: int
    result: str | None

    def result_json(self) -> dict[str, Any] | None:
        """The analysis, once done."""
        return None if self.result is None else json.loads(self.result)


_COLUMNS = (
    analyses.c.table_id,
    analyses.c.deal_index,
    analyses.c.status,
    analyses.c.record,
    analyses.c.worlds,
    analyses.c.done,
    analyses.c.total,
    analyses.c.result,
)


class AnalysisStore:
    """Analysis jobs and results (mixed into ``EventStore``, which provides ``engine``)."""

    engine: AsyncEngine

    async def queue_analysis(self, table_id: str, deal_index: int, record: str, worlds: int, total: int) -> bool:
        """Queue the analysis of a deal unless it is already there (queued, running or done); True if queued now."""
        now = now_ms()
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(analyses).values(
                        table_id=table_id, deal_index=deal_index, status="queued", record=record, worlds=worlds,
                        done=0, total=total, result=None, created_at=now, updated_at=now,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def analysis(self, table_id: str, deal_index: int) -> AnalysisRow | None:
        """The job or result of a deal's analysis, if one was ever queued."""
        query = select(*_COLUMNS).where(analyses.c.table_id == table_id, analyses.c.deal_index == deal_index)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else AnalysisRow(*row)

    async def analyses_of(self, table_id: str) -> list[AnalysisRow]:
        """Every analysis job of a table's deals (queued, running, done or failed), in deal order."""
        query = select(*_COLUMNS).where(analyses.c.table_id == table_id).order_by(analyses.c.deal_index)
        async with self.engine.connect() as conn:
            return [AnalysisRow(*r) for r in await conn.execute(query)]

    async def analysis_statuses(self, table_id: str) -> dict[int, str]:
        """The status of every analysis job of a table's deals, by deal index (no records or results read)."""
        query = select(analyses.c.deal_index, analyses.c.status).where(analyses.c.table_id == table_id)
        async with self.engine.connect() as conn:
            return {int(index): str(status) for index, status in await conn.execute(query)}

    async def analysis_results(self, table_id: str, indices: list[int]) -> list[dict[str, Any]]:
        """The stored analyses of the table's deals ``indices`` that are done, in deal order."""
        query = (
            select(analyses.c.result)
            .where(analyses.c.table_id == table_id, analyses.c.deal_index.in_(indices), analyses.c.status == "done")
            .order_by(analyses.c.deal_index)
        )
        async with self.engine.connect() as conn:
            return [json.loads(result) for (result,) in await conn.execute(query) if result is not None]

    async def pending_analyses(self, stale_seconds: float) -> list[AnalysisRow]:
        """Jobs to run, oldest first: queued ones, and running ones silent for ``stale_seconds`` (worker gone)."""
        stale = now_ms() - int(stale_seconds * 1000)
        query = (
            select(*_COLUMNS)
            .where(
                or_(
                    analyses.c.status == "queued",
                    and_(analyses.c.status == "running", analyses.c.updated_at < stale),
                )
            )
            .order_by(analyses.c.created_at)
        )
        async with self.engine.connect() as conn:
            return [AnalysisRow(*r) for r in await conn.execute(query)]

    async def claim_analysis(self, table_id: str, deal_index: int, stale_seconds: float) -> bool:
        """Take a pending job for this worker; False if another worker holds it or it is done."""
        stale = now_ms() - int(stale_seconds * 1000)
        query = (
            update(analyses)
            .where(
                analyses.c.table_id == table_id,
                analyses.c.deal_index == deal_index,
                or_(
                    analyses.c.status == "queued",
                    and_(analyses.c.status == "running", analyses.c.updated_at < stale),
                ),
            )
            .values(status="running", done=0, updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            result = await conn.execute(query)
        return bool(result.rowcount)

    async def analysis_progress(self, table_id: str, deal_index: int, done: int) -> None:
        """Record how many decisions a running job has priced (and that its worker is alive)."""
        query = (
            update(analyses)
            .where(analyses.c.table_id == table_id, analyses.c.deal_index == deal_index)
            .values(done=done, updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            await conn.execute(query)

    async def requeue_failed_analysis(self, table_id: str, deal_index: int, reason_prefix: str) -> bool:
        """Queue a failed job again if its stored reason starts with ``reason_prefix`` (a refusal that may
        not hold later); True if this call queued it (False: not failed so, or another call did first)."""
        query = (
            update(analyses)
            .where(
                analyses.c.table_id == table_id,
                analyses.c.deal_index == deal_index,
                analyses.c.status == "failed",
                analyses.c.result.startswith(reason_prefix, autoescape=True),
            )
            .values(status="queued", done=0, result=None, updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            result = await conn.execute(query)
        return bool(result.rowcount)

    async def finish_analysis(self, table_id: str, deal_index: int, status: str, result: str) -> None:
        """Store a job's outcome: ``done`` with the analysis JSON, or ``failed`` with a message."""
        query = (
            update(analyses)
            .where(analyses.c.table_id == table_id, analyses.c.deal_index == deal_index)
            .values(status=status, result=result, updated_at=now_ms())
        )
        async with self.engine.begin() as conn:
            await conn.execute(query)
