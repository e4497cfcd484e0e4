"""The hub's ownership of tables: taking over, giving up, adopting orphans; expiring and unloading idle tables."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from ulti.server.actor import TableActor
from ulti.server.cluster import Cluster
from ulti.server.config import Settings
from ulti.server.hubcore import (
    LOBBY_STATUSES,
    SWEEP_EVERY_MAX,
    Replica,
    TableRegistry,
)
from ulti.server.logs import log
from ulti.server.tablestate import (
    CommandError,
)
from ulti.store import SeqConflict
from ulti.store.ports import TableIndex


class Ownership:
    """The hub's ownership of tables: taking over, giving up, adopting orphans; expiring and unloading idle tables."""

    def __init__(
        self, tables: TableRegistry, index: TableIndex, settings: Settings, cluster: Cluster | None,
        adopt: Callable[[str], Awaitable[TableActor]], replica: Callable[[str], Awaitable[Replica]],
    ) -> None:
        """Owner of the actors in ``tables`` (``index`` lists the unfinished tables an orphan scan looks at).

        ``adopt(table_id)``: become the table's actor (its lease held); ``replica(table_id)``: follow a
        table given up as a replica, for its watchers here.
        """
        self.tables = tables
        self.index = index
        self.settings = settings
        self.cluster = cluster
        self._adopt = adopt
        self._replica = replica
        self._adopting: dict[str, asyncio.Lock] = {}

    # ---------------------------------------------------------------- cluster: ownership

    async def take_over(self, table_id: str) -> bool:
        assert self.cluster is not None
        # One adoption per table at a time: the orphan scan and a command may both try at once.
        lock = self._adopting.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self.tables.actors and table_id in self.cluster.owned:
                return True
            if not await self.cluster.acquire(table_id):
                return False
            try:
                await self._adopt(table_id)
            except Exception:
                await self.cluster.release(table_id)
                raise
            return True

    async def drop(self, table_id: str) -> None:
        """Stop acting for a table this process no longer owns; keep watching it as a replica."""
        actor = self.tables.actors.pop(table_id, None)
        if actor is not None:
            actor.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.release(table_id)
        if self.tables.connections.watching(table_id):
            await self._replica(table_id)

    async def on_lease_lost(self, table_id: str) -> None:
        """The cluster says this process's lease of ``table_id`` ran out: give the table up."""
        await self.drop(table_id)

    async def lost_table(self, table_id: str) -> None:
        """An actor found that another process stored an event it meant to store: give the table up."""
        log("table taken over elsewhere", table=table_id)
        await self.drop(table_id)

    async def adopt_orphans_forever(self) -> None:
        """Take over the unfinished tables whose owner is gone, so that every match finishes."""
        assert self.cluster is not None
        while True:
            try:
                ids = [t for t in await self.index.table_ids(["open", "playing"]) if t not in self.tables.actors]
                if ids:
                    owners = await self.cluster.redis.mget([f"ulti:lease:{t}" for t in ids])
                    for table_id, owner in zip(ids, owners, strict=True):
                        if owner is None:
                            await self.take_over(table_id)
            except Exception:
                logging.getLogger("ulti").exception("orphan scan failed")
            await asyncio.sleep(self.cluster.lease_ms / 2000)

    # ---------------------------------------------------------------- idle tables

    async def sweep_forever(self) -> None:
        """Expire unstarted tables and unload idle ones, now and then, for as long as the server runs."""
        settings = self.settings
        # a quarter of the shorter time: a table goes at most 25% later than its due time
        every = min(SWEEP_EVERY_MAX, settings.unload_idle_seconds / 4, settings.expire_unstarted_seconds / 4)
        while True:
            await asyncio.sleep(max(0.05, every))
            try:
                await self.sweep()
            except Exception:
                logging.getLogger("ulti").exception("idle sweep failed")

    async def sweep(self) -> None:
        """Expire the unstarted tables left alone too long, then unload the idle tables out of the lobby.

        A finished table (about 290 KB) would otherwise stay in memory for as long as the process runs.
        A table is unloaded only when nothing here depends on it: nobody watches it, no operation
        runs on it, its lock is free and it has no pending bot move, timer or absence countdown.
        It is loaded again from its log (``hubcore.load_state``) whenever someone asks for it.
        """
        for table_id, actor in list(self.tables.actors.items()):
            if self.tables.actors.get(table_id) is not actor or actor.state.status != "open":
                continue
            if self.cluster is not None and table_id not in self.cluster.owned:
                continue  # being given up: whoever owns the table now expires it
            try:
                await actor.expire_if_due(self.settings.expire_unstarted_seconds)
            except SeqConflict:
                await self.drop(table_id)  # another process took the table over
            except CommandError as exc:  # pragma: no cover - expiring refuses nothing
                log("expiry refused", logging.ERROR, table=table_id, error=exc.message)
        watched = {c.table_id for c in self.tables.connections}
        now = time.monotonic()
        for table_id, actor in list(self.tables.actors.items()):
            idle = now - actor.idle_since >= self.settings.unload_idle_seconds
            if idle and actor.state.status not in LOBBY_STATUSES and table_id not in watched and not actor.is_busy():
                await self.unload(table_id, actor)

    async def unload(self, table_id: str, actor: TableActor) -> None:
        """Forget a table here (its log keeps everything; it loads again when asked for); in a cluster, give up
        its lease too. Called for idle tables, and by account erasure once a table's log is rewritten."""
        if self.tables.actors.get(table_id) is not actor:
            return
        del self.tables.actors[table_id]
        actor.close()
        lock = self._adopting.get(table_id)
        if lock is not None and not lock.locked():
            del self._adopting[table_id]
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.release(table_id)
        log("idle table unloaded", table=table_id, status=actor.state.status)
