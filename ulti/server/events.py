"""A table's stored events, one typed shape per kind (docs/protocol/events.md §8).

Events are JSON objects in the store and on Redis; here each kind is a ``TypedDict`` (so the code
that makes and applies them is checked by mypy), and ``parse_event`` checks an event read from
outside this process (the store, another process) against its kind once, as it comes in, so that
``TableState.apply`` never meets a malformed one.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, with_config

# pydantic reads TypedDicts from typing_extensions on Python < 3.12
from typing_extensions import TypedDict

# Events are checked as they are stored, not coerced: a string is not a seat number.
_STRICT = ConfigDict(strict=True, extra="forbid")


@with_config(_STRICT)
class SeatSpec(TypedDict):
    """A seat as the table was created: open, reserved by invite, or a bot."""

    kind: Literal["open", "invite", "bot"]
    level: NotRequired[str]
    invite: NotRequired[str]
    player: NotRequired[str]  # a bot's account id (absent in older events: derived from its name)


@with_config(_STRICT)
class Created(TypedDict):
    """The table was created (its host, length, move limit, seed and seats)."""

    type: Literal["created"]
    host: str
    deals: int
    move_seconds: int
    seed: int
    seats: list[SeatSpec]
    chosen_seed: NotRequired[bool]  # absent in events stored before seeds were secret
    practice: NotRequired[bool]
    host_name: NotRequired[str]  # the host's name as it was then (absent in older events)
    rated: NotRequired[bool]  # a rated table: accounts and bots only (absent in older events: casual)
    learner: NotRequired[bool]  # a casual table with the coach's hints and lessons (absent: no coach)
    event: NotRequired[str]  # the duplicate event the table belongs to (absent: an ordinary table)
    duplicate: NotRequired[bool]  # solo duplicate: par replays with the strong bot (absent: no)
    rematch_of: NotRequired[str]  # the finished table whose seats this one was made from (absent: none)
    cid: NotRequired[str]


@with_config(_STRICT)
class Sit(TypedDict):
    """A player took a seat."""

    type: Literal["sit"]
    seat: int
    player: str
    name: str
    bot: NotRequired[bool]  # a bot account, playing through the bot API (absent: a person)
    cid: NotRequired[str]


@with_config(_STRICT)
class Leave(TypedDict):
    """A player stood up before the match."""

    type: Literal["leave"]
    seat: int
    cid: NotRequired[str]


@with_config(_STRICT)
class BotSeated(TypedDict):
    """A bot took a seat."""

    type: Literal["bot"]
    seat: int
    level: str
    player: NotRequired[str]  # the bot's account id (absent in older events: derived from its name)
    cid: NotRequired[str]


@with_config(_STRICT)
class Start(TypedDict):
    """The match started with this first dealer."""

    type: Literal["start"]
    first_dealer: int
    cid: NotRequired[str]


@with_config(_STRICT)
class Dealt(TypedDict):
    """A deal was dealt: every hand (record card codes), never sent to anyone as such."""

    type: Literal["deal"]
    index: int
    hands: list[list[str]]
    cid: NotRequired[str]


@with_config(_STRICT)
class BidNote(TypedDict):
    """Why a built-in bot bid, kept at learner tables only (docs/protocol/analysis.md §22.5, ``coach.bid_note``).

    ``simulation`` (a strong bot): the bid was won in ``made`` of the ``worlds`` deals it simulated;
    ``strength`` (a heuristic bot): its rule-of-thumb ``strength`` with ``suit`` as trumps, and the
    strength from which it bids that game (``needed``, absent for the games it has no rule for).
    """

    basis: Literal["simulation", "strength"]
    made: NotRequired[int]
    worlds: NotRequired[int]
    suit: NotRequired[str]
    strength: NotRequired[float]
    needed: NotRequired[float]


@with_config(_STRICT)
class Acted(TypedDict):
    """A game action in record form (with its seat), by a player or a bot."""

    type: Literal["action"]
    action: dict[str, Any]
    by: NotRequired[Literal["player", "bot"]]
    note: NotRequired[BidNote]  # a built-in bot's reason for a bid, at learner tables (absent: none)
    cid: NotRequired[str]


@with_config(_STRICT)
class Away(TypedDict):
    """A seat's player went away (a bot plays for it) or came back."""

    type: Literal["away"]
    seat: int
    away: bool
    cid: NotRequired[str]


@with_config(_STRICT)
class Resigned(TypedDict):
    """A seat's player resigned the match: a bot plays the seat to the end and the player ranks as one who left."""

    type: Literal["resign"]
    seat: int
    cid: NotRequired[str]


@with_config(_STRICT)
class Rematched(TypedDict):
    """A seated player asked for a rematch of the finished match: ``table`` has the same seats."""

    type: Literal["rematch"]
    table: str
    seat: int
    cid: NotRequired[str]


@with_config(_STRICT)
class Chatted(TypedDict):
    """A chat line: free text between deals, or a preset phrase by its key."""

    type: Literal["chat"]
    seat: int | None
    name: str
    text: NotRequired[str]
    phrase: NotRequired[str]
    cid: NotRequired[str]


@with_config(_STRICT)
class Ready(TypedDict):
    """A seat's player has seen the deal's result and is ready for the next deal."""

    type: Literal["ready"]
    seat: int
    cid: NotRequired[str]


@with_config(_STRICT)
class Expired(TypedDict):
    """An unstarted table left alone too long left the lobby."""

    type: Literal["expired"]
    cid: NotRequired[str]


@with_config(_STRICT)
class Par(TypedDict):
    """Solo duplicate: the strong bot's replay of finished deal ``index`` in the player's seat (its record)."""

    type: Literal["par"]
    index: int
    seat: int
    level: str
    record: dict[str, Any]  # ulti-deal/1: the same cards and dealer, played by the bots
    scores: list[int]
    bid: NotRequired[str | None]
    declarer: NotRequired[int | None]
    cid: NotRequired[str]


Event = (
    Created | Sit | Leave | BotSeated | Start | Dealt | Acted | Away | Resigned | Rematched | Chatted | Ready
    | Expired | Par
)
_ADAPTER: TypeAdapter[Event] = TypeAdapter(Annotated[Event, Field(discriminator="type")])


class BadEvent(ValueError):
    """An event read from the store or another process does not have its kind's shape."""


_NOTE_ADAPTER: TypeAdapter[BidNote] = TypeAdapter(BidNote)


def bid_note(raw: object) -> BidNote:
    """A bot's note made in a worker process (``coach.bid_note``) as a typed ``BidNote``, checked as an
    event read back would be (``BadEvent`` if it is not one)."""
    try:
        return _NOTE_ADAPTER.validate_python(raw)
    except ValidationError as exc:
        raise BadEvent(f"malformed bot note: {exc.errors(include_url=False)[0]['msg']}") from None


def parse_event(raw: object) -> Event:
    """``raw`` (a decoded JSON event from outside this process) as its typed kind, or ``BadEvent``."""
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise BadEvent(f"malformed stored event at {where or 'top'}: {first['msg']}") from None
