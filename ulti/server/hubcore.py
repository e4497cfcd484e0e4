"""What the hub's collaborators share: the registry of live tables and connections, and their types.

The hub (``hub.py``) holds collaborators, one concern each, each built with only what it uses:
``ownership.Ownership`` (which tables this process acts for, and idle tables), ``broadcast.Broadcaster``
(what each watcher is sent, and the replicas of tables owned elsewhere), ``lobby.Lobby`` and
``connections.Attendance`` (who is at which table). The state they share is a ``TableRegistry``
(this process's actors, replicas and connections), passed to each that reads it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ulti.server.actor import TableActor
from ulti.server.events import parse_event
from ulti.server.onereader import OneReaderQueue
from ulti.server.seam import TableSource
from ulti.server.tablestate import (
    CommandError,
    TableState,
)
from ulti.store.ports import TableLog

__all__ = ["Connection", "ConnectionSet", "Outbox", "RecentIds", "Replica", "Spawn", "TableRegistry", "TableSource",
           "load_state"]

LOBBY_CHAT_HISTORY = 50
RECENT_CLIENT_IDS = 512
OUTBOX_LIMIT = 1000
LOBBY_STATUSES = ("open", "playing")  # the tables the lobby lists; the others may be unloaded when idle
SWEEP_EVERY_MAX = 30.0  # seconds between idle sweeps at most (less when the configured times are short)
ROUTING_ATTEMPTS = 60  # about the time a dead owner's lease takes to expire, and then some


#: a connection's outgoing messages (None: close it), read by one task (its writer), in order
Outbox = OneReaderQueue[Mapping[str, object] | None]


@dataclass(eq=False)
class Connection:
    """One client's WebSocket: who it is, what it watches, and its outgoing queue."""

    player_id: str
    name: str
    #: the messages to send, each a JSON object of one of the protocol's shapes (None: close the socket)
    outbox: Outbox = field(default_factory=Outbox)
    table_id: str | None = None
    #: the ``patch`` event form (docs/protocol/events.md §9.1): events carry what changed since ``base``
    patches: bool = False
    #: the table view this connection was last sent (its sync or the latest event's), for its next patch
    base: dict[str, Any] | None = None
    #: the client's address (the quotas of long work it asks for, such as hints, count per address too)
    address: str = "?"
    #: the seek this connection made, while it stands (``seeks.py``): closing the connection cancels it
    seek_token: str | None = None
    #: a bot API table stream (``botapi.py``): not a person, so not counted online in the lobby
    program: bool = False
    #: sends a message on the socket from plain code, or returns False (nothing sent) when it cannot now
    #: (``socket_routes.py``): used only while the outbox's writer waits with nothing queued, so the
    #: messages still go out in the order they were sent
    write_now: Callable[[Mapping[str, object]], bool] | None = None

    def send(self, message: Mapping[str, object]) -> None:
        """Send ``message`` to this client: framed at once when nothing is queued before it (and written with
        the socket's other frames at the end of the loop's turn, ``wsprotocol``), else queued for the
        connection's writer; a client that stops reading is cut off, not waited for."""
        if self.write_now is not None and self.outbox.idle() and self.write_now(message):
            return
        if self.outbox.qsize() < OUTBOX_LIMIT:
            self.outbox.put_nowait(message)
        else:
            self.outbox.put_nowait(None)  # the writer closes the socket


class RecentIds:
    """The last ``size`` command ids one player used, to answer a retried command once only.

    A set beside the queue: every command asks, and a scan of the queue cost hundreds of comparisons
    per command at its full size (issue 18's profile).
    """

    def __init__(self, size: int) -> None:
        """Remember up to ``size`` ids, forgetting the oldest first."""
        self._order: deque[str] = deque()
        self._ids: set[str] = set()
        self._size = size

    def seen(self, client_id: str) -> bool:
        """Whether ``client_id`` is one of the remembered ids (and remember it if not)."""
        if client_id in self._ids:
            return True
        if len(self._order) == self._size:
            self._ids.discard(self._order.popleft())
        self._order.append(client_id)
        self._ids.add(client_id)
        return False


