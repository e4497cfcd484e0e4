"""The director's log: a tournament is a list of typed events, and its state is a pure fold of them.

Events (JSON objects with a ``type``): ``created`` (the settings), ``registered``, ``withdrew``,
``checked_in``, ``round_seated``, ``result_recorded``, ``result_corrected`` (with a reason),
``replaced_by_bot``, ``paused``, ``resumed``, ``published``. ``replay`` folds them into a
``Tournament`` and refuses the first event that breaks a rule, naming it (``event 7: ...``), so a
restarted process that replays the log reaches exactly the state it had, standings included.
Players are numbered from 0 in the order they registered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ulti.engine.errors import RecordError
from ulti.tournaments.fours import four_table_deal
from ulti.tournaments.settings import Settings, settings_from_json

EVENT_TYPES = (
    "created", "registered", "withdrew", "checked_in", "round_seated", "result_recorded",
    "result_corrected", "replaced_by_bot", "paused", "resumed", "published",
)


class LogError(RecordError):
    """An event of the director's log that breaks a rule (the message names the event from 0)."""


@dataclass
class Player:
    """A registered player: ``status`` is ``registered``, ``checked_in`` or ``withdrawn``."""

    name: str
    bot: bool = False
    rating: float | None = None
    team: str | None = None
    letter: str | None = None
    status: str = "registered"
    replaced: bool = False  # a bot plays their seats from the event on (they stay in the standings)

    def to_json(self, number: int) -> dict[str, Any]:
        """The player as the record lists it."""
        return {"player": number, "name": self.name, "bot": self.bot, "rating": self.rating, "team": self.team,
                "letter": self.letter, "status": self.status, "replaced": self.replaced}


@dataclass
class Result:
    """A table's result: each seat's points, the deals' scores (sport ulti), the match id, corrections.

    ``match_points`` and ``match_deals`` are what the match itself scored (the ``result_recorded``
    event's): a correction changes ``points`` and ``deals``, never these, so the match record is still
    checked against what it scored.
    """

    points: list[int]
    deals: list[list[int]] | None = None
    match: str | None = None
    corrections: list[str] = field(default_factory=list)
    match_points: list[int] = field(default_factory=list)
    match_deals: list[list[int]] | None = None


@dataclass
class Round:
    """A seated round: its tables (player numbers, ``None`` for a bot) and the results recorded so far."""

    tables: list[tuple[int | None, ...]]
    results: dict[int, Result] = field(default_factory=dict)  # table number (from 1) -> result

    @property
    def complete(self) -> bool:
        """Whether every table's result is recorded."""
        return len(self.results) == len(self.tables)


@dataclass
class Tournament:
    """The state the log folds into."""

    settings: Settings
    players: list[Player] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    paused: bool = False
    published: bool = False


def replay(log: Sequence[Mapping[str, Any]]) -> Tournament:
    """Fold the director's ``log`` into the tournament's state; ``LogError`` names the first bad event.

    >>> t = replay([{"type": "created", "settings": {"format": "standings", "rounds": 2}},
    ...             {"type": "registered", "name": "Anna"}])
    >>> t.players[0].name, t.settings.rounds
    ('Anna', 2)
    """
    if not log or not isinstance(log[0], Mapping) or log[0].get("type") != "created":
        raise LogError("event 0: a log starts with a created event")
    try:
        state = Tournament(settings_from_json(log[0].get("settings")))
    except ValueError as exc:
        raise LogError(f"event 0: {exc}") from None
    for index, event in enumerate(log[1:], start=1):
        try:
            apply(state, event)
        except (ValueError, KeyError, TypeError) as exc:
            raise LogError(f"event {index}: {str(exc).strip(chr(39))}") from None
    return state


def apply(state: Tournament, event: Mapping[str, Any]) -> None:
    """Apply one event to ``state`` (ValueError naming the rule it breaks)."""
    kind = event.get("type") if isinstance(event, Mapping) else None
    if kind not in EVENT_TYPES or kind == "created":
        raise ValueError(f"unknown or repeated event type {kind!r}")
    if state.published:
        raise ValueError(f"{kind}: the tournament is published; nothing follows")
    handler = _HANDLERS[kind]
    handler(state, event)


def _player(state: Tournament, event: Mapping[str, Any]) -> Player:
    number = event["player"]
    if type(number) is not int or not 0 <= number < len(state.players):
        raise ValueError(f"player {number!r} is not registered")
    return state.players[number]


def _registered(state: Tournament, event: Mapping[str, Any]) -> None:
    name = event.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("registered: name must be a non-empty string")
    if state.rounds and not state.settings.late_entry:
        raise ValueError("registered: late entry is closed in this tournament")
    letter = event.get("letter")
    if state.settings.format == "teams" and (letter not in ("A", "B", "C") or not event.get("team")):
        raise ValueError("registered: a team tournament needs a team and a letter A, B or C")
    rating = event.get("rating")
    state.players.append(Player(name, bool(event.get("bot", False)), None if rating is None else float(rating),
                                event.get("team"), letter))


def _withdrew(state: Tournament, event: Mapping[str, Any]) -> None:
    _player(state, event).status = "withdrawn"


def _checked_in(state: Tournament, event: Mapping[str, Any]) -> None:
    player = _player(state, event)
    if player.status == "withdrawn":
        raise ValueError("checked_in: the player has withdrawn")
    player.status = "checked_in"


