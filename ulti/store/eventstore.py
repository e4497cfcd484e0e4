"""Async access to the store: append and read table events, players, table summaries."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import event, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import PoolResetState

from ulti.store.accounts import AccountStore
from ulti.store.analyses import AnalysisStore
from ulti.store.apitokens import ApiTokenStore
from ulti.store.clock import now_ms
from ulti.store.duplicates import DuplicateStore
from ulti.store.models import events, kv, players, table_players, tables
from ulti.store.players import PlayerStore
from ulti.store.ports import SeqConflict
from ulti.store.results import ResultStore
from ulti.store.tournaments import TournamentStore

_INSERT_EVENTS = "INSERT INTO events (table_id, seq, body, created_at) VALUES (?, ?, ?, ?)"




#: bytes of rows written here between two checkpoints of the write-ahead log on the driver's thread: well
#: under SQLite's own automatic checkpoint (1,000 pages of 4 KiB), so that a commit made here (on the event
#: loop's thread) rarely copies the log into the database and waits for the disk itself
_CHECKPOINT_BYTES = 1 << 20


#: turns of the event loop a group commit lets pass before it takes the pending events: the commands whose
#: messages the loop reads meanwhile join it. A commit's cost grows more slowly than its rows (each writes the
#: event table's last page once, the index's page of each table, and the log's frames), so under load fewer,
#: larger commits cost less per event; on an idle server the turns are empty and take microseconds.
GROUP_TURNS = 2

#: an event as stored: table id, event number, body (JSON text), when it was stored (ms since the epoch)
EventRow = tuple[str, int, str, int]


def _row_values(row: EventRow) -> dict[str, Any]:
    """``row`` as the event table's column values (for SQLAlchemy's insert)."""
    return dict(zip(("table_id", "seq", "body", "created_at"), row, strict=True))


def _insert_and_commit(connection: sqlite3.Connection, params: list[EventRow]) -> None:
    """Insert event rows and commit, or roll back and raise."""
    try:
        connection.executemany(_INSERT_EVENTS, params)
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


_UPDATE_TABLE = "UPDATE tables SET status = ?, summary = ?, updated_at = ? WHERE id = ?"
_INSERT_TABLE = "INSERT INTO tables (id, status, summary, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"


def _upsert_table(connection: sqlite3.Connection, row: tuple[str, str, str, int]) -> None:
    """Update a table's status and summary, or insert it, and commit."""
    table_id, status, summary, now = row
    try:
        if connection.execute(_UPDATE_TABLE, (status, summary, now, table_id)).rowcount == 0:
            connection.execute(_INSERT_TABLE, (table_id, status, summary, now, now))
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


def _checkpoint(connection: sqlite3.Connection, _params: None) -> None:
    """Copy the write-ahead log into the database (run on the driver's thread: it waits for the disk)."""
    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _rollback_if_open(dbapi_connection: Any, _record: Any, reset_state: PoolResetState) -> None:
    # A connection going back to the pool is rolled back only if a transaction is open: SQLite
    # begins one only for a write (reads leave none), so the pool's unconditional ROLLBACK was a
    # wasted trip to the driver's thread after nearly every use (issue 18's profile).
    if not reset_state.asyncio_safe or reset_state.terminate_only:
        return  # the pool closes this connection instead
    if dbapi_connection.driver_connection.in_transaction:
        dbapi_connection.rollback()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL + NORMAL: 2.5x faster commits than the default journal and still crash-safe (docs/stack.md §3).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    _connection_pragmas(cursor)
    cursor.close()


def _connection_pragmas(cursor: Any) -> None:
    """The settings each connection to the file makes for itself (the journal mode is the file's own)."""
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")


def make_engine(url: str) -> AsyncEngine:
    """An async SQLAlchemy engine for ``url``; SQLite files get WAL mode."""
    if url.startswith("sqlite"):
        # One connection: SQLite has one writer at a time, and a second connection waiting for the
        # lock sleeps in its busy handler (up to 100 ms a step). Queueing for the pool is async instead.
        # check_same_thread off: the store's hottest writes use the connection on the event loop's thread while
        # it holds the connection's one checkout (``EventStore._write_here``); aiosqlite's thread is idle then.
        engine = create_async_engine(
            url, pool_size=1, max_overflow=0, pool_timeout=60, pool_reset_on_return=None,
            connect_args={"check_same_thread": False},
        )
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "reset", _rollback_if_open)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10)


