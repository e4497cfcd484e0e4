"""What every part of the hub shares: its state, the connection and replica types, and two helpers.

The hub (``hub.py``) is assembled from parts, one concern each: ``ownership.py`` (which tables this
process acts for, and idle tables), ``broadcast.py`` (what each watcher is sent), ``lobby.py`` and
``connections.py``; ``hub.py`` itself holds the tables' operations and reading. Each part is a
mixin over ``HubCore``, which declares the state they share and the few methods one part asks of
another.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from ulti.server.actor import TableActor
from ulti.server.cluster import Cluster
from ulti.server.commands import Command
from ulti.server.config import Settings
from ulti.server.events import parse_event
from ulti.server.longwork import CountedExecutor
from ulti.server.metrics import Metrics
from ulti.server.tablestate import (
    CommandError,
    TableState,
)
from ulti.server.throttle import Throttle
from ulti.store import ServerStore

LOBBY_CHAT_HISTORY = 50
RECENT_CLIENT_IDS = 512
OUTBOX_LIMIT = 1000
LOBBY_STATUSES = ("open", "playing")  # the tables the lobby lists; the others may be unloaded when idle
SWEEP_EVERY_MAX = 30.0  # seconds between idle sweeps at most (less when the configured times are short)
ROUTING_ATTEMPTS = 60  # about the time a dead owner's lease takes to expire, and then some



@dataclass(eq=False)
class Connection:
    """One client's WebSocket: who it is, what it watches, and its outgoing queue."""

    player_id: str
    name: str
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    table_id: str | None = None
    watches_lobby: bool = False
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

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for this client; a client that stops reading is cut off, not waited for."""
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
    """The hub's open connections, indexed by the table each watches.

    Every event of a table goes to that table's watchers: found through the index, a broadcast costs
    the table's connections, not the process's (iterating every socket per event was a hot spot of
    the load run, issue 18). A connection's table changes only through ``set_table``.
    """

    def __init__(self) -> None:
        """No connections."""
        self._all: set[Connection] = set()
        self._by_table: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        """``conn`` is open (indexed under the table it watches, if any)."""
        self._all.add(conn)
        if conn.table_id is not None:
            self._by_table.setdefault(conn.table_id, set()).add(conn)

    def discard(self, conn: Connection) -> None:
        """``conn`` is closed (a no-op for one not here)."""
        if conn in self._all:
            self._all.discard(conn)
            self._unindex(conn)

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


class TableSource(Protocol):
    """Something views can be made from: an actor (owner) or a replica."""

    @property
    def table_id(self) -> str:
        """The table's id."""
        ...

    state: TableState
    deadline: float | None
    present: set[int]

    @property
    def trick_pause(self) -> float:
        """Seconds a finished trick stays on screen before a bot leads (the page holds it as long)."""
        ...

    @property
    def waiting(self) -> list[dict[str, Any]]:
        """The absent players a table without a time limit waits for (``TableActor.waiting``)."""
        ...


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


class HubCore:
    """The state the hub's parts share (set by ``Hub.__init__``) and the methods they call across parts."""

    store: ServerStore
    settings: Settings
    cluster: Cluster | None
    metrics: Metrics
    executor: ThreadPoolExecutor
    actors: dict[str, TableActor]
    replicas: dict[str, Replica]
    connections: ConnectionSet
    throttle: Throttle
    lobby_chat: deque[dict[str, Any]]
    client_ids: dict[str, RecentIds]
    _lobby_changes: set[str]
    _lobby_order: asyncio.Lock
    _tasks: set[asyncio.Task[None]]
    _adopting: dict[str, asyncio.Lock]
    _processes: CountedExecutor | None

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


    async def _load_state(self, table_id: str) -> TableState:
        state = TableState(table_id)
        for raw in await self.store.events(table_id):
            state.apply(parse_event(raw))  # checked as it comes in: apply never meets a malformed event
        if state.seq == 0:
            raise CommandError("not_found", f"no table {table_id!r}")
        return state


    # Defined by other parts (hub.py, ownership.py, broadcast.py); declared here so that each part
    # type-checks on its own. The real methods come first in the hub's method order.

    async def _adopt(self, table_id: str) -> TableActor:
        raise NotImplementedError

    async def _replica(self, table_id: str) -> Replica:
        raise NotImplementedError

    async def _drop(self, table_id: str) -> None:
        raise NotImplementedError

    async def _is_present(self, table_id: str, player_id: str | None) -> bool:
        raise NotImplementedError

    async def execute(self, table_id: str, command: Command) -> Any:
        """Run ``command`` on ``table_id`` at its owner (``hub.py``)."""
        raise NotImplementedError

    def presence_soon(self, source: TableSource, seat: int, connected: bool) -> None:
        """Tell the watchers a seat's player came or went (``broadcast.py``)."""
        raise NotImplementedError