def _round_seated(state: Tournament, event: Mapping[str, Any]) -> None:
    number = event["round"]
    if number != len(state.rounds) + 1:
        raise ValueError(f"round_seated: round {number!r} is not the next round ({len(state.rounds) + 1})")
    if state.rounds and not state.rounds[-1].complete and state.settings.format != "arena":
        raise ValueError(f"round_seated: round {number - 1} has tables without a result")
    if state.paused:
        raise ValueError("round_seated: the tournament is paused")
    tables = [tuple(t) for t in event["tables"]]
    seen: set[int] = set()
    playing = still_playing(state)
    widths = (3, 4) if state.settings.four_tables else (3,)
    for t, table in enumerate(tables, start=1):
        if len(table) not in widths:
            raise ValueError(f"round_seated: table {t}: a table seats three"
                             + (" or four" if state.settings.four_tables else ""))
        if len(table) == 4 and None in table:
            raise ValueError(f"round_seated: table {t}: a table of four seats four players, no bot")
        for p in table:
            if p is None:
                continue
            if type(p) is not int or not 0 <= p < len(state.players):
                raise ValueError(f"round_seated: table {t}: player {p!r} is not registered")
            if p in seen:
                raise ValueError(f"round_seated: table {t}: player {p} is seated twice")
            if p in playing:
                raise ValueError(f"round_seated: table {t}: player {p} is still playing a table")
            if state.players[p].status == "withdrawn":
                raise ValueError(f"round_seated: table {t}: player {p} has withdrawn")
            seen.add(p)
    state.rounds.append(Round(tables))


def still_playing(state: Tournament) -> set[int]:
    """The players at a table without a result (an arena seats waves while earlier tables play on)."""
    return {
        p for round_ in state.rounds for t, table in enumerate(round_.tables, start=1)
        if t not in round_.results for p in table if p is not None
    }


def _table(state: Tournament, event: Mapping[str, Any]) -> tuple[Round, int]:
    number, table = event["round"], event["table"]
    if type(number) is not int or not 1 <= number <= len(state.rounds):
        raise ValueError(f"round {number!r} is not seated")
    round_ = state.rounds[number - 1]
    if type(table) is not int or not 1 <= table <= len(round_.tables):
        raise ValueError(f"round {number}: table {table!r} does not exist")
    return round_, table


def _points(event: Mapping[str, Any], seats: int = 3) -> list[int]:
    points = event["points"]
    if not isinstance(points, list) or len(points) != seats or any(type(p) is not int for p in points):
        raise ValueError(f"points must list {_WORDS[seats]} whole numbers (one per seat)")
    return list(points)


_WORDS = {3: "three", 4: "four"}


def _deals(event: Mapping[str, Any], seats: int = 3) -> list[list[int]] | None:
    deals = event.get("deals")
    if deals is None:
        return None
    if not isinstance(deals, list) or any(not isinstance(d, list) or len(d) != seats for d in deals):
        raise ValueError(f"deals must list each deal's {_WORDS[seats]} scores")
    if seats == 4:
        for k, scores in enumerate(deals):
            if scores[four_table_deal(k).sits_out] != 0:
                raise ValueError(f"deals: deal {k}: the player sitting out (position {k % 4}) scores 0")
    return [list(d) for d in deals]


def _seats(round_: Round, table: int) -> int:
    return len(round_.tables[table - 1])


def _result_recorded(state: Tournament, event: Mapping[str, Any]) -> None:
    round_, table = _table(state, event)
    if table in round_.results:
        raise ValueError(f"result_recorded: round {event['round']}: table {table} has a result; correct it")
    seats = _seats(round_, table)
    points, deals = _points(event, seats), _deals(event, seats)
    round_.results[table] = Result(points, deals, event.get("match"), match_points=points, match_deals=deals)


def _result_corrected(state: Tournament, event: Mapping[str, Any]) -> None:
    round_, table = _table(state, event)
    reason = event.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError("result_corrected: a correction needs a reason")
    if table not in round_.results:
        raise ValueError(f"result_corrected: round {event['round']}: table {table} has no result to correct")
    old = round_.results[table]
    seats = _seats(round_, table)
    points, deals = _points(event, seats), _deals(event, seats)
    if old.deals is not None and deals is not None and len(deals) != len(old.deals):
        # sport ulti compares deal k with deal k of the other tables: a correction keeps the number of deals
        raise ValueError(f"deals: the table scored {len(old.deals)} deals; a correction lists as many")
    if seats == 4 and deals is not None and [sum(d[s] for d in deals) for s in range(4)] != points:
        raise ValueError("points: at a table of four the points are the deals' scores totalled; correct the deals")
    round_.results[table] = Result(points, deals, event.get("match", old.match),
                                   [*old.corrections, reason], old.match_points, old.match_deals)


def _replaced_by_bot(state: Tournament, event: Mapping[str, Any]) -> None:
    _player(state, event).replaced = True


def _paused(state: Tournament, event: Mapping[str, Any]) -> None:
    if state.paused:
        raise ValueError("paused: the tournament is paused already")
    state.paused = True


def _resumed(state: Tournament, event: Mapping[str, Any]) -> None:
    if not state.paused:
        raise ValueError("resumed: the tournament is not paused")
    state.paused = False


def _published(state: Tournament, event: Mapping[str, Any]) -> None:
    state.published = True


_HANDLERS = {
    "registered": _registered, "withdrew": _withdrew, "checked_in": _checked_in, "round_seated": _round_seated,
    "result_recorded": _result_recorded, "result_corrected": _result_corrected,
    "replaced_by_bot": _replaced_by_bot, "paused": _paused, "resumed": _resumed, "published": _published,
}
