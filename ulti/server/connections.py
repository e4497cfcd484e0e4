"""The hub's connections: command ids already used, closed sockets and seats left."""

from __future__ import annotations

import contextlib

from ulti.server.commands import Left
from ulti.server.hubcore import (
    RECENT_CLIENT_IDS,
    Connection,
    HubCore,
    RecentIds,
)
from ulti.server.seeks import Matchmaker
from ulti.server.tablestate import (
    CommandError,
)


class Connections(HubCore):
    """The hub's connections: command ids already used, closed sockets and seats left."""

    seeks: Matchmaker

    def seen_client_id(self, player_id: str, client_id: str) -> bool:
        """Whether ``client_id`` was already used by ``player_id`` (and remember it)."""
        recent = self.client_ids.get(player_id)
        if recent is None:
            recent = self.client_ids[player_id] = RecentIds(RECENT_CLIENT_IDS)
        return recent.seen(client_id)

    async def disconnected(self, conn: Connection) -> None:
        """``conn`` closed; if it was the last of a seated player, start the absence countdown."""
        self.connections.discard(conn)
        await self.seeks.closed(conn)  # a seek lasts as long as the connection that made it
        await self.left_table(conn)

    async def left_table(self, conn: Connection) -> None:
        """``conn`` no longer watches its table (closed or switched tables)."""
        table_id = conn.table_id
        if table_id is None:
            return
        self.connections.set_table(conn, None)
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.touch()  # an idle table is unloaded some time after its last watcher left
        source = actor or self.replicas.get(table_id)
        if source is None:
            return
        if self.cluster is not None and not self.connections.watching(table_id):
            replica = self.replicas.pop(table_id, None)
            if replica is not None:
                await self.cluster.unwatch_table(table_id)
        seat = source.state.seat_of(conn.player_id)
        if seat is None:
            return
        if self.cluster is not None:
            await self.cluster.presence(table_id, conn.player_id, -1)
        if not await self._is_present(table_id, conn.player_id):
            with contextlib.suppress(CommandError):
                await self.execute(table_id, Left(conn.player_id))