class EventStore(
    AccountStore, AnalysisStore, ApiTokenStore, DuplicateStore, PlayerStore, ResultStore, TournamentStore
):
    """The event log of every table, and the little else the server keeps."""

    def __init__(self, engine: AsyncEngine) -> None:
        """A store over an engine whose schema is migrated (see ``ulti.store.migrate``)."""
        self.engine = engine
        self._pending: list[tuple[EventRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: told (seconds, events) after each group commit: the server's metrics (the store may not import them)
        self.on_commit: Callable[[float, int], None] | None = None
        self._unchecked_bytes = 0  # written by ``_write_here`` since its last checkpoint
        #: the hot writes' own connection to a SQLite file, opened at the first (``_hot_connection``)
        self._hot: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, url: str) -> EventStore:
        """Open (and migrate to the latest schema) the database at ``url``."""
        from ulti.store.migrate import upgrade

        engine = make_engine(url)
        await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        """Release the connections."""
        if self._hot is not None:
            self._hot.close()
            self._hot = None
        await self.engine.dispose()

    # ---------------------------------------------------------------- events

    async def append(self, table_id: str, seq: int, body: Mapping[str, Any]) -> None:
        """Store event ``seq`` of ``table_id``; raise ``SeqConflict`` if that number is taken.

        Returns once the event is committed. Events appended at the same moment (by many tables), or
        within the next ``GROUP_TURNS`` turns of the event loop, are committed together in one transaction
        (group commit): a commit costs milliseconds, and one per event would cap the whole server at a few
        hundred actions per second.
        """
        # orjson refuses text UTF-8 cannot hold (a lone surrogate): such an event is never stored,
        # so no stored event can make its table impossible to load or send
        row = (table_id, seq, orjson.dumps(body).decode(), now_ms())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        for _ in range(GROUP_TURNS):
            await asyncio.sleep(0)
        while self._pending:
            batch, self._pending = self._pending, []
            started = time.perf_counter()
            try:
                await self._insert_events([row for row, _ in batch])
            except IntegrityError:
                # Someone else stored one of these numbers: settle each event on its own.
                for row, done in batch:
                    await self._write_one(row, done)
                continue
            except Exception as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            elapsed = time.perf_counter() - started
            for _, done in batch:
                if not done.done():
                    done.set_result(None)
            if self.on_commit is not None:
                # after the results: whatever the observer does, no append is left waiting on it
                self.on_commit(elapsed, len(batch))

    async def _insert_events(self, rows: list[EventRow]) -> None:
        """Insert ``rows`` into the event log in one transaction (``IntegrityError`` if a number is taken)."""
        if self.engine.dialect.name != "sqlite":
            async with self.engine.begin() as conn:
                await conn.execute(insert(events), [_row_values(row) for row in rows])
            return
        # SQLite: straight to the driver (the INSERTs and the COMMIT, or the ROLLBACK, together): this is the
        # server's hottest write (every event of every table).
        try:
            await self._write_here(_insert_and_commit, rows, sum(len(row[2]) for row in rows))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(_INSERT_EVENTS, None, exc) from exc

    async def _write_here(self, write: Callable[[sqlite3.Connection, Any], None], params: Any, size: int) -> None:
        """Run ``write(connection, params)`` on this (the event loop's) thread; ``size``: about the bytes it writes.

        A trip to the driver's thread and back costs more than such a write: two hand-overs of the
        interpreter lock, the thread's wake and the loop's (the kernel's futex and scheduler work under the
        load run). Here the write costs only its own work. With the write-ahead log and ``synchronous=NORMAL``
        a commit does not wait for the disk; the log's checkpoint does, so every ``_CHECKPOINT_BYTES`` one runs
        on the driver's thread (SQLite's automatic checkpoint stays on as the bound for what is written
        elsewhere).

        The write goes through a connection of its own (``_hot_connection``), which waits for nothing: while
        the pool's connection holds SQLite's write lock (a transaction of another part of the store, between
        its statements), SQLite says busy at once and the write is made with the pool's connection instead,
        once the pool hands it over. (Checking the pool's connection out for every write was a tenth of the
        server's CPU per action: SQLAlchemy's async checkout and return around a write of a few rows.)
        """
        hot = self._hot_connection()
        if hot is not None:
            try:
                write(hot, params)
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
            else:
                await self._counted(size)
                return
        async with self.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            write(driver._conn, params)
        await self._counted(size)

    def _hot_connection(self) -> sqlite3.Connection | None:
        """The hot writes' connection to the store's SQLite file, opened at the first call; None for another
        database or one in memory (a second connection to it would open another database)."""
        if self._hot is None:
            url = self.engine.url
            if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
                return None
            # timeout 0: a busy database is answered at once (the pool's connection writes instead), never
            # waited for on the event loop's thread, whose coroutines the lock's holder may need to finish
            # not tied to this thread: a store may be opened on one thread and written from another's loop
            hot = sqlite3.connect(url.database, timeout=0, check_same_thread=False)
            # the file is in WAL mode since the engine's first connection (the migration)
            _connection_pragmas(hot)
            self._hot = hot
        return self._hot

    async def _counted(self, size: int) -> None:
        """Count ``size`` bytes written by ``_write_here``; every ``_CHECKPOINT_BYTES`` of them, checkpoint the
        write-ahead log on the driver's thread."""
        self._unchecked_bytes += size
        if self._unchecked_bytes < _CHECKPOINT_BYTES:
            return
        self._unchecked_bytes = 0
        async with self.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            # aiosqlite's own way to run a call on its thread (private, hence the pinned version)
            await driver._execute(_checkpoint, driver._conn, None)

    async def _write_one(self, row: EventRow, done: asyncio.Future[None]) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(events).values(**_row_values(row)))
        except IntegrityError:
            done.set_exception(SeqConflict(f"event {row[1]} of table {row[0]} already stored"))
        except Exception as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)

    async def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The events of ``table_id`` with seq > ``after``, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(events.c.body).where(events.c.table_id == table_id, events.c.seq > after).order_by(events.c.seq)
            )
            return [json.loads(r[0]) for r in rows]

    # ---------------------------------------------------------------- tables

    async def save_table(self, table_id: str, status: str, summary: dict[str, Any]) -> None:
        """Create or update a table's lobby summary and status."""
        text = orjson.dumps(summary).decode()
        now = now_ms()
        if self.engine.dialect.name == "sqlite":
            # written at every deal's end of every table: straight to the driver, not five trips to its thread
            await self._write_here(_upsert_table, (table_id, status, text, now), len(text))
            return
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tables).where(tables.c.id == table_id).values(status=status, summary=text, updated_at=now)
            )
            if result.rowcount == 0:
                await conn.execute(
                    insert(tables).values(id=table_id, status=status, summary=text, created_at=now, updated_at=now)
                )

    async def table_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        """Ids of the stored tables (optionally only those with one of ``statuses``), oldest first."""
        query = select(tables.c.id).order_by(tables.c.created_at)
        if statuses is not None:
            query = query.where(tables.c.status.in_(list(statuses)))
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query)]

    async def table_summaries(self, statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The lobby summaries of the tables with one of ``statuses``, newest first."""
        query = (
            select(tables.c.summary).where(tables.c.status.in_(list(statuses))).order_by(tables.c.created_at.desc())
        )
        async with self.engine.connect() as conn:
            return [json.loads(r[0]) for r in await conn.execute(query)]

    async def table_summaries_of(self, table_ids: Collection[str], statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The lobby summaries of those of ``table_ids`` that have one of ``statuses``, newest first.

        A lobby push reads only the tables that changed, not the whole list.
        """
        if not table_ids:
            return []
        query = (
            select(tables.c.summary)
            .where(tables.c.id.in_(list(table_ids)), tables.c.status.in_(list(statuses)))
            .order_by(tables.c.created_at.desc())
        )
        async with self.engine.connect() as conn:
            return [json.loads(r[0]) for r in await conn.execute(query)]

    async def last_event_at(self, table_id: str) -> float | None:
        """When the latest event of ``table_id`` was stored (epoch seconds), None if it has none."""
        query = select(func.max(events.c.created_at)).where(events.c.table_id == table_id)
        async with self.engine.connect() as conn:
            value = (await conn.execute(query)).scalar()
        return None if value is None else value / 1000

    async def add_table_player(self, table_id: str, player_id: str, seat: int) -> None:
        """Remember that ``player_id`` sat at ``seat`` of ``table_id`` (for the past-matches list)."""
        async with self.engine.begin() as conn:
            existing = await conn.execute(
                select(table_players.c.seat).where(
                    table_players.c.table_id == table_id, table_players.c.player_id == player_id
                )
            )
            if existing.first() is None:
                await conn.execute(insert(table_players).values(table_id=table_id, player_id=player_id, seat=seat))

    async def tables_of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The tables ``player_id`` sat at, newest first, with their summaries."""
        query = (
            select(tables.c.id, tables.c.status, tables.c.summary, table_players.c.seat, tables.c.created_at)
            .join(table_players, table_players.c.table_id == tables.c.id)
            .where(table_players.c.player_id == player_id)
            .order_by(tables.c.created_at.desc())
        )
        async with self.engine.connect() as conn:
            rows = await conn.execute(query)
            return [
                {"table_id": r[0], "status": r[1], "summary": json.loads(r[2]), "seat": r[3], "created_at": r[4]}
                for r in rows
            ]

    # ---------------------------------------------------------------- players and settings

    async def add_player(self, player_id: str, name: str) -> None:
        """Register a guest player."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(players).values(id=player_id, name=name, created_at=now_ms()))

    async def player_name(self, player_id: str) -> str | None:
        """A player's name, or None if unknown."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(players.c.name).where(players.c.id == player_id))).first()
            return None if row is None else str(row[0])

    async def get_setting(self, key: str) -> str | None:
        """A stored setting (e.g. the session secret)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(kv.c.value).where(kv.c.key == key))).first()
            return None if row is None else str(row[0])

    async def set_setting_once(self, key: str, value: str) -> str:
        """Store ``value`` under ``key`` unless one is there; return the stored value."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(kv).values(key=key, value=value))
        except IntegrityError:
            pass
        stored = await self.get_setting(key)
        assert stored is not None
        return stored
