"""The shapes of a tournament's log events as the server writes them, typed, and of a player's place in a
round.

The director (``tournaments.py``) and the routes (``tournament_routes.py``) build these events; the log's
rules (``ulti.tournaments.log``) check every one before it is stored, and docs/record.md documents them.
Keys that older logs may lack are ``NotRequired``: a log is read back as it was stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict


class CreatedEvent(TypedDict):
    """Event 0: the settings (``ulti.tournaments.settings``' JSON) and the server's own choices."""

    type: Literal["created"]
    settings: Mapping[str, object]
    host: str
    host_name: str
    name: str
    level: NotRequired[str]  # the bots' level (``heuristic`` when missing)
    break_seconds: NotRequired[int]
    invited: NotRequired[list[str]]
    bot_wait_seconds: NotRequired[int]  # an arena's


class Registered(TypedDict):
    """A player registered: a person or bot account (``account``), or a built-in bot (no account)."""

    type: Literal["registered"]
    name: str
    account: str | None
    bot: bool
    rating: NotRequired[float | None]  # the account's ``mu`` when it registered (a draw by rating)
    team: NotRequired[str]
    letter: NotRequired[str]


class PlayerEvent(TypedDict):
    """A player checked in, or a bot now plays the player's seats."""

    type: Literal["checked_in", "replaced_by_bot"]
    player: int


class Withdrew(TypedDict):
    """A player left the tournament, and why."""

    type: Literal["withdrew"]
    player: int
    reason: str


class StatusEvent(TypedDict):
    """The host paused, resumed or published the tournament."""

    type: Literal["paused", "resumed", "published"]


class RoundSeated(TypedDict):
    """A round (an arena's wave): its tables' players by number (None: a bot), and its tables' ids, named
    before any table exists; a sport ulti round's duplicate event."""

    type: Literal["round_seated"]
    round: int
    tables: list[list[int | None]]
    table_ids: NotRequired[list[str]]
    event: NotRequired[str]


class ResultRecorded(TypedDict):
    """A table's match is over: each seat's points, the match, and each deal's scores where they count."""

    type: Literal["result_recorded"]
    round: int
    table: int
    points: list[int]
    match: NotRequired[str]
    deals: NotRequired[list[list[int]]]


class ResultCorrected(TypedDict):
    """The host corrected a table's result, with a reason."""

    type: Literal["result_corrected"]
    round: int
    table: int
    points: list[int]
    reason: str
    deals: NotRequired[list[list[int]]]


#: an event the server appends to a tournament's log
LogEvent = (
    CreatedEvent | Registered | PlayerEvent | Withdrew | StatusEvent | RoundSeated | ResultRecorded
    | ResultCorrected
)


class TableInRound(TypedDict):
    """Where a player sits in the current round: round, table number, table id, seat, and whether that
    table has its result."""

    round: int
    table: int
    table_id: str
    seat: int
    finished: bool
