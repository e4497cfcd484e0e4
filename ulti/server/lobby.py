"""The hub's lobby: the list of open tables pushed as changes, and the lobby chat.

A match nobody is left at but bots (every person gone, a bot playing each seat) is no table to join
or watch live: the list leaves it out, and a push names it in ``removed``. Tables not yet started
stay listed: people may still sit down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Literal, TypedDict

from ulti.server import tableviews
from ulti.server.cluster import Cluster
from ulti.server.hubcore import (
    LOBBY_CHAT_HISTORY,
    LOBBY_STATUSES,
    Connection,
    Spawn,
    TableRegistry,
)
from ulti.server.visibility import listed
from ulti.store.ports import TableIndex


def has_people(summary: dict[str, Any]) -> bool:
    """Whether the table is one for people: still open to sit down at, or a person still plays there
    (not left, not a bot account)."""
    if summary.get("status") == "open":
        return True
    return any(s.get("kind") == "player" and not s.get("away") and not s.get("bot") for s in summary["seats"])


class LobbyUpdate(TypedDict):
    """The ``lobby_update`` push (docs/protocol/messages.md): the changed tables' summaries, and the ids
    of those no longer listed."""

    type: Literal["lobby_update"]
    tables: Sequence[Mapping[str, object]]
    removed: list[str]


class Lobby:
    """The hub's lobby: the list of open tables pushed as changes, and the lobby chat."""

    def __init__(
        self, tables: TableRegistry, index: TableIndex, cluster: Cluster | None, spawn: Spawn,
        deliver_pairs: Callable[[dict[str, str]], None],
    ) -> None:
        """The lobby of ``tables`` (in a cluster, summaries are read from ``index``, shared by every process).

        ``deliver_pairs``: tells this process's players who was paired in another (``Matchmaker.deliver``).
        """
        self.tables = tables
        self.index = index
        self.cluster = cluster
        self._spawn = spawn
        self._deliver_pairs = deliver_pairs
        self.chat: deque[dict[str, Any]] = deque(maxlen=LOBBY_CHAT_HISTORY)
        self._changes: set[str] = set()  # tables whose lobby entry changed since the last push
        self._order = asyncio.Lock()  # pushes leave in the order their summaries were read

    async def open_tables(self) -> list[dict[str, Any]]:
        """The lobby list: tables still open or being played, newest first."""
        if self.cluster is not None:
            rows = await self.index.table_summaries(LOBBY_STATUSES)
        else:
            states = [a.state for a in self.tables.actors.values() if a.state.status in LOBBY_STATUSES]
            rows = [tableviews.summary_row(s) for s in reversed(states)]
        return listed([r for r in rows if has_people(r)])

    async def lobby_update(self, changed: Collection[str]) -> LobbyUpdate:
        """The lobby push for the tables ``changed``: their summaries if listed, else their ids in ``removed``.

        Only what changed travels (a summary is about 300 bytes; the whole list of 300 tables is 88 KB).
        """
        if self.cluster is not None:
            rows = await self.index.table_summaries_of(changed, LOBBY_STATUSES)
        else:
            # newest first, as in the full list (the actors are in the order the tables were loaded)
            states = [a.state for a in self.tables.actors.values() if a.table_id in changed]
            rows = [tableviews.summary_row(s) for s in reversed(states) if s.status in LOBBY_STATUSES]
        rows = [r for r in rows if has_people(r)]
        removed = sorted(set(changed) - {s["table_id"] for s in rows})
        return {"type": "lobby_update", "tables": listed(rows), "removed": removed}

    def lobby_changed(self, table_id: str) -> None:
        """Note that ``table_id``'s lobby entry changed; watchers here (and in other processes) get it soon."""
        first = not self._changes
        self._changes.add(table_id)
        if first:  # the changes of one event-loop turn go out in one push
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon(lambda: self._spawn(self._send_lobby(publish=True)))

    async def _send_lobby(self, publish: bool, changed: Collection[str] | None = None) -> None:
        """Push the changed entries to this process's lobby watchers (and name them to the other processes)."""
        if changed is None:
            changed, self._changes = self._changes, set()
        if not changed:
            return
        if publish and self.cluster is not None:
            await self.cluster.publish_lobby({"kind": "changed", "tables": sorted(changed)})
        # In a cluster the summaries are read from the store: without the lock an older read could be
        # sent after a newer one and leave watchers with a stale entry.
        async with self._order:
            watchers = list(self.tables.connections.lobby_watchers())
            if not watchers:
                return
            message = await self.lobby_update(changed)
            for conn in watchers:
                conn.send(message)

    async def on_cluster_message(self, data: dict[str, Any]) -> None:
        """A lobby message another process published: changed entries, a chat line or new pairs."""
        if data.get("kind") == "changed" and isinstance(data.get("tables"), list):
            await self._send_lobby(publish=False, changed=[str(t) for t in data["tables"]])
        elif data.get("kind") == "changed":
            # a process of an older version names no tables: its watchers here get the whole list
            message = {"type": "lobby", "tables": await self.open_tables()}
            for conn in list(self.tables.connections.lobby_watchers()):
                conn.send(message)
        elif data.get("kind") == "chat":
            self._deliver_lobby_line(data["line"])
        elif data.get("kind") == "paired" and isinstance(data.get("players"), dict):
            self._deliver_pairs({str(k): str(v) for k, v in data["players"].items()})

    async def lobby_message(self, conn: Connection, text: str) -> None:
        """A lobby chat line from ``conn`` (to every process's lobby watchers); ``text`` was checked at
        the edge (``inputs.clean_text``)."""
        line = {"name": conn.name, "text": text}
        self._deliver_lobby_line(line)
        if self.cluster is not None:
            await self.cluster.publish_lobby({"kind": "chat", "line": line})

    def _deliver_lobby_line(self, line: dict[str, Any]) -> None:
        self.chat.append(line)
        for other in list(self.tables.connections.lobby_watchers()):
            other.send({"type": "lobby_chat", "line": line})