class ConnectionSet:
    """The hub's open connections, indexed by the table each watches, and those watching the lobby.

    Every event of a table goes to that table's watchers: found through the index, a broadcast costs
    the table's connections, not the process's (iterating every socket per event was a hot spot of
    the load run, issue 18). A connection's table changes only through ``set_table``.
    """

    def __init__(self) -> None:
        """No connections."""
        self._all: set[Connection] = set()
        self._by_table: dict[str, set[Connection]] = {}
        self._lobby: set[Connection] = set()  # those that watch the lobby

    def add(self, conn: Connection) -> None:
        """``conn`` is open (indexed under the table it watches, if any)."""
        self._all.add(conn)
        if conn.table_id is not None:
            self._by_table.setdefault(conn.table_id, set()).add(conn)

    def discard(self, conn: Connection) -> None:
        """``conn`` is closed (a no-op for one not here)."""
        if conn in self._all:
            self._all.discard(conn)
            self._lobby.discard(conn)
            self._unindex(conn)

    def watch_lobby(self, conn: Connection) -> None:
        """``conn`` watches the lobby from now on (its table, if any, too)."""
        if conn in self._all:
            self._lobby.add(conn)

    def lobby_watchers(self) -> Collection[Connection]:
        """The open connections watching the lobby (do not change it while iterating): the lobby's news and
        the matchmaker's counts go to them, found without a look at every socket (the matchmaker asks every
        second)."""
        return self._lobby

    def set_table(self, conn: Connection, table_id: str | None) -> None:
        """``conn`` now watches ``table_id`` (None: no table)."""
        if conn in self._all:
            self._unindex(conn)
        conn.table_id = table_id
        if conn in self._all and table_id is not None:
            self._by_table.setdefault(table_id, set()).add(conn)

    def watching(self, table_id: str) -> Collection[Connection]:
        """The open connections watching ``table_id`` (do not change it while iterating)."""
        return self._by_table.get(table_id, _NO_CONNECTIONS)

    def _unindex(self, conn: Connection) -> None:
        if conn.table_id is None:
            return
        watchers = self._by_table.get(conn.table_id)
        if watchers is not None:
            watchers.discard(conn)
            if not watchers:
                del self._by_table[conn.table_id]

    def __iter__(self) -> Iterator[Connection]:
        """Every open connection."""
        return iter(self._all)

    def __len__(self) -> int:
        """How many connections are open."""
        return len(self._all)

    def __contains__(self, conn: object) -> bool:
        """Whether ``conn`` is open here."""
        return conn in self._all


_NO_CONNECTIONS: frozenset[Connection] = frozenset()


@dataclass
class Replica:
    """A read-only copy of a table owned by another process, kept current by its published events."""

    table_id: str
    state: TableState
    deadline: float | None = None
    present: set[int] = field(default_factory=set)
    #: the owner's trick pause, as its latest published event said (0 before any)
    trick_pause: float = 0.0
    #: whom the table waits for, as the owner last published
    waiting: list[dict[str, Any]] = field(default_factory=list)


#: starts a background task that lives as long as the hub (``Hub._spawn``)
Spawn = Callable[[Awaitable[None]], None]


class TableRegistry:
    """This process's live tables and connections: the state the hub's collaborators share.

    ``actors``: the tables this process acts for; ``replicas``: read-only copies of tables other
    processes own, which its clients watch; ``connections``: the open sockets and table streams.
    """

    def __init__(self) -> None:
        """No tables, no connections."""
        self.actors: dict[str, TableActor] = {}
        self.replicas: dict[str, Replica] = {}
        self.connections = ConnectionSet()

    def loaded(self, table_id: str) -> TableSource | None:
        """The table's actor, else its replica, else None (nothing read from the store)."""
        return self.actors.get(table_id) or self.replicas.get(table_id)

    def plays_now(self, conn: Connection) -> bool:
        """Whether ``conn`` watches a match being played at which its player is seated."""
        if conn.table_id is None:
            return False
        source = self.loaded(conn.table_id)
        if source is None or source.state.status != "playing":
            return False
        return source.state.seat_of(conn.player_id) is not None


async def load_state(log: TableLog, table_id: str) -> TableState:
    """The table's state, from its stored events (``not_found`` for a table never created)."""
    state = TableState(table_id)
    for raw in await log.events(table_id):
        state.apply(parse_event(raw))  # checked as it comes in: apply never meets a malformed event
    if state.seq == 0:
        raise CommandError("not_found", f"no table {table_id!r}")
    return state
