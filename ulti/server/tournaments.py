"""The tournament director: runs each tournament's rounds on ordinary tables, from its log alone.

A tournament is its director's log (``ulti.tournaments.log``, stored by ``TournamentStore``). Every
request that changes it (register, check in, withdraw, the host's desk) appends an event through
``Directors.append``, which replays the log with the new event first, so an event that breaks a rule
is refused with the rule's words and never stored. The director's own work is ``Directors.step``,
run again and again for each tournament this process owns:

- once the host has started it, seat the next round by the format (``ulti.tournaments.rounds``):
  the ``round_seated`` event names each table's id before any table exists, so a director resuming
  after a crash creates, fills and starts exactly the tables the log names, each once;
- each table is an ordinary table (``Hub.create_table``) whose seats are kept for the round's
  players (invite seats, taken in their name); bots of the tournament's level fill byes, withdrawn
  and replaced players' seats; a player who is not there is played for by a bot after the table's
  grace, as at any table with a move limit. Rated tournaments make rated tables, so ratings move
  table by table exactly as rated matches do;
- a table whose match is over gives its result (``result_recorded``: each seat's total, and in
  sport ulti each deal's scores); when every table has one, the next round is seated after the
  break, until the last round;
- sport ulti (``duplicate``) rounds are duplicate events (``DuplicateRow``) whose seed is the round's
  (``ulti.tournaments.duplicate.round_seed``): the same cards at every table and the duplicate
  events' no-peeking rule, applied by the same visibility policy;
- an arena has no rounds to wait for: its tables are seated in waves as players finish, until its end
  time, and its waves' tables play side by side (``ulti.server.arena`` says who is due a table).

Nothing lives only in memory: a restart (or, with Redis, another process taking over a
tournament whose owner died: a lease per tournament, like a table's) replays the log and goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from ulti.engine.fourmatch import FourMatch
from ulti.server.arena import BOT_WAIT_SECONDS, arena_status, next_wave
from ulti.server.auth import new_id
from ulti.server.botshapes import AccountEvent
from ulti.server.commands import Join, Left, Start
from ulti.server.errors import CommandError
from ulti.server.logs import log
from ulti.server.table_settings import InviteSeat, OpenSeat, SeatChoice, TableSettings
from ulti.server.tournamentshapes import (
    CreatedEvent,
    Registered,
    ResultCorrected,
    ResultRecorded,
    RoundSeated,
    TableInRound,
    Withdrew,
)
from ulti.store.ports import (
    TOURNAMENT_ROUND_PREFIX,
    DuplicateBook,
    DuplicateRow,
    SeqConflict,
    TournamentBook,
    TournamentConflict,
)
from ulti.tournaments.duplicate import round_seed
from ulti.tournaments.log import LogError, Tournament, apply, replay
from ulti.tournaments.rounds import next_round
from ulti.tournaments.settings import start_timestamp

if TYPE_CHECKING:
    from ulti.server.hub import Hub
    from ulti.server.tablestate import TableState

#: the prefix of a tournament's lease in a cluster (``ulti:lease:tournament:{id}``, renewed like a table's)
LEASE = "tournament:"
#: how often the director looks at the tournaments it runs (a table's end also wakes it)
POLL_SECONDS = 1.0
#: how many times an append is tried again when another writer took the number first
APPEND_ATTEMPTS = 8
#: what a table answers when another process filled or started it a moment before this one asked
DONE_ALREADY = ("already_seated", "seat_taken", "table_started")
#: how many of a round's tables are being created, filled and started at one time
TABLES_AT_ONCE = 16

#: what ``Directors.append`` asks for the next event: given the log and its state, the event (a JSON object
#: for the log's rules to check, such as a ``tournamentshapes.LogEvent``) or None for nothing to append
MakeEvent = Callable[["Loaded", Tournament], Mapping[str, object] | None]


def status_of(state: Tournament, loaded: Loaded) -> str:
    """``registering`` (no round yet), ``running``, ``finished`` (every round has its results) or ``published``.

    An arena's end is a time (``ulti.server.arena``), so its status needs the log's ``loaded`` times too.
    """
    if state.settings.format == "arena":
        return arena_status(loaded, state, int(time.time() * 1000))
    if state.published:
        return "published"
    if not state.rounds:
        return "registering"
    if state.rounds[-1].complete and (len(state.rounds) >= state.settings.rounds or _no_next(state)):
        return "finished"
    return "running"


def _no_next(state: Tournament) -> bool:
    try:
        next_round(state)
    except ValueError:
        return True
    return False


@dataclass
class Loaded:
    """A tournament's log as this process last read it: its bodies and the time each was stored (ms).

    Events are added with ``add`` (never by appending to ``bodies``), which also indexes them, so that
    the lookups below (a round's tables, a player's number, when the round ended, ...) answer at once
    instead of scanning the log each time they are asked. ``bodies`` are the events as the store keeps
    them (JSON); the lookups answer them typed (``tournamentshapes``), as the log's rules checked each
    before it was stored.
    """

    bodies: list[dict[str, Any]] = field(default_factory=list)
    times: list[int] = field(default_factory=list)
    # the state folded so far and how many bodies it holds: a read folds only the events read since
    _state: Tournament | None = field(default=None, init=False, repr=False, compare=False)
    _folded: int = field(default=0, init=False, repr=False, compare=False)
    _index: _Index = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index = _Index()
        for body, at in zip(self.bodies, self.times, strict=True):
            self._index.add(body, at)

    def add(self, body: Mapping[str, object], at: int) -> None:
        """Add the next event of the log, stored at ``at`` (ms)."""
        stored = dict(body)  # as the store gives it back: a plain JSON object
        self.bodies.append(stored)
        self.times.append(at)
        self._index.add(stored, at)

    @property
    def created(self) -> CreatedEvent:
        """Event 0: the settings and the server's own choices (host, name, bot level, break)."""
        return cast(CreatedEvent, self.bodies[0])

    def state(self) -> Tournament:
        """The log folded into the tournament's state (shared by every reader of this log: never changed
        in place; the events appended since the last read are folded on to it)."""
        if self._state is None:
            self._state, self._folded = replay(self.bodies), len(self.bodies)
        for body in self.bodies[self._folded:]:
            apply(self._state, body)
        self._folded = len(self.bodies)
        return self._state

    def table_ids(self, round_number: int) -> list[str]:
        """The ids of round ``round_number``'s tables, table 1 first (as its ``round_seated`` names them)."""
        seated = self._index.seated.get(round_number)
        return [] if seated is None else list(seated.get("table_ids") or [])

    def seated_event(self, round_number: int) -> RoundSeated:
        """The ``round_seated`` event of round ``round_number`` (KeyError if it is not seated)."""
        return self._index.seated[round_number]

    def accounts(self) -> list[str | None]:
        """Each registered player's account id, by player number."""
        return list(self._index.accounts)

    def account_of(self, number: int) -> str | None:
        """Player ``number``'s account id (None for a built-in bot)."""
        return self._index.accounts[number]

    def number_of(self, account: str) -> int | None:
        """The player number of ``account`` (None if it never registered)."""
        return self._index.numbers.get(account)

    def built_in_bots(self) -> int:
        """How many built-in bots (players without an account) have registered."""
        return self._index.accounts.count(None)

    def registered_at(self) -> list[int]:
        """When each player registered (ms), by player number."""
        return list(self._index.registered_at)

    def results_at(self) -> list[tuple[ResultRecorded, int]]:
        """Each ``result_recorded`` event with the time it was stored (ms), in the log's order."""
        return list(self._index.results)

    def corrections(self) -> list[ResultCorrected]:
        """The ``result_corrected`` events, in the log's order."""
        return list(self._index.corrections)

    def started_at(self) -> int | None:
        """When the first round (an arena's first wave) was stored (ms); None before the start."""
        return self._index.first_seated_at

    def round_ended_at(self) -> int | None:
        """When the last result of the current round was stored (ms), if every table of it has one."""
        state = self.state()
        if not state.rounds or not state.rounds[-1].complete:
            return None
        return self._index.last_seated_or_result_at


