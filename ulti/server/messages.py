"""One typed model per client message (docs/protocol/messages.md §6), parsed once at the edge.

A WebSocket message becomes one of these frozen models or is refused here, naming the field:
an unknown ``type`` is ``unknown_type``, an unknown or mistyped field is ``bad_message`` (a table id
``bad_id``, a chat text ``bad_chat``); the handlers then read attributes, not string keys.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, TypeAdapter, ValidationError

from ulti.server.commands import NOT_AN_OBJECT, ProposedAction, read_action
from ulti.server.inputs import BadInput

ClientId = str | int


class _Message(BaseModel):
    # strict: no coercion ("1" is not a seat, true is not an id); forbid: a field we do not know is an error
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: ClientId | None = None


class Ping(_Message):
    """``ping``: answered with ``pong``."""

    type: Literal["ping"]


class WatchLobby(_Message):
    """``watch_lobby``: the lobby list now, its changes later."""

    type: Literal["watch_lobby"]


class LobbyChat(_Message):
    """``lobby_chat``: a line to everybody in the lobby."""

    type: Literal["lobby_chat"]
    text: str


class SeekGame(_Message):
    """``seek``: look for a game with other people (bots fill the rest after ``wait`` seconds)."""

    type: Literal["seek"]
    deals: int = 6
    wait: int


class CancelSeek(_Message):
    """``unseek``: no longer look for a game."""

    type: Literal["unseek"]


class OpenTable(_Message):
    """``open_table``: watch (and, if seated, play at) a table."""

    type: Literal["open_table"]
    table: str


def _action_field(value: object) -> ProposedAction:
    # read here, once: a malformed action is kept as such, for the table to refuse it where it did before
    if not isinstance(value, dict):
        raise ValueError("not an object")  # refused at the edge as bad_message (see _refusal)
    return read_action(value)


class Act(_Message):
    """``act``: a game action in record form without the seat, read into an ``Action`` here (its legality
    is the table's)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    type: Literal["act"]
    id: ClientId
    action: Annotated[ProposedAction, PlainValidator(_action_field)]


class Chat(_Message):
    """``chat``: a free text between deals, or a preset phrase."""

    type: Literal["chat"]
    id: ClientId
    text: str | None = None
    phrase: str | None = None


class Back(_Message):
    """``back``: the player is here again (a bot stops playing for the seat)."""

    type: Literal["back"]
    id: ClientId


class Ready(_Message):
    """``ready``: the player has seen the deal's result and wants the next deal ("Next deal")."""

    type: Literal["ready"]
    id: ClientId


class Hint(_Message):
    """``hint``: the coach's hint for the asker's seat now (learner tables; answered to the asker only)."""

    type: Literal["hint"]


class LetBot(_Message):
    """``let_bot``: the sender agrees that a bot plays for the absent player of ``seat`` (a table
    without a time limit waits for its absent players until the others agree)."""

    type: Literal["let_bot"]
    id: ClientId
    seat: Literal[0, 1, 2]


class Pace(_Message):
    """``pace``: how long the sender wants a finished trick to stay on screen (the table keeps the slowest)."""

    type: Literal["pace"]
    trick_pause: Literal["fast", "normal", "slow"]


ClientMessage = Annotated[
    Ping | WatchLobby | LobbyChat | SeekGame | CancelSeek | OpenTable | Act | Chat | Back | Ready | Hint | Pace
    | LetBot,
    Field(discriminator="type"),
]
COMMANDS = ("act", "chat", "back", "ready", "let_bot")  # the messages that change a table: they need an id
#: the messages that change a table (``socket_routes._table_command`` makes each a ``commands.Command``)
TableMessage = Act | Chat | Back | Ready | LetBot
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
#: which error code names a fault in which field
_FIELD_CODES = {"table": "bad_id", "text": "bad_chat", "phrase": "bad_chat", "deals": "bad_seek", "wait": "bad_seek"}


def parse_client_message(data: dict[str, Any]) -> ClientMessage:
    """The typed message ``data`` (a JSON object) is, or ``BadInput`` naming its fault."""
    kind = data.get("type")
    if not isinstance(kind, str):
        raise BadInput("bad_message", "a message is a JSON object with a 'type'")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise _refusal(kind, exc) from None


def _refusal(kind: str, exc: ValidationError) -> BadInput:
    error = exc.errors(include_url=False)[0]
    if error["type"] == "union_tag_invalid":
        return BadInput("unknown_type", f"unknown message type {kind!r}")
    location = [str(part) for part in error["loc"][1:]]  # the first part is the message type
    field = location[0] if location else ""
    if error["type"] == "extra_forbidden":
        return BadInput("bad_message", f"unknown field {field!r} in a {kind} message")
    if error["type"] == "missing":
        if field == "id":
            return BadInput("bad_message", f"a {kind} command needs an id")
        return BadInput(_FIELD_CODES.get(field, "bad_message"), f"a {kind} message needs {field!r}")
    if field == "action":
        return BadInput("bad_message", NOT_AN_OBJECT)
    if field == "id":
        return BadInput("bad_message", "id must be a string of at most 64 characters or a 64-bit integer")
    if field == "seat":
        return BadInput("bad_message", "seat must be 0, 1 or 2")
    if field == "trick_pause":
        return BadInput("bad_message", 'trick_pause must be "fast", "normal" or "slow"')
    if field == "table":
        return BadInput("bad_id", "table must be an id of 1 to 64 letters, digits, '_' or '-'")
    expected = "a string" if "str" in error["type"] else error["msg"].lower()
    return BadInput(_FIELD_CODES.get(field, "bad_message"), f"{field} must be {expected}")
