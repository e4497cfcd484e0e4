"""The store's part for tournaments (a mixin of ``EventStore``): each tournament's row and its log.

A tournament is its director's log (``ulti.tournaments.log``): every registration, check-in,
withdrawal, seating, result, correction and desk action is one event, numbered from 0 (the
``created`` event). An event is appended at the number the writer expects next; a number already
taken raises ``TournamentConflict``, so two processes (or two requests) that both read the log and
both append never both succeed: the loser reads the log again. The row holds the host, the name and
a status copied from the log for listing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.models import tables, tournament_log, tournaments

#: the statuses a tournament's row goes through (the log is what decides; the row copies it)
STATUSES = ("registering", "running", "finished", "published")


class TournamentConflict(Exception):
    """The log's event at this number is already stored: another writer appended first."""


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as listed: its id, host, name, status and creation time (ms)."""

    tournament_id: str
    host: str
    host_name: str
    name: str
    status: str
    created_at: int


@dataclass(frozen=True)
class LoggedEvent:
    """One event of a tournament's log with its number and the time it was stored (ms)."""

    seq: int
    body: dict[str, Any]
    at: int


class TournamentStore:
    """Tournaments over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def add_tournament(self, row: TournamentRow, created: Mapping[str, Any]) -> None:
        """Store a new tournament: its row and event 0 of its log (``created``), in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(tournaments).values(
                id=row.tournament_id, host=row.host, host_name=row.host_name, name=row.name, status=row.status,
                created_at=row.created_at, updated_at=row.created_at,
            ))
            await conn.execute(insert(tournament_log).values(
                tournament_id=row.tournament_id, seq=0, body=orjson.dumps(created).decode(), created_at=row.created_at,
            ))

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        """The row of ``tournament_id``, or None."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))).first()
        if found is None:
            return None
        return TournamentRow(found.id, found.host, found.host_name, found.name, found.status, found.created_at)

    async def tournaments(self, statuses: Sequence[str] | None = None, limit: int = 50) -> list[TournamentRow]:
        """Tournaments, newest first (only those with one of ``statuses`` when given)."""
        query = select(tournaments).order_by(tournaments.c.created_at.desc()).limit(limit)
        if statuses is not None:
            query = query.where(tournaments.c.status.in_(list(statuses)))
        async with self.engine.connect() as conn:
            rows = await conn.execute(query)
            return [TournamentRow(r.id, r.host, r.host_name, r.name, r.status, r.created_at) for r in rows]

    async def append_tournament_event(self, tournament_id: str, seq: int, body: Mapping[str, Any],
                                      at: int | None = None) -> int:
        """Store event ``seq`` of the tournament's log with the time ``at`` (ms; now when None: a caller that
        decided by the clock passes the time it decided at); ``TournamentConflict`` if that number is taken.
        Returns the time stored (ms)."""
        now = now_ms() if at is None else at
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(tournament_log).values(
                    tournament_id=tournament_id, seq=seq, body=orjson.dumps(body).decode(), created_at=now,
                ))
                await conn.execute(
                    update(tournaments).where(tournaments.c.id == tournament_id).values(updated_at=now)
                )
        except IntegrityError:
            raise TournamentConflict(f"event {seq} of tournament {tournament_id} is already stored") from None
        return now

    async def tournament_log(self, tournament_id: str, after: int = -1) -> list[LoggedEvent]:
        """The tournament's events numbered above ``after`` (all of them by default), in order."""
        query = (
            select(tournament_log.c.seq, tournament_log.c.body, tournament_log.c.created_at)
            .where(tournament_log.c.tournament_id == tournament_id, tournament_log.c.seq > after)
            .order_by(tournament_log.c.seq)
        )
        async with self.engine.connect() as conn:
            return [LoggedEvent(r[0], orjson.loads(r[1]), r[2]) for r in await conn.execute(query)]

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        """Copy the status the log reached onto the row (for listing)."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        async with self.engine.begin() as conn:
            await conn.execute(
                update(tournaments).where(tournaments.c.id == tournament_id).values(status=status, updated_at=now_ms())
            )

    async def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The stored status of each of ``table_ids`` that exists (open, playing, finished, expired)."""
        if not table_ids:
            return {}
        query = select(tables.c.id, tables.c.status).where(tables.c.id.in_(list(table_ids)))
        async with self.engine.connect() as conn:
            return {r[0]: r[1] for r in await conn.execute(query)}