@dataclass
class _Index:
    """What ``Loaded``'s lookups need, gathered as each event is added (each of the kind its ``type`` says:
    the log's rules checked it before it was stored)."""

    seated: dict[int, RoundSeated] = field(default_factory=dict)  # round number -> its round_seated event
    accounts: list[str | None] = field(default_factory=list)  # by player number
    numbers: dict[str, int] = field(default_factory=dict)  # account -> player number (its first registration)
    registered_at: list[int] = field(default_factory=list)  # by player number
    results: list[tuple[ResultRecorded, int]] = field(default_factory=list)
    corrections: list[ResultCorrected] = field(default_factory=list)
    first_seated_at: int | None = None
    last_seated_or_result_at: int | None = None

    def add(self, body: Mapping[str, object], at: int) -> None:
        """Index one event of the log, stored at ``at`` (ms)."""
        kind = body.get("type")
        if kind == "registered":
            account = cast(Registered, body).get("account")
            if account is not None:
                self.numbers.setdefault(account, len(self.accounts))
            self.accounts.append(account)
            self.registered_at.append(at)
        elif kind == "round_seated":
            number = body.get("round")
            if isinstance(number, int):
                self.seated.setdefault(number, cast(RoundSeated, body))
            if self.first_seated_at is None:
                self.first_seated_at = at
        elif kind == "result_corrected":
            self.corrections.append(cast(ResultCorrected, body))
        if kind == "result_recorded":
            self.results.append((cast(ResultRecorded, body), at))
        if kind in ("result_recorded", "round_seated"):
            last = self.last_seated_or_result_at
            self.last_seated_or_result_at = at if last is None else max(last, at)


