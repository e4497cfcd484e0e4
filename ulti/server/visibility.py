"""Who may see what of a table: the one visibility policy every route that shows a table asks.

Whatever leaves the server about a table (its live view over HTTP, the WebSocket or a bot-API stream,
a deal's record, replay frames, analysis, what-if, par, the match record, the event's cross-table,
the lobby's totals) passes through the functions here. Hidden cards of a deal in progress are a
separate, per-seat matter (``tableviews.view`` and ``public_event`` filter them); this module decides
whether a viewer may see a table or a deal at all.

The rule (docs/protocol/duplicate.md §23, "No peeking"):

- an ordinary table: its live view is open to anyone (spectators see no hidden card), and every
  finished deal's record with it;
- a table of a duplicate event that is still running: its own players (and the bots playing for
  them) see it as any table; **nobody else** (a player of another table, a guest, a spectator, a
  bot-API reader) watches it live, and deal ``k`` of it is shown only once **every** table of the
  event has finished deal ``k``: the broadcast is delayed as at a bridge club. Meanwhile watchers
  see the event's cross-table for the deals every table has finished, and those deals' records,
  replays and analyses;
- once every table of the event has finished, everything is open.

Routes declare what they show (``shows_tables`` or ``shows_no_table``); ``tests/server/
test_visibility_routes.py`` enumerates the application's routes and fails for one that declares
nothing. A route declared with ``shows_tables`` that answers without having asked the policy is
refused (``visibility_unchecked``, fail closed) rather than answered.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ulti.server.errors import CommandError
from ulti.server.logs import log

if TYPE_CHECKING:
    from ulti.engine.fourmatch import FourMatch
    from ulti.engine.match import Match
    from ulti.store.ports import DuplicateRow, DuplicateRows


class SeenTable(Protocol):
    """What the policy reads of a table's state (``TableState``; a protocol, so that the table's state
    may ask this policy without an import circle)."""

    @property
    def duplicate_id(self) -> str | None:
        """The duplicate event the table belongs to (None: an ordinary table)."""
        ...

    @property
    def status(self) -> str:
        """open, playing, finished or expired."""
        ...

    @property
    def match(self) -> Match | FourMatch | None:
        """The match under way or played (None before the start)."""
        ...

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` sits at, if any."""
        ...


#: the state a reader's tables are read as (``TableState`` in the server)
State = TypeVar("State", bound=SeenTable, covariant=True)


class Sourced(Protocol[State]):
    """A table as a reader holds it (an actor or a replica): its state."""

    @property
    def state(self) -> State:
        """The table's current state."""
        ...


class TableReader(Protocol[State]):
    """What the policy reads through the hub: the duplicates' rows and the tables' freshest states."""

    @property
    def store(self) -> DuplicateRows:
        """The store's duplicates."""
        ...

    async def source(self, table_id: str) -> Sourced[State]:
        """The freshest state of ``table_id`` this process has."""
        ...


S = TypeVar("S", bound=SeenTable)

#: the attribute a route's endpoint carries to say what it shows (read by the route-enumeration test)
MARK = "__visibility__"
#: the mark of a route that shows a table's content and asks this policy for it
POLICY = "asks the visibility policy"

HIDDEN = (
    "an event's deal is shown once every table of the event has finished it (no peeking); "
    "the event page shows the deals finished everywhere"
)
NO_LIVE = (
    "while an event runs, each table is watched by its own players only; the event page shows each deal "
    "once every table has finished it"
)


class _Asked:
    """Whether the policy was asked during the current request (one per request, see ``shows_tables``)."""

    __slots__ = ("asked",)

    def __init__(self) -> None:
        self.asked = False


_request_asked: ContextVar[_Asked | None] = ContextVar("visibility_asked", default=None)


def _note_asked() -> None:
    holder = _request_asked.get()
    if holder is not None:
        holder.asked = True


# ---------------------------------------------------------------- the rule


@dataclass(frozen=True)
class Sight:
    """What one viewer may see of one table.

    ``live``: may watch the deal in progress (view, WebSocket, bot-API stream).
    ``deals``: how many of the table's deals, from the first, may be shown (None: all of them).
    ``duplicate_table``: the viewer's own table's number in the table's duplicate (from 1), None if not seated there.
    """

    live: bool
    deals: int | None
    duplicate_table: int | None = None
    seat: int | None = None


OPEN = Sight(live=True, deals=None)


async def duplicate_row(hub: TableReader[SeenTable], duplicate_id: str) -> DuplicateRow:
    """The stored duplicate (cached: its row never changes but for ``started``, which is not read from it)."""
    cache: dict[str, DuplicateRow] = hub.__dict__.setdefault("_duplicate_rows", {})
    row = cache.get(duplicate_id)
    if row is None:
        row = await hub.store.duplicate(duplicate_id)
        if row is None:
            raise CommandError("not_found", f"no event {duplicate_id!r}")
        cache[duplicate_id] = row
    return row


async def duplicate_states(hub: TableReader[S], row: DuplicateRow) -> list[S]:
    """The freshest state of each table of the duplicate, table 1 first."""
    return [(await hub.source(table_id)).state for table_id in row.table_ids]


def duplicate_status(states: Sequence[SeenTable]) -> str:
    """open (not started), playing, finished (every table), or expired (never started)."""
    statuses = {s.status for s in states}
    if statuses == {"finished"}:
        return "finished"
    if statuses <= {"open"}:
        return "open"
    if statuses <= {"open", "expired"}:
        return "expired"
    return "playing"


