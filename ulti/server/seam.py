"""The shapes that cross the seam between a table's actor and whatever hosts it (the hub, or a test).

The actor owns one table's rules and its store; everything beyond the table (who watches it and
what each may see, other processes, the lobby, presence, where bots think, metrics) is asked of a
``TableHost`` (declared beside the actor, ``actor.py``). The hub is the host in the server; a unit
test can host an actor with a small recording host and a real store, without sockets or a subprocess.
Here: an event filtered per seat, and ``TableSource``, what views are made from (an actor or a replica).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ulti.server.tablestate import TableState

#: an event as each watching seat (None: spectators) may see it, with its number
Filtered = tuple[int, dict[int | None, Mapping[str, object]]]


class TableSource(Protocol):
    """Something views can be made from: an actor (owner) or a replica (``hubcore.Replica``)."""

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