class DirectorStore(TournamentBook, DuplicateBook, Protocol):
    """The store's part the directors use: the tournaments' logs and rows, and a sport ulti round's duplicate."""


class Directors:
    """The tournaments this process directs (all of them alone; the ones whose lease it holds in a cluster)."""

    def __init__(self, hub: Hub, store: DirectorStore, poll_seconds: float = POLL_SECONDS) -> None:
        """Directors over ``store`` and ``hub``'s tables; ``tell`` (set by the app) reaches the bot API's streams."""
        self.hub = hub
        self.store = store
        self.poll_seconds = poll_seconds
        self.tell: Callable[[str, AccountEvent], None] | None = None
        self._logs: dict[str, Loaded] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        hub.commit_listeners.append(self._on_commit)

    def run(self) -> None:
        """Start directing (the tournaments left running by an earlier process first)."""
        self._task = asyncio.create_task(self.run_forever())

    def close(self) -> None:
        """Stop; everything is in the log, and the next process goes on from there."""
        if self._task is not None:
            self._task.cancel()

    def _on_commit(self, state: TableState, stored: list[tuple[int, Any]]) -> None:
        if state.status == "finished":
            self._wake.set()  # a table's match ended: its result is due at once, not at the next poll

    # ---------------------------------------------------------------- the log

    async def load(self, tournament_id: str) -> Loaded:
        """The tournament's log, read from where this process last read it (``not_found`` if there is none)."""
        loaded = self._logs.setdefault(tournament_id, Loaded())
        fresh = await self.store.tournament_log(tournament_id, after=len(loaded.bodies) - 1)
        for event in fresh:
            if event.seq == len(loaded.bodies):
                loaded.add(event.body, event.at)
        if not loaded.bodies:
            self._logs.pop(tournament_id, None)
            raise CommandError("not_found", f"no tournament {tournament_id!r}")
        return loaded

    async def append(self, tournament_id: str, make: MakeEvent, at: int | None = None) -> Loaded:
        """Append the event ``make(log, state)`` returns (None: nothing to append) once it replays cleanly,
        stored with the time ``at`` when given (an event decided by the clock, such as an arena's wave, is
        stored at the time it was decided, so that the log's times agree with the decision).

        ``make`` may raise ``CommandError``; an event the log's rules refuse is refused as ``tournament_rule``
        with the rule's words. Another writer's event stored first makes this read the log and ask again.
        """
        for _ in range(APPEND_ATTEMPTS):
            loaded = await self.load(tournament_id)
            state = loaded.state()
            event = make(loaded, state)
            if event is None:
                return loaded
            try:
                replay([*loaded.bodies, event])
            except LogError as exc:
                raise CommandError("tournament_rule", str(exc).split(": ", 1)[-1]) from None
            old_status = status_of(state, loaded)
            try:
                stored_at = await self.store.append_tournament_event(tournament_id, len(loaded.bodies), event, at)
            except TournamentConflict:
                continue
            loaded.add(event, stored_at)
            new_status = status_of(loaded.state(), loaded)
            if new_status != old_status:
                await self.store.set_tournament_status(tournament_id, new_status)
            self._wake.set()
            return loaded
        raise CommandError("unavailable", "the tournament is busy: try again")

    # ---------------------------------------------------------------- running

    async def run_forever(self) -> None:
        """Direct every tournament still running, then wait for a table's end or the next poll."""
        while True:
            self._wake.clear()
            try:
                for row in await self.store.tournaments(["registering", "running"], limit=1000):
                    if await self._own(row.tournament_id):
                        await self.step(row.tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger("ulti").exception("tournament director failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def _own(self, tournament_id: str) -> bool:
        """Whether this process directs the tournament (alone always; in a cluster, while it holds the lease)."""
        cluster = self.hub.cluster
        if cluster is None:
            return True
        return await cluster.acquire(LEASE + tournament_id)

    async def step(self, tournament_id: str) -> None:
        """Do what the tournament needs now: start at its start time, results, the next round, the end."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            loaded = await self.load(tournament_id)
            state = loaded.state()
            if not state.rounds:
                if _start_due(state) and not state.paused:
                    await self._start(tournament_id)
                return
            if state.settings.format == "arena":
                await self._step_arena(tournament_id, loaded)
                return
            number = len(state.rounds)
            await self._ensure_tables(tournament_id, loaded, number)
            await self._collect_results(tournament_id, loaded, number)
            loaded = await self.load(tournament_id)
            state = loaded.state()
            if status_of(state, loaded) == "finished":
                await self.store.set_tournament_status(tournament_id, "finished")
                return
            ended = loaded.round_ended_at()
            break_ms = int(loaded.created.get("break_seconds", 0) * 1000)
            if ended is not None and not state.paused and time.time() * 1000 >= ended + break_ms:
                await self._seat_next(tournament_id)

    async def _step_arena(self, tournament_id: str, loaded: Loaded) -> None:
        """An arena's step: make and start the tables seated, record the results, seat the next wave
        (waves overlap, so every round with a table still playing is looked at), and the end."""
        state = loaded.state()
        for number, round_ in enumerate(state.rounds, start=1):
            if not round_.complete:
                await self._ensure_tables(tournament_id, loaded, number)
                await self._collect_results(tournament_id, loaded, number)
        loaded = await self.load(tournament_id)
        if status_of(loaded.state(), loaded) == "finished":
            await self.store.set_tournament_status(tournament_id, "finished")
            return
        await self._seat_arena(tournament_id)

    async def _seat_arena(self, tournament_id: str) -> None:
        """Seat the arena's next wave, if anyone is due a table (``ulti.server.arena.next_wave``)."""

        def make(loaded: Loaded, state: Tournament) -> RoundSeated | None:
            wait = int(loaded.created.get("bot_wait_seconds", BOT_WAIT_SECONDS))
            tables = next_wave(loaded, state, now, wait)
            seated[0] = _seated(len(state.rounds) + 1, tables) if tables else None
            return seated[0]

        # the wave is stored with the time it was decided at: stamped when stored, a wave decided just
        # before the end could carry a time after it (the log is replayed in between)
        now = int(time.time() * 1000)
        seated: list[RoundSeated | None] = [None]  # what the last call of ``make`` asked to append
        loaded = await self.append(tournament_id, make, at=now)
        if seated[0] is not None:
            await self._ensure_tables(tournament_id, loaded, seated[0]["round"])

    async def start(self, tournament_id: str) -> None:
        """Seat round 1 (players who registered but did not check in are withdrawn first, when any checked in)."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            await self._start(tournament_id)

    async def _start(self, tournament_id: str) -> None:
        loaded = await self.load(tournament_id)
        state = loaded.state()
        if state.rounds:
            return
        if any(p.status == "checked_in" for p in state.players):
            for number, player in enumerate(state.players):
                if player.status == "registered":
                    await self.append(tournament_id, withdrawal(number, "did not check in", unchecked_only=True))
        if state.settings.format == "arena":
            await self._seat_arena(tournament_id)
        else:
            await self._seat_next(tournament_id)

    async def _seat_next(self, tournament_id: str) -> None:
        def make(loaded: Loaded, state: Tournament) -> RoundSeated | None:
            if status_of(state, loaded) in ("finished", "published") or state.paused:
                return None
            if state.rounds and not state.rounds[-1].complete:
                return None
            number = len(state.rounds) + 1
            try:
                tables = next_round(state)
            except ValueError as exc:
                raise CommandError("tournament_rule", str(exc)) from None
            duplicate = round_duplicate_id(tournament_id, number) if state.settings.format == "duplicate" else None
            return _seated(number, tables, duplicate=duplicate)

        loaded = await self.append(tournament_id, make)
        state = loaded.state()
        if state.rounds:
            await self._ensure_tables(tournament_id, loaded, len(state.rounds))

    async def _ensure_tables(self, tournament_id: str, loaded: Loaded, number: int) -> None:
        """Create, fill and start each table of round ``number`` that is not yet (idempotent: after a crash,
        the tables already made are left as they are)."""
        state = loaded.state()
        seated = loaded.seated_event(number)
        ids = loaded.table_ids(number)
        created = loaded.created
        settings = state.settings
        host, host_name = created["host"], created["host_name"]
        level = created.get("level", "heuristic")
        duplicate_key: tuple[str, int] | None = None
        if seated.get("event") is not None:
            duplicate_key = (seated["event"], round_seed(settings.seed, number))
            if await self.store.duplicate(seated["event"]) is None:
                await self.store.add_duplicate(DuplicateRow(
                    seated["event"], host, host_name, settings.deals_per_round, len(ids), level,
                    settings.move_seconds, duplicate_key[1], True, int(time.time() * 1000), tuple(ids),
                ))
        accounts = loaded.accounts()

        def person(p: int) -> bool:
            """Whether a person (or a bot account) plays player ``p``'s seat: a built-in bot registered by the
            host has no account, and a withdrawn or replaced player's seat is the tournament's bots' to play."""
            return accounts[p] is not None and not state.players[p].replaced and state.players[p].status != "withdrawn"

        statuses = await self.store.table_statuses(ids)
        # the tables are made side by side (their first events share the store's group commits); a few at
        # a time, so that a round of 100 tables does not hold back the tables already playing
        gate = asyncio.Semaphore(TABLES_AT_ONCE)

        async def one(t: int, table_id: str, players: list[int | None]) -> None:
            async with gate:
                if t in state.rounds[number - 1].results:
                    return
                if table_id not in statuses:
                    seats: list[SeatChoice] = [InviteSeat(kind="invite") if p is not None and person(p)
                                               else OpenSeat(kind="open") for p in players]
                    config = TableSettings(deals=settings.deals_per_round, move_seconds=settings.move_seconds,
                                           seats=seats, rated=settings.rated)
                    with contextlib.suppress(SeqConflict):  # begun already: by another owner a moment ago, or by
                        # a process killed before it saved the table's row (its log is the table)
                        await self.hub.create_table(host, host_name, config, account=True, event=duplicate_key,
                                                    table_id=table_id)
                elif statuses[table_id] != "open":
                    return  # filled and started already
                table = (await self.hub.source(table_id)).state
                for seat, p in enumerate(players):
                    info = table.seats[seat]
                    if p is None or not person(p) or info.kind != "invite":
                        continue
                    if table.seat_of(str(accounts[p])) is not None:
                        continue  # joined already
                    player = state.players[p]
                    account = accounts[p]
                    try:
                        await self.hub.execute(table_id, Join(
                            str(account), player.name, seat, info.invite, account=True, via_event=True, bot=player.bot,
                        ))
                    except CommandError as exc:
                        if exc.code not in DONE_ALREADY:
                            raise
                table = (await self.hub.source(table_id)).state
                if table.status == "open":
                    try:
                        await self.hub.execute(table_id, Start(host, fill_bots=True, level=level))
                    except CommandError as exc:
                        if exc.code not in DONE_ALREADY:
                            raise
                        return  # another process (a desk's request and the tournament's owner) did it a moment ago
                    log("tournament table started", tournament=tournament_id, round=number, table=t)
                    for seat, p in enumerate(players):
                        if p is not None and person(p):
                            # not connected: a bot plays the seat after the grace, as for anyone who leaves a table
                            await self.hub.execute(table_id, Left(str(accounts[p])))
                            if self.tell is not None and state.players[p].bot:
                                self.tell(str(accounts[p]), {"type": "tournament_table", "tournament": tournament_id,
                                                             "round": number, "table": table_id, "seat": seat})

        await asyncio.gather(*(one(t, table_id, players) for t, (table_id, players)
                               in enumerate(zip(ids, seated["tables"], strict=True), start=1)))

    async def _collect_results(self, tournament_id: str, loaded: Loaded, number: int) -> None:
        """Record the result of each table of round ``number`` whose match is over."""
        state = loaded.state()
        round_ = state.rounds[number - 1]
        ids = loaded.table_ids(number)
        statuses = await self.store.table_statuses(ids)
        for t, table_id in enumerate(ids, start=1):
            if t in round_.results or statuses.get(table_id) != "finished":
                continue
            table = (await self.hub.source(table_id)).state
            if table.status != "finished" or table.match is None:
                continue
            deals = state.settings.deals_per_round
            result: ResultRecorded = {"type": "result_recorded", "round": number, "table": t,
                                      "points": list(table.match.totals()), "match": table_id}
            if state.settings.format == "duplicate":
                result["deals"] = [list(d.result.scores) for d in table.match.deals[:deals] if d.result is not None]
            if isinstance(table.match, FourMatch):
                # a table of four: each deal's four scores (0 for the one sitting out), tie-break deals too,
                # so that they total the points (ulti/tournaments/log.py checks both)
                scores = [table.match.deal_scores(k) for k in range(len(table.match.deals))]
                # a finished match has every deal's scores (and the log would refuse a deal without them)
                result["deals"] = cast("list[list[int]]", scores)

            await self.append(tournament_id, _once(number, t, result))

    # ---------------------------------------------------------------- the desk's side effects at the tables

    async def bot_takes_seat(self, tournament_id: str, account: str) -> None:
        """A bot plays ``account``'s seat at its table of the current round to the end (a withdrawal, or
        the host replacing the player): the table's resignation, so the match ranks them as one who left."""
        loaded = await self.load(tournament_id)
        state = loaded.state()
        number = loaded.number_of(account)
        if not state.rounds or number is None:
            return
        # every round, not only the last: an arena's earlier waves play on beside its newest
        for r, round_ in enumerate(state.rounds, start=1):
            for t, (table_id, players) in enumerate(zip(loaded.table_ids(r), round_.tables, strict=True), start=1):
                if number in players and t not in round_.results:
                    table = (await self.hub.source(table_id)).state
                    seat = table.seat_of(account)
                    if table.status == "playing" and seat is not None and not table.seats[seat].resigned:
                        await self.hub.resign(table_id, account)


def _seated(number: int, tables: Sequence[Sequence[int | None]], duplicate: str | None = None) -> RoundSeated:
    """Round ``number``'s ``round_seated`` event, naming its tables' ids (and a sport ulti round's event)
    before any of them is made."""
    seated: RoundSeated = {"type": "round_seated", "round": number, "tables": [list(t) for t in tables],
                           "table_ids": [new_id() for _ in tables]}
    if duplicate is not None:
        seated["event"] = duplicate  # the log's key, as stored
    return seated


def round_duplicate_id(tournament_id: str, number: int) -> str:
    """The id of the duplicate that sport ulti round ``number`` is: marked as a tournament's round,
    so the lobby's list of duplicates leaves it out (``DuplicateStore.recent_duplicates``)."""
    return f"{TOURNAMENT_ROUND_PREFIX}{tournament_id}-{number}"


def _once(number: int, table: int, result: ResultRecorded) -> Callable[[Loaded, Tournament], ResultRecorded | None]:
    """The result of table ``table`` of round ``number``, unless the log has one already."""

    def make(_loaded: Loaded, state: Tournament) -> ResultRecorded | None:
        return None if table in state.rounds[number - 1].results else result

    return make


def withdrawal(number: int, reason: str, unchecked_only: bool = False
               ) -> Callable[[Loaded, Tournament], Withdrew | None]:
    """Player ``number``'s ``withdrew`` event with its ``reason`` (nothing if they have withdrawn already).

    ``unchecked_only``: only if the tournament has not started and the player registered but did not
    check in (a built-in bot, with no account, needs no check-in)."""

    def make(loaded: Loaded, state: Tournament) -> Withdrew | None:
        player = state.players[number]
        if player.status == "withdrawn":
            return None
        if unchecked_only and (state.rounds or player.status != "registered" or loaded.account_of(number) is None):
            return None
        return {"type": "withdrew", "player": number, "reason": reason}

    return make


def _start_due(state: Tournament) -> bool:
    """Whether the tournament's start time (``start_timestamp``'s rule) has come."""
    start = None if state.settings.start is None else start_timestamp(state.settings.start)
    return start is not None and time.time() >= start


def table_of(loaded: Loaded, state: Tournament, account: str) -> TableInRound | None:
    """Where ``account`` sits in the current round: round, table number, table id and seat (None: nowhere).

    In an arena, the player's latest table, whichever wave seated it."""
    number = loaded.number_of(account)
    if number is None or not state.rounds:
        return None
    last = len(state.rounds)
    numbers = range(last, 0, -1) if state.settings.format == "arena" else [last]
    for round_number in numbers:
        round_ = state.rounds[round_number - 1]
        for t, (table_id, players) in enumerate(zip(loaded.table_ids(round_number), round_.tables, strict=True),
                                                start=1):
            if number in players:
                return {"round": round_number, "table": t, "table_id": table_id,
                        "seat": list(players).index(number), "finished": t in round_.results}
    return None


def created_event(host: str, host_name: str, name: str, settings: Mapping[str, Any], level: str,
                  break_seconds: int, invited: list[str]) -> CreatedEvent:
    """Event 0 of a new tournament's log: the settings, and the server's own choices beside them."""
    return {"type": "created", "settings": dict(settings), "host": host, "host_name": host_name, "name": name,
            "level": level, "break_seconds": break_seconds, "invited": invited}
