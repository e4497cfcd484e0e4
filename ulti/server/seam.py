"""The seam between a table's actor and whatever hosts it (the hub, or a test).

The actor owns one table's rules and its store; everything beyond the table (who watches it and
what each may see, other processes, the lobby, presence, where bots think, metrics) is asked of a
``TableHost``. The hub is the host in the server; a unit test can host an actor with a small
recording host and a real store, without sockets or a subprocess.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ulti.server.actor import TableActor
    from ulti.server.events import Event

#: an event as each watching seat (None: spectators) may see it, with its number
Filtered = tuple[int, dict[int | None, dict[str, Any]]]


class TableHost(Protocol):
    """What a ``TableActor`` reports to and asks of its host."""

    @property
    def clustered(self) -> bool:
        """Whether several processes share the tables (a refusal is then checked against the log again)."""
        ...

    def filter_event(self, actor: TableActor, seq: int, event: Event) -> Filtered:
        """Event ``seq``, just applied, as each seat watching the table may see it."""
        ...

    async def events_committed(
        self, actor: TableActor, outgoing: list[Filtered], stored: list[tuple[int, Event]]
    ) -> None:
        """A command's events are stored and applied: send them to the watchers (and other processes)."""
        ...

    def lobby_changed(self, table_id: str) -> None:
        """The table's lobby summary changed."""
        ...

    def action_stored(self, by: str) -> None:
        """An action event was stored (``by`` a player or a bot): for the metrics."""
        ...

    async def presence_changed(self, actor: TableActor, seat: int, connected: bool) -> None:
        """A seat's player came (``connected``) or went."""
        ...

    def presence_soon(self, actor: TableActor, seat: int, connected: bool) -> None:
        """``presence_changed`` from synchronous code."""
        ...

    def waiting_changed(self, actor: TableActor) -> None:
        """Whom a table without a time limit waits for, or who agreed to let a bot play, changed."""
        ...

    async def lost_table(self, table_id: str) -> None:
        """Another process stored an event this actor meant to store: the table is no longer ours."""
        ...

    def bot_executor(self, level: str) -> Executor:
        """Where a bot of ``level`` thinks (threads, or processes for the compiled search)."""
        ...
