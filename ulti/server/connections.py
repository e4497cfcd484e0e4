"""Who is at which table: command ids already used, closed sockets and seats left."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from ulti.server.cluster import Cluster
from ulti.server.hubcore import (
    RECENT_CLIENT_IDS,
    Connection,
    RecentIds,
    TableRegistry,
)
from ulti.server.tablestate import (
    CommandError,
)

#: tells a table's owner that a player's last connection to it closed (the hub's ``left`` operation)
LeftTable = Callable[[str, str], Awaitable[None]]
#: cancels the seek a closing connection made (``Matchmaker.closed``)
SeekClosed = Callable[[Connection], Awaitable[None]]


class Attendance:
    """Who is at which table: command ids already used, closed sockets and seats left."""

    def __init__(
        self, tables: TableRegistry, cluster: Cluster | None, seek_closed: SeekClosed, player_left: LeftTable
    ) -> None:
        """The connections of ``tables`` (in a cluster, presence is counted across processes on ``cluster``).

        ``player_left(table_id, player_id)``: the player's last connection to the table closed.
        """
        self.tables = tables
        self.cluster = cluster
        self._seek_closed = seek_closed
        self._player_left = player_left
        self.client_ids: dict[str, RecentIds] = {}

    def seen_client_id(self, player_id: str, client_id: str) -> bool:
        """Whether ``client_id`` was already used by ``player_id`` (and remember it)."""
        recent = self.client_ids.get(player_id)
        if recent is None:
            recent = self.client_ids[player_id] = RecentIds(RECENT_CLIENT_IDS)
        return recent.seen(client_id)

    async def is_present(self, table_id: str, player_id: str | None) -> bool:
        """Whether ``player_id`` has a connection to ``table_id`` in any process."""
        if player_id is None:
            return False
        if self.cluster is not None:
            return await self.cluster.present(table_id, player_id)
        return any(c.player_id == player_id for c in self.tables.connections.watching(table_id))

    async def disconnected(self, conn: Connection) -> None:
        """``conn`` closed; if it was the last of a seated player, start the absence countdown."""
        self.tables.connections.discard(conn)
        await self._seek_closed(conn)  # a seek lasts as long as the connection that made it
        await self.left_table(conn)

    async def left_table(self, conn: Connection) -> None:
        """``conn`` no longer watches its table (closed or switched tables)."""
        table_id = conn.table_id
        if table_id is None:
            return
        tables = self.tables
        tables.connections.set_table(conn, None)
        actor = tables.actors.get(table_id)
        if actor is not None:
            actor.touch()  # an idle table is unloaded some time after its last watcher left
        source = tables.loaded(table_id)
        if source is None:
            return
        if self.cluster is not None and not tables.connections.watching(table_id):
            replica = tables.replicas.pop(table_id, None)
            if replica is not None:
                await self.cluster.unwatch_table(table_id)
        seat = source.state.seat_of(conn.player_id)
        if seat is None:
            return
        if self.cluster is not None:
            await self.cluster.presence(table_id, conn.player_id, -1)
        if not await self.is_present(table_id, conn.player_id):
            with contextlib.suppress(CommandError):
                await self._player_left(table_id, conn.player_id)
