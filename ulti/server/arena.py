"""The arena format on the server: who waits for a table, the next wave of tables, the end time.

An arena (lichess's format, for Ulti) lasts the tournament's ``minutes`` from its start, the time the
first ``round_seated`` event was stored. Its tables are seated in waves, each a ``round_seated``
event of the log naming only the players it seats: at the start everyone is seated (one or two left
over sit with bots at once); afterwards each player whose table has a result waits, and whenever
three or more wait, the core's pairing (``ulti.tournaments.arena.arena_tables``) seats them by score,
best first. A player who has waited ``bot_wait_seconds`` (default ``BOT_WAIT_SECONDS``; the host may
choose another) without enough others sits with bots. No wave is seated after the end time; tables
seated before it play on and count. Every figure here comes from the log and the times its events were
stored, so a restarted director computes the same waiting players and the same end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypedDict

from ulti.server.tournamentshapes import CreatedEvent, ResultRecorded
from ulti.tournaments.arena import arena_tables
from ulti.tournaments.log import Tournament, still_playing
from ulti.tournaments.standings import compute_lines


class Loaded(Protocol):
    """What an arena reads of its tournament's log (``tournaments.Loaded``; a protocol, so that the
    tournaments' module, which asks this one, is not imported back)."""

    @property
    def created(self) -> CreatedEvent:
        """Event 0: the settings and the server's own choices."""
        ...

    def registered_at(self) -> list[int]:
        """When each player registered (ms), by player number."""
        ...

    def results_at(self) -> list[tuple[ResultRecorded, int]]:
        """Each ``result_recorded`` event with the time it was stored (ms), in the log's order."""
        ...

    def started_at(self) -> int | None:
        """When the first wave was stored (ms); None before the start."""
        ...

#: how long a waiting player waits for two others before bots fill their table: long enough that
#: players finishing a few moves apart meet each other, short enough that nobody idles through an arena
BOT_WAIT_SECONDS = 30

Table = tuple[int | None, int | None, int | None]


def started_at(loaded: Loaded) -> int | None:
    """When the arena started (ms): the time its first wave was stored (None before the start)."""
    return loaded.started_at()


def ends_at(loaded: Loaded, state: Tournament) -> int | None:
    """When the arena ends (ms): ``minutes`` after its start (None before the start)."""
    start = started_at(loaded)
    if start is None:
        return None
    return start + (state.settings.minutes or 0) * 60_000


def arena_status(loaded: Loaded, state: Tournament, now_ms: int) -> str:
    """``registering`` before the start, ``finished`` once the end time has passed and every table
    seated has its result, ``running`` in between (``published`` once the host publishes it)."""
    if state.published:
        return "published"
    end = ends_at(loaded, state)
    if end is None:
        return "registering"
    if now_ms >= end and all(r.complete for r in state.rounds):
        return "finished"
    return "running"


def waiting(loaded: Loaded, state: Tournament) -> list[tuple[int, int]]:
    """The players waiting for a table, ``(player, since_ms)``, the longest waiting first: every player
    in (not withdrawn) who is not at a table, since the later of their registration, the arena's start
    and the result of their last table."""
    start = started_at(loaded)
    if start is None:
        return []
    busy = still_playing(state)
    since = {p: max(at, start) for p, at in enumerate(loaded.registered_at())}
    for body, at in loaded.results_at():
        for p in state.rounds[body["round"] - 1].tables[body["table"] - 1]:
            if p is not None:
                since[p] = max(since[p], at)
    out = [(p, when) for p, when in since.items()
           if p not in busy and state.players[p].status != "withdrawn"]
    return sorted(out, key=lambda pw: (pw[1], pw[0]))


def _last_tables(state: Tournament) -> dict[int, frozenset[int]]:
    last: dict[int, frozenset[int]] = {}
    for round_ in state.rounds:
        for table in round_.tables:
            people = frozenset(p for p in table if p is not None)
            for p in people:
                last[p] = people
    return last


def next_wave(loaded: Loaded, state: Tournament, now_ms: int, wait_seconds: int) -> list[Table]:
    """The tables to seat now (empty: none): the waiting players by score, and those who have waited
    ``wait_seconds`` without two others with bots (everyone at the start). Nothing at or after the end."""
    end = ends_at(loaded, state)
    if state.paused or (end is not None and now_ms >= end):
        return []
    if end is None:  # the start: everyone in is seated at once
        queue = [(p, 0) for p, player in enumerate(state.players) if player.status != "withdrawn"]
        since = {p: now_ms for p, _ in queue}
    else:
        waits = waiting(loaded, state)
        since = dict(waits)
        totals = {line.player: line.total for line in compute_lines(state)}
        queue = [(p, totals[p]) for p, _ in waits]
    tables, left = arena_tables(queue, _last_tables(state))
    out: list[Table] = list(tables)
    due = [p for p in left if end is None or now_ms - since[p] >= wait_seconds * 1000]
    if due:
        out.append(_with_bots(due))
    return out


def _with_bots(players: Sequence[int]) -> Table:
    a, b, c = (*players, None, None)[:3]
    return (a, b, c)


class ArenaView(TypedDict):
    """An arena on the tournament page: its end (ms; None before the start), the server's clock, the wait
    before bots, who waits for a table and who plays one (player numbers)."""

    ends_at: int | None
    now: int
    bot_wait_seconds: int
    waiting: list[int]
    playing: list[int]


def arena_view(loaded: Loaded, state: Tournament, now_ms: int) -> ArenaView:
    """What the page shows of an arena: its end time, the wait before bots, who waits for a table."""
    return {"ends_at": ends_at(loaded, state), "now": now_ms,
            "bot_wait_seconds": loaded.created.get("bot_wait_seconds", BOT_WAIT_SECONDS),
            "waiting": [p for p, _ in waiting(loaded, state)],
            "playing": sorted(still_playing(state))}
