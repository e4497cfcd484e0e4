"""The shapes of what the duplicate events' routes answer, typed (docs/protocol/duplicate.md): the
cross-table as a viewer may see it, a seat taken, a deal's par.

The values are built by ``duplicate_routes.py``; here are only the types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from ulti.server.tableshapes import PublicSeat


class DealLine(TypedDict):
    """One table's result on one deal: the declarer (None: given up or no bid), the bid, the scores."""

    table: int
    table_id: str
    declarer: int | None
    declarer_name: str | None
    bid: str | None
    trump: str | None
    given_up: bool
    scores: list[int]


class ScoredLine(DealLine):
    """A table's result on a deal shown, with its matchpoints against the other tables', seat by seat."""

    matchpoints: list[int]


class DealEntry(TypedDict):
    """A deal of the event: whether the viewer sees it, how many tables finished it, and (seen) the
    dealer and the tables' results."""

    index: int
    visible: bool
    finished: int
    dealer: NotRequired[int | None]
    results: NotRequired[list[ScoredLine]]


class EventInfo(TypedDict):
    """The event's settings and status."""

    id: str
    host: str
    host_name: str
    deals: int
    tables: int
    level: str
    move_seconds: int
    status: str


class EventSeat(TypedDict):
    """A seat at one of the event's tables: the table's number (from 1), its id, the seat."""

    table: int
    table_id: str
    seat: int | None


class EventTable(TypedDict):
    """One of the event's tables as everybody may see it."""

    table: int
    table_id: str
    status: str
    deals_played: int
    seats: list[PublicSeat]


class CrossTable(TypedDict):
    """``GET /api/events/{id}``: the event as the viewer may see it (no peeking)."""

    event: EventInfo
    you: EventSeat | None
    visible_deals: int
    tables: list[EventTable]
    deals: list[DealEntry]
    standings: list[Mapping[str, object]]  # ``ulti.duplicates`` standings lines
    record: str | None


class EventMade(TypedDict):
    """``POST /api/events``: the event's id and its tables' ids."""

    event_id: str
    tables: list[str]


class ParAnswer(TypedDict):
    """``GET /api/tables/{id}/deals/{k}/par``: pending, or done with the par's scores and record."""

    status: Literal["pending", "done"]
    scores: NotRequired[list[int]]
    record: NotRequired[Mapping[str, object]]  # ulti-deal/1