def deals_finished(state: SeenTable) -> int:
    """How many deals ``state``'s table has finished (its deals end in order)."""
    return sum(1 for d in state.match.deals if d.is_over) if state.match else 0


def duplicate_sight(states: Sequence[SeenTable], viewer: str | None) -> Sight:
    """The rule for a duplicate whose tables are ``states`` (table 1 first), for ``viewer`` (None: anonymous).

    ``deals`` is what the viewer may see of the event's *other* tables (its own is open to it).
    """
    _note_asked()
    mine = next((n for n, s in enumerate(states, 1) if viewer is not None and s.seat_of(viewer) is not None), None)
    seat = None if mine is None or viewer is None else states[mine - 1].seat_of(viewer)
    if duplicate_status(states) == "finished":
        return Sight(live=True, deals=None, duplicate_table=mine, seat=seat)
    # the broadcast delay: a deal is shown once every table has finished it
    return Sight(live=False, deals=min(deals_finished(s) for s in states), duplicate_table=mine, seat=seat)


async def sight_of(hub: TableReader[SeenTable], state: SeenTable, viewer: str | None) -> Sight:
    """What ``viewer`` (a player id, None for a visitor without a session) may see of ``state``'s table."""
    _note_asked()
    if state.duplicate_id is None or (viewer is not None and state.seat_of(viewer) is not None):
        return OPEN
    row = await duplicate_row(hub, state.duplicate_id)
    return duplicate_sight(await duplicate_states(hub, row), viewer)


async def require_live(hub: TableReader[SeenTable], state: SeenTable, viewer: str | None) -> None:
    """Refuse (``event_hidden``) watching the table's deal in progress to a viewer who may not."""
    if not (await sight_of(hub, state, viewer)).live:
        raise CommandError("event_hidden", NO_LIVE)


async def require_deal(hub: TableReader[SeenTable], state: SeenTable, viewer: str | None, index: int) -> None:
    """Refuse (``event_hidden``) deal ``index`` of the table to a viewer who may not see it yet."""
    sight = await sight_of(hub, state, viewer)
    if sight.deals is not None and index >= sight.deals:
        raise CommandError("event_hidden", HIDDEN)


async def visible_deals(hub: TableReader[SeenTable], state: SeenTable, viewer: str | None) -> int | None:
    """How many of the table's deals ``viewer`` may see (None: all of them)."""
    return (await sight_of(hub, state, viewer)).deals


def ordinary_results() -> Sight:
    """What anyone may see of the results of ordinary tables (a tournament's rounds that are no duplicate
    event: their tables are open to watch, so their results are too): everything."""
    _note_asked()
    return OPEN


def live_to_onlookers(state: SeenTable) -> bool:
    """Whether the table's live events may go to a watcher who does not sit at it.

    Synchronous, for the broadcast: an event's table sends nothing live to onlookers until it has
    finished (and the event's other tables are closed to them at ``require_live`` until the event is
    over, so an onlooker who was watching before the start sees nothing of the play).
    """
    _note_asked()
    return state.duplicate_id is None or state.status == "finished"


def totals_shown(state: SeenTable) -> bool:
    """Whether the lobby may show the table's running totals: never an event table's (they tell its results)."""
    _note_asked()
    return state.duplicate_id is None


# ---------------------------------------------------------------- routes declare what they show

Endpoint = TypeVar("Endpoint", bound=Callable[..., Awaitable[Any]])


def shows_tables(endpoint: Endpoint) -> Endpoint:
    """Mark a route that shows a table's content: it must ask this policy before answering.

    An answer given without asking is refused (``visibility_unchecked``): fail closed. A WebSocket
    route is marked without the wrapper (it asks per message, in ``Hub.watch`` and the broadcast).
    """

    @functools.wraps(endpoint)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        holder = _Asked()
        token = _request_asked.set(holder)
        try:
            answer = await endpoint(*args, **kwargs)
        finally:
            _request_asked.reset(token)
        if not holder.asked:
            log("route answered without asking the visibility policy", logging.ERROR, route=endpoint.__qualname__)
            raise CommandError(
                "visibility_unchecked", f"{endpoint.__qualname__} answered without asking the visibility policy"
            )
        return answer

    setattr(guarded, MARK, POLICY)
    return guarded  # type: ignore[return-value]


def shows_no_table(reason: str) -> Callable[[Endpoint], Endpoint]:
    """Mark a route that shows no table's content, saying why (the route-enumeration test reads it)."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, MARK, reason)
        return endpoint

    return mark


def socket_route(endpoint: Endpoint) -> Endpoint:
    """Mark the WebSocket route: every table it opens asks ``require_live`` (``Hub.watch``) and every
    event it relays asks ``live_to_onlookers`` (the broadcast)."""
    setattr(endpoint, MARK, POLICY)
    return endpoint


def listed(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tables' lobby summaries as anyone may see them: no totals or winner of an event's table.

    The routes that list tables (the lobby, past matches) pass their rows through here, so that they ask
    the policy where they answer. ``tableviews.summary`` applies the same rule as it writes a summary
    (``totals_shown``), so for rows it wrote this changes nothing: it is the check at the door.
    """
    _note_asked()
    return [
        {**s, "totals": None, "winner": None} if s.get("event") is not None else s
        for s in summaries
    ]
