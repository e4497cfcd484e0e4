"""The closed set of commands that change a table, as the hub hands them to the table's actor.

Every caller (a socket message, an HTTP or bot-API route, a tournament, a seek, a duplicate event, the
par replays) builds one of these frozen values; ``Hub.execute`` runs it at the table's owner, whose one
``match`` over ``Command`` is checked for exhaustiveness by mypy. In a cluster a command travels to the
owner through Redis in its one JSON form (``command_to_json`` / ``command_from_json``).

A game action is read once, where it arrives (``read_action``): into the engine's ``Action`` (its seat
set by the table, which knows which seat the sender plays), or into a ``MalformedAction`` that the table
refuses with today's code and message at the same point of its checks as before (so a malformed action
from a seat not on turn is still ``not_your_turn``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, get_args

from ulti.engine.actions import Action, Kind
from ulti.engine.errors import RecordError
from ulti.engine.record import action_to_json, parse_action
from ulti.server.events import Par as ParEvent
from ulti.server.events import parse_event

#: the message naming a game action that is not a JSON object (docs/protocol/errors.md §16)
NOT_AN_OBJECT = 'action must be an object such as {"action": "play", "card": "AS"}'


@dataclass(frozen=True)
class MalformedAction:
    """A game action that could not be read: the table refuses it with ``code`` and ``message``."""

    code: str
    message: str
    play: bool  # it names the kind "play" (refused as ``chain_open`` while the kontra chain is open)


ProposedAction = Action | MalformedAction


def read_action(payload: object) -> ProposedAction:
    """A client's record-form action (without its seat) as an ``Action`` of seat 0, or why it is not one.

    The seat is the table's to set (``tablerules.action_event``): whatever seat a client names is ignored.
    """
    if not isinstance(payload, dict):
        return MalformedAction("bad_message", NOT_AN_OBJECT, False)
    try:
        return parse_action({**payload, "seat": 0})
    except RecordError as exc:
        return MalformedAction("bad_action", str(exc), payload.get("action") == "play")


def names_play(action: ProposedAction) -> bool:
    """Whether ``action`` is (or was meant as) a card played."""
    return action.play if isinstance(action, MalformedAction) else action.kind is Kind.PLAY


@dataclass(frozen=True)
class Join:
    """Sit ``player`` at ``seat`` of an open table (an invite seat needs its token)."""

    kind: ClassVar[str] = "join"  # its JSON form's ``command``
    player: str
    name: str
    seat: object  # as the client sent it: the table checks it against its seats
    invite: object = None
    account: bool = False
    via_event: bool = False  # seated by the table's duplicate event or tournament
    bot: bool = False  # a bot account, seated through the bot API


@dataclass(frozen=True)
class Leave:
    """Stand up from a table whose match has not started."""

    kind: ClassVar[str] = "leave"  # its JSON form's ``command``
    player: str


@dataclass(frozen=True)
class AddBot:
    """The host puts a bot of ``level`` in the empty ``seat`` (both as the client sent them)."""

    kind: ClassVar[str] = "add_bot"  # its JSON form's ``command``
    player: str
    seat: object
    level: object


@dataclass(frozen=True)
class Start:
    """The host starts the match, optionally filling the empty seats with bots of ``level``."""

    kind: ClassVar[str] = "start"  # its JSON form's ``command``
    player: str
    fill_bots: bool = False
    level: str = "heuristic"


@dataclass(frozen=True)
class Play:
    """A seated player's game action; ``cid`` (player and client id) makes a retry idempotent."""

    kind: ClassVar[str] = "act"  # its JSON form's ``command``
    player: str
    action: ProposedAction
    cid: str | None = None


@dataclass(frozen=True)
class Say:
    """A table chat line: a free ``text`` (checked by the table) or a preset ``phrase``."""

    kind: ClassVar[str] = "chat"  # its JSON form's ``command``
    player: str
    name: str
    text: str | None = None
    phrase: str | None = None
    cid: str | None = None


@dataclass(frozen=True)
class Back:
    """The player is here again: a bot stops playing for the seat."""

    kind: ClassVar[str] = "back"  # its JSON form's ``command``
    player: str


@dataclass(frozen=True)
class Ready:
    """The player has seen the deal's result ("Next deal")."""

    kind: ClassVar[str] = "ready"  # its JSON form's ``command``
    player: str
    cid: str | None = None


@dataclass(frozen=True)
class Left:
    """The player's last connection to the table closed (in every process)."""

    kind: ClassVar[str] = "left"  # its JSON form's ``command``
    player: str


@dataclass(frozen=True)
class Resign:
    """The player resigns the match: a bot plays the seat to the end."""

    kind: ClassVar[str] = "resign"  # its JSON form's ``command``
    player: str


@dataclass(frozen=True)
class Rematch:
    """A seated player of a finished table asks for (or finds) its rematch."""

    kind: ClassVar[str] = "rematch"  # its JSON form's ``command``
    player: str
    name: str
    account: bool = False


@dataclass(frozen=True)
class RematchJoin:
    """The player takes ``seat`` in the rematch of table ``old``."""

    kind: ClassVar[str] = "rematch_join"  # its JSON form's ``command``
    player: str
    name: str
    old: str
    seat: int
    account: bool = False


@dataclass(frozen=True)
class SetPace:
    """How long the player wants a finished trick to stay on screen (``actor.PACE_FACTORS``)."""

    kind: ClassVar[str] = "pace"  # its JSON form's ``command``
    player: str
    pace: str


@dataclass(frozen=True)
class LetBot:
    """The player agrees that a bot plays for the absent player of ``seat``."""

    kind: ClassVar[str] = "let_bot"  # its JSON form's ``command``
    player: str
    seat: int


@dataclass(frozen=True)
class StorePar:
    """Solo duplicate: store the strong bot's replay of deal ``index`` unless the table has one."""

    kind: ClassVar[str] = "par"  # its JSON form's ``command``
    index: int
    event: ParEvent


Command = (
    Join | Leave | AddBot | Start | Play | Say | Back | Ready | Left | Resign | Rematch | RematchJoin | SetPace
    | LetBot | StorePar
)

#: each kind of command by its name
_KINDS: dict[str, type[Command]] = {kind.kind: kind for kind in get_args(Command)}


def command_name(command: Command) -> str:
    """The name of ``command``'s kind (its JSON form's ``command``, and the metrics' label)."""
    return command.kind


def command_to_json(command: Command) -> dict[str, object]:
    """``command`` as a JSON object (for the hop to the table's owner through Redis): its fields' values,
    which only need to be JSON, and the action in its record form."""
    body: dict[str, object] = {"command": command_name(command)}
    for field in fields(command):
        body[field.name] = getattr(command, field.name)
    if isinstance(command, Play):
        action = command.action
        body["action"] = (
            {"malformed": {"code": action.code, "message": action.message, "play": action.play}}
            if isinstance(action, MalformedAction) else action_to_json(action)
        )
    return body


def command_from_json(data: dict[str, Any]) -> Command:
    """The command ``command_to_json`` made ``data`` from (sent by another process of this server)."""
    kind = _KINDS[data["command"]]
    body = {k: v for k, v in data.items() if k != "command"}
    if kind is Play:
        raw = body["action"]
        body["action"] = MalformedAction(**raw["malformed"]) if "malformed" in raw else parse_action(raw)
    elif kind is StorePar:
        body["event"] = parse_event(body["event"])
    return kind(**body)
