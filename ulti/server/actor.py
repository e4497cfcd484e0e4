"""One actor per table: commands are handled one at a time, each accepted event is stored before
anyone is told of it, then applied and broadcast; bots, move timers and absences are scheduled here.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any, Literal, Protocol

from ulti.analysis.coach import noted_bot_action
from ulti.engine.actions import Kind
from ulti.engine.deal import Deal
from ulti.server import tablerules, tableviews
from ulti.server.config import Settings
from ulti.server.events import Event, bid_note, parse_event
from ulti.server.logs import log
from ulti.server.results import crash_point, record_result
from ulti.server.seam import Filtered
from ulti.server.tablebots import bot_action
from ulti.server.tablestate import CommandError, TableState
from ulti.store import ActorStore, SeqConflict

#: the trick paces a seated person may ask for (the page's setting ``ulti.trickPause``), as factors of
#: ``Settings.trick_pause``; the table keeps the slowest pace of the people playing at it
PACE_FACTORS = {"fast": 0.5, "normal": 1.0, "slow": 1.6}


def trick_just_taken(deal: Deal) -> bool:
    """Whether the last action completed a trick (the next one is not led yet)."""
    return bool(deal.history) and deal.history[-1].kind is Kind.PLAY and not deal.trick and bool(deal.tricks)



class TableHost(Protocol):
    """What a ``TableActor`` reports to and asks of its host."""

    @property
    def clustered(self) -> bool:
        """Whether several processes share the tables (a refusal is then checked against the log again)."""
        ...

    def filter_event(self, actor: TableActor, seq: int, event: Event) -> Filtered:
        """Event ``seq``, just applied, as each seat watching the table may see it."""
        ...

    async def events_committed(
        self, actor: TableActor, outgoing: list[Filtered], stored: list[tuple[int, Event]]
    ) -> None:
        """A command's events are stored and applied: send them to the watchers (and other processes)."""
        ...

    def lobby_changed(self, table_id: str) -> None:
        """The table's lobby summary changed."""
        ...

    def action_stored(self, by: str) -> None:
        """An action event was stored (``by`` a player or a bot): for the metrics."""
        ...

    async def presence_changed(self, actor: TableActor, seat: int, connected: bool) -> None:
        """A seat's player came (``connected``) or went."""
        ...

    def presence_soon(self, actor: TableActor, seat: int, connected: bool) -> None:
        """``presence_changed`` from synchronous code."""
        ...

    def waiting_changed(self, actor: TableActor) -> None:
        """Whom a table without a time limit waits for, or who agreed to let a bot play, changed."""
        ...

    async def lost_table(self, table_id: str) -> None:
        """Another process stored an event this actor meant to store: the table is no longer ours."""
        ...

    def bot_executor(self, level: str) -> Executor:
        """Where a bot of ``level`` thinks (threads, or processes for the compiled search)."""
        ...

    async def level_for_people(self, player_ids: Sequence[str]) -> str:
        """The level of bots nobody chose that play with or for ``player_ids`` (``bot_choice``)."""
        ...


def deal_due(state: TableState) -> bool:
    """Whether the table's next deal is due: the last one is over and the match goes on, or the match has
    started without its first deal (the start deals it at once, so only a process that died between the
    two events leaves a table so; whoever loads the table next deals it)."""
    return state.status == "playing" and (state.ready_for_next or state.deal is None)


class TableActor:
    """Owns one table's state; every change goes through ``emit`` under the table's lock."""

    def __init__(self, host: TableHost, state: TableState, store: ActorStore, settings: Settings) -> None:
        """An actor for ``state`` (already rebuilt from its stored events), reporting to ``host``."""
        self.host = host
        self.state = state
        self.store = store
        self.settings = settings
        self.lock = asyncio.Lock()
        self.deadline: float | None = None  # epoch seconds by which the seat on turn must act
        self._task: asyncio.Task[None] | None = None  # the pending bot move, timeout or next deal
        self._absence: dict[int, asyncio.Task[None]] = {}
        self._scheduled: tuple[Any, ...] | None = None  # what the pending task is for
        self._outgoing: list[Filtered] = []
        self._stored: list[tuple[int, Event]] = []  # this command's events, for other processes
        self.present: set[int] = set()  # seats whose player has a connection (in any process)
        self.closed = False
        #: when the table was last used here (an event, a request, a watcher leaving): the idle sweep
        #: unloads a table out of the lobby some time after this (monotonic seconds)
        self.idle_since = time.monotonic()
        #: when the table's latest event was stored (epoch seconds): an unstarted table expires some
        #: time after it; the hub sets it from the store when it loads an unstarted table
        self.last_event_at = time.time()
        self._users = 0  # operations running on this actor right now (see in_use)
        #: (deals dealt, monotonic seconds) when this actor first saw that deal's result waiting:
        #: the result's time limit counts from then (from the restart, for a table reloaded meanwhile)
        self._result_since: tuple[int, float] | None = None
        #: the trick pace each seat's player asked for (``pace``): kept in memory, asked again on reconnect
        self.paces: dict[int, str] = {}
        #: ``trick_pause`` and what it was found from: (table changes, configured pause)
        self._trick_pause: tuple[tuple[int, float], float] | None = None
        #: when the latest trick was taken here (monotonic seconds): no bot acts before its pause is over
        self.trick_taken_at = 0.0
        #: at a table without a time limit: the seats waited for, since when their player went (epoch seconds)
        self.offline: dict[int, float] = {}
        #: per waited-for seat, the seats whose players agreed to let a bot play for it
        self.votes: dict[int, set[int]] = {}
        self._settling: asyncio.Task[None] | None = None  # lets a bot play where the agreement became whole
        #: per player away, the level of the bot that plays for them (read once from their rating)
        self._stand_ins: dict[str, str] = {}

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.state.table_id

    @property
    def trick_pause(self) -> float:
        """Seconds a finished trick stays on every screen before a bot leads: the slowest pace asked for
        by the people playing here ("normal" for one who asked nothing, and at a table of bots only)."""
        # asked for every view and event: kept until a pace is asked for or the seats change (an event
        # other than an action, a chat line, a "ready" or a deal dealt), or the configured pause changes
        key = (self.state.table_changes, self.settings.trick_pause)
        kept = self._trick_pause
        if kept is not None and kept[0] == key:
            return kept[1]
        factors = [
            PACE_FACTORS[self.paces.get(i, "normal")]
            for i, s in enumerate(self.state.seats)
            if s.kind == "player" and not s.bot and not s.away
        ]
        pause = round(self.settings.trick_pause * max(factors, default=1.0), 3)
        self._trick_pause = (key, pause)
        return pause

    @property
    def waiting(self) -> list[dict[str, Any]]:
        """The seats a table without a time limit waits for: whose player went when, from when the others
        may let a bot play for it, and who agreed so far (docs/protocol/table.md §14)."""
        if not self.offline or self.state.status != "playing":
            return []
        return [
            {"seat": seat, "since": round(since, 3), "bot_from": round(since + self.settings.let_bot_after, 3),
             "agreed": sorted(self.votes.get(seat, ()))}
            for seat, since in sorted(self.offline.items())
            if not self.state.seats[seat].away
        ]

    def voters(self, seat: int) -> list[int]:
        """The seats whose players decide whether a bot plays for ``seat``: the other people here now."""
        return [
            i for i, s in enumerate(self.state.seats)
            if i != seat and i in self.present and s.kind == "player" and not s.bot and not s.away
        ]

    def _agreed(self, seat: int) -> bool:
        """Whether every person whose agreement a bot needs to play for ``seat`` has given it."""
        votes = self.votes.get(seat)
        return bool(votes) and set(self.voters(seat)) <= set(votes or ())

    async def _let_agreed_bots_play(self) -> None:
        """Mark away every waited-for seat whose agreement is whole (call with the lock held)."""
        for seat in [s for s in sorted(self.offline) if self._agreed(s)]:
            self.offline.pop(seat, None)
            self.votes.pop(seat, None)
            log("a bot plays for an absent player, as the others agreed", table=self.table_id, seat=seat)
            await self.emit(tablerules.agreed_away_event(seat))

    async def let_bot(self, voter: int, seat: int) -> int:
        """``voter``'s player agrees that a bot plays for the absent player of ``seat``; once every other
        person here has, the seat is away (a bot plays for it until its player is back). Returns the event
        number."""

        async def command() -> int:
            waited = next((w for w in self.waiting if w["seat"] == seat), None)
            if waited is None or voter == seat:
                raise CommandError(
                    "not_waiting", f"the table is not waiting for seat {seat}", params={"seat": seat}
                )
            left = self.offline[seat] + self.settings.let_bot_after - time.time()
            if left > 0:
                raise CommandError(
                    "wait_longer",
                    f"a bot may play for an absent player once they have been away {self.settings.let_bot_after:g} s:"
                    f" try again in {math.ceil(left)} s",
                    params={"retry_after": math.ceil(left)},
                )
            self.votes.setdefault(seat, set()).add(voter)
            await self._let_agreed_bots_play()
            self.host.waiting_changed(self)
            return self.state.seq

        return int(await self.run(command))

    def set_pace(self, seat: int, pace: str) -> None:
        """``seat``'s player asked for the trick pace ``pace`` (a key of ``PACE_FACTORS``)."""
        self.paces[seat] = pace
        self._trick_pause = None

    # ---------------------------------------------------------------- the one way state changes

    async def emit(self, event: Event) -> int:
        """Store ``event`` as the next one, apply it, tell every watcher. Call with the lock held."""
        seq = self.state.seq + 1
        await self.store.append(self.table_id, seq, event)
        if seq == 1:
            crash_point("table_begun")  # its first event stored, its row not yet saved
        self.state.apply(event)
        self.last_event_at = time.time()
        self.touch()
        # What each seat may see of the event is fixed now; the views go out once the command is done.
        self._outgoing.append(self.host.filter_event(self, seq, event))
        self._stored.append((seq, event))
        if event["type"] == "action":
            # counted by the process that stored it only (replicas never emit): summing processes is exact
            self.host.action_stored(str(event.get("by", "player")))
        deal_ended = event["type"] == "action" and self.state.deal is not None and self.state.deal.is_over
        if event["type"] == "action" and self.state.deal is not None and trick_just_taken(self.state.deal):
            self.trick_taken_at = time.monotonic()
        if deal_ended and self.state.status == "finished" and not await self._match_over():
            return seq  # the table stays "playing" in the store: whoever loads it next records the match
        if event["type"] in ("created", "sit", "leave", "bot", "start", "away", "resign", "expired") or deal_ended:
            await self.store.save_table(self.table_id, self.state.status, tableviews.summary_row(self.state))
            self.host.lobby_changed(self.table_id)
        return seq

    async def _match_over(self) -> bool:
        """Record the match that just ended (result, seats, ratings); whether it is recorded.

        Before the table is marked finished in the store: a table stored as finished has its result
        stored, and one killed in between is still "playing" there, so the next process to load it
        (a restart, or a takeover in a cluster) finds the match over and records it (``Hub._adopt``).
        """
        crash_point("before_record")
        try:
            await record_result(self.store, self.state)
        except Exception:
            # The final event is stored and the players are told; the result waits for the next load.
            fields = {"fields": {"table": self.table_id}}
            logging.getLogger("ulti").exception("recording the match failed", extra=fields)
            return False
        crash_point("after_record")
        return True

    async def run(self, command: Callable[[], Awaitable[Any]], command_id: str | None = None) -> Any:
        """Run ``command`` under the table's lock, schedule what the new state needs, then broadcast.

        ``command_id`` (player and client id): a command the table carried out already is not run again; its
        event number is the result (a retried command is idempotent). Broadcasting after scheduling means
        every event carries the move deadline it started.
        """
        async with self.lock:
            try:
                try:
                    done = self._carried_out(command_id)
                    result = done if done is not None else await command()
                except CommandError:
                    # In a cluster this process may hold a stale state (see _catch_up): a refusal is
                    # checked again on the log's latest state before it is final.
                    if not self.host.clustered or not await self._catch_up():
                        raise
                    done = self._carried_out(command_id)
                    result = done if done is not None else await command()
            finally:
                self.schedule()
                outgoing, self._outgoing = self._outgoing, []
                stored, self._stored = self._stored, []
                await self.host.events_committed(self, outgoing, stored)
        return result

    def _carried_out(self, command_id: str | None) -> int | None:
        """The event number of the command ``command_id`` if the table carried it out already."""
        return None if command_id is None else self.state.recent_commands.get(command_id)

    async def _catch_up(self) -> bool:
        """Apply events another process stored after this one loaded the table; True if there were any.

        A lease can expire under a process that is merely slow; the log stays linear (an event number
        is stored once), and whoever holds the table now applies what the other one wrote. A stale
        state shows either as a refused command (checked again after this) or as a ``SeqConflict``
        when storing (the table is then dropped and reloaded).
        """
        missed = [parse_event(raw) for raw in await self.store.events(self.table_id, after=self.state.seq)]
        for event in missed:
            self.state.apply(event)
            self._outgoing.append(self.host.filter_event(self, self.state.seq, event))
        return bool(missed)

    # ---------------------------------------------------------------- commands

    async def act(
        self, seat: int, action: object, by: Literal["player", "bot"] = "player", command_id: str | None = None
    ) -> int:
        """A seat's game action (an ``Action`` read at the edge, ``commands.read_action``); its event number."""

        async def command() -> int:
            event = tablerules.action_event(self.state, seat, action, by)  # every rule of the table and the game
            if tablerules.repeats_a_decline(self.state, event):
                return self.state.seq  # legal, and changes nothing: not stored
            if command_id is not None:
                event["cid"] = command_id
            back = tablerules.back_event(self.state, seat) if by == "player" else None
            if back is not None:
                # A player who acts is back (only once the action is known to be legal).
                await self.emit(back)
            return await self.emit(event)

        return int(await self.run(command, command_id))

    async def ready(self, seat: int, command_id: str | None = None) -> int:
        """``seat``'s player clicked "Next deal"; returns the event number (idempotent)."""

        async def command() -> int:
            event = tablerules.ready_event(self.state, seat)
            if event is None:
                return self.state.seq  # said already: nothing to store
            if command_id is not None:
                event["cid"] = command_id
            return await self.emit(event)

        return int(await self.run(command, command_id))

    async def say(
        self, seat: int | None, name: str, text: str | None, phrase: str | None, command_id: str | None = None
    ) -> int:
        """A chat line by ``name`` (at ``seat``, or a spectator); returns the event number (idempotent)."""

        async def command() -> int:
            event = tablerules.chat_event(self.state, seat, name, text, phrase)
            if command_id is not None:
                event["cid"] = command_id
            return await self.emit(event)

        return int(await self.run(command, command_id))

    async def back(self, seat: int) -> None:
        """The player of ``seat`` is here again: the bot stops playing for it."""

        async def command() -> None:
            task = self._absence.pop(seat, None)
            if task is not None:
                task.cancel()
            waited = self.offline.pop(seat, None) is not None
            self.votes.pop(seat, None)
            if waited:
                self.host.waiting_changed(self)
            if seat not in self.present:
                self.present.add(seat)
                await self.host.presence_changed(self, seat, True)
            # a player who resigned watches the bot play their seat: coming back does not take it over
            back = tablerules.back_event(self.state, seat)
            if back is not None:
                await self.emit(back)

        await self.run(command)

    async def resign(self, player_id: str) -> int:
        """``player_id`` resigns the match: the seat goes to a bot for good (``tablerules.resign_event``)."""

        async def command() -> int:
            return await self.emit(tablerules.resign_event(self.state, player_id))

        return int(await self.run(command))

    def player_left(self, seat: int) -> None:
        """The last connection of ``seat``'s player closed: at a table with a time limit, or a duplicate
        event's, a bot plays for it after a grace period; at one without, the table waits for the player
        (``waiting``)."""
        if seat in self.present:
            self.present.discard(seat)
            self.host.presence_soon(self, seat, False)
        # a voter who left no longer holds up the others' agreement (nor counts in it)
        for agreed in self.votes.values():
            agreed.discard(seat)
        if any(self._agreed(s) for s in self.offline) and (self._settling is None or self._settling.done()):
            self._settling = asyncio.create_task(self._settle())
        if self.state.status != "playing" or seat in self._absence:
            return
        info = self.state.seats[seat]
        if self.state.move_seconds == 0 and self.state.duplicate_id is None and info.kind == "player" and not info.bot:
            # nothing is played in a person's name unseen: the others see whom they wait for, and since when
            # (an event's table keeps the grace: every table must finish for the event's standings)
            if not info.away and seat not in self.offline:
                self.offline[seat] = time.time()
                self.host.waiting_changed(self)
            return

        async def absent() -> None:
            await asyncio.sleep(self.settings.disconnect_grace)
            self._absence.pop(seat, None)

            async def command() -> None:
                gone = tablerules.gone_event(self.state, seat)
                if gone is not None:
                    await self.emit(gone)

            await self.run(command)

        self._absence[seat] = asyncio.create_task(absent())

    # ---------------------------------------------------------------- what happens by itself

    def turn_key(self) -> tuple[Any, ...]:
        """What a pending bot move or timer depends on: it is stale once this changes (chat does not)."""
        state = self.state
        deal = state.deal
        return (
            state.status,
            len(state.match.deals) if state.match else 0,
            len(deal.history) if deal else 0,
            state.ready_for_next,
            tuple(state.waiting_for_ready()),
            tuple(state.bot_seats()),
        )

    def schedule(self) -> None:
        """Start the bot move, the move timer or the next deal that the current state calls for.

        A task already pending for the same turn is kept, so chat and reconnects never reset a timer.
        """
        key = self.turn_key()
        if self._scheduled == key and self._task is not None and not self._task.done():
            return
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self._scheduled = key
        self.deadline = None
        if self.closed:
            return
        state = self.state
        if deal_due(state):
            self._task = asyncio.create_task(self._next_deal(key, self._result_delay()))
            return
        deal = state.deal
        if state.status != "playing" or deal is None or deal.is_over:
            return
        assert deal.to_move is not None  # a deal not over has a seat on turn
        seat = state.table_seat(deal.to_move)  # at a table of four the deal's seat is played by another table seat
        if seat in state.bot_seats():
            self._task = asyncio.create_task(self._bot_move(seat, key))
        elif state.move_seconds > 0:
            self.deadline = time.time() + state.move_seconds
            self._task = asyncio.create_task(self._timeout(seat, key, state.move_seconds))

    def _result_delay(self) -> float:
        """Seconds until the next deal: a short pause once nobody is left to click "Next deal", else
        what remains of the result's time limit (whose end becomes the table's ``deadline``)."""
        dealt = len(self.state.match.deals) if self.state.match else 0
        now = time.monotonic()
        if self._result_since is None or self._result_since[0] != dealt:
            self._result_since = (dealt, now)
        elapsed = now - self._result_since[1]
        if not self.state.waiting_for_ready():
            return max(0.0, self.settings.between_deals - elapsed)
        left = max(0.0, self.settings.result_seconds - elapsed)
        self.deadline = time.time() + left
        return left

    async def _next_deal(self, key: tuple[Any, ...], delay: float) -> None:
        await asyncio.sleep(delay)

        async def command() -> None:
            if self.turn_key() == key and deal_due(self.state):
                await self.emit(tablerules.next_deal_event(self.state))

        await self._background(command)

    async def _level_at(self, seat: int) -> str:
        """The level of the bot that acts for ``seat``: a bot seat's own; for a person who is away (or
        resigned), the ladder's level nearest their rating, read once per player (``bot_choice``)."""
        seat_info = self.state.seats[seat]
        if seat_info.kind == "bot":
            return seat_info.level or "heuristic"  # a bot seat stored without a level (older tables)
        player_id = seat_info.player_id or ""
        level = self._stand_ins.get(player_id)
        if level is None:
            level = self._stand_ins[player_id] = await self.host.level_for_people([player_id])
        return level

    async def _bot_move(self, seat: int, key: tuple[Any, ...]) -> None:
        # The answer goes out once the bot's pacing (bot_delay) since its turn began has passed, however
        # short its thinking was: thinking starts at once and the wait comes after it, so a forced card
        # (no search) comes no sooner than a searched one and the answer's time tells nothing of the hand.
        loop = asyncio.get_running_loop()
        # A bot acts (leads, follows a person's quick lead, or speaks in the kontra chain after trick 1)
        # only once the trick taken last has been seen and cleared on every screen: the table's trick
        # pause from when it was taken, the same for any hand. Then its usual pacing.
        deal = self.state.deal
        start = loop.time()
        if deal is not None and deal.tricks:
            start += max(0.0, self.trick_taken_at + self.trick_pause - time.monotonic())
        answer_at = start + self.settings.bot_delay
        # The event that began the turn goes out first (its writers are already scheduled): a search
        # started before them would delay it on a busy machine, a hint of a search in the clock again.
        await asyncio.sleep(0)
        level = await self._level_at(seat)
        deal = self.state.deal
        if deal is None or self.turn_key() != key:
            return
        played = self.state.engine_seat(seat)
        if played is None:  # pragma: no cover - a seat sitting out is never on turn
            return
        view = deal.seat_view(played)  # immutable and picklable: strong bots think in another process
        # The bot's seed depends only on the game state, so a replayed table makes the same moves.
        seed = f"{self.state.seed}:{len(self.state.match.deals) if self.state.match else 0}:{len(deal.history)}"
        # Bots think off the event loop so that one table's bot never stalls another table.
        # Strong bots search in compiled code that holds the interpreter lock: they think in another process.
        executor = self.host.bot_executor(level)
        thinking = loop.run_in_executor(executor, noted_bot_action, level, view, seed)
        try:
            action, note = await asyncio.wait_for(thinking, self.settings.bot_budget)
        except TimeoutError:
            # Over its time budget: a random legal action keeps the table moving (the thread is left to finish).
            log("bot over its time budget", logging.WARNING, table=self.table_id, seat=seat, bot=level)
            action, note = bot_action("random", view, seed), None
        wait = answer_at - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)  # thinking took less than the pacing: the rest of it, then the answer

        async def command() -> None:
            if self.turn_key() != key:
                return  # the state moved on while the bot was thinking
            event = tablerules.action_event(self.state, seat, action, "bot")
            if note is not None and self.state.learner:
                # a learner table's bidding log shows why a bot bid (docs/protocol/analysis.md §22.5)
                event["note"] = bid_note(note)
            await self.emit(event)

        await self._background(command)

    async def _settle(self) -> None:
        """The agreement for some waited-for seat became whole when a person left: a bot plays for it."""

        async def command() -> None:
            await self._let_agreed_bots_play()
            self.host.waiting_changed(self)

        try:
            await self.run(command)
        except SeqConflict:
            await self.host.lost_table(self.table_id)

    async def _timeout(self, seat: int, key: tuple[Any, ...], seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.state.seats[seat].bot:
            # A bot account (the bot API) that is slow is not "away": the built-in bot plays this one
            # turn for it, and the next turn is the bot account's again (docs/bot-api.md).
            log("move time ran out", table=self.table_id, seat=seat)
            await self._bot_move(seat, key)
            return

        async def command() -> None:
            gone = tablerules.gone_event(self.state, seat) if self.turn_key() == key else None
            if gone is not None:
                log("move time ran out", table=self.table_id, seat=seat)
                await self.emit(gone)

        await self._background(command)

    async def _background(self, command: Callable[[], Awaitable[None]]) -> None:
        # Runs in the scheduled task itself: release the reference first so schedule() does not cancel us.
        self._task = None
        self._scheduled = None
        try:
            await self.run(command)
        except CommandError as exc:  # pragma: no cover - a bot's action is always legal
            log("background command refused", logging.ERROR, table=self.table_id, error=exc.message)
        except SeqConflict:
            # Another process holds this table now: stop acting for it here.
            await self.host.lost_table(self.table_id)
        except Exception:  # pragma: no cover - keep the table alive, but say so loudly
            logging.getLogger("ulti").exception("background task failed", extra={"fields": {"table": self.table_id}})

    # ---------------------------------------------------------------- idle tables (see Hub.sweep)

    def touch(self) -> None:
        """Note that the table was just used: its idle time starts again."""
        self.idle_since = time.monotonic()

    def in_use(self) -> _InUse:
        """Keep the table loaded while an operation runs on it (it may wait before taking the lock): a
        context manager (a class, not a generator: every command enters one)."""
        return _InUse(self)

    def is_busy(self) -> bool:
        """Whether unloading the table now would lose work: an operation, a command, a pending task."""
        pending = [self._task, self._settling, *self._absence.values()]
        return self._users > 0 or self.lock.locked() or any(t is not None and not t.done() for t in pending)

    async def expire_if_due(self, after_seconds: float) -> bool:
        """Expire the table if its match never started and nothing happened for ``after_seconds``."""

        def due() -> bool:
            return self.state.status == "open" and time.time() - self.last_event_at >= after_seconds

        async def command() -> bool:
            if not due():  # checked again under the lock: someone may have sat down meanwhile
                return False
            log("unstarted table expired", table=self.table_id, idle=round(time.time() - self.last_event_at))
            await self.emit({"type": "expired"})
            return True

        return due() and bool(await self.run(command))

    def close(self) -> None:
        """Stop every pending task (server shutdown, or the table is unloaded or moved)."""
        self.closed = True
        for task in [self._task, self._settling, *self._absence.values()]:
            if task is not None:
                task.cancel()


class _InUse:
    """``TableActor.in_use``: counts an operation in the table's users while it runs."""

    __slots__ = ("_actor",)

    def __init__(self, actor: TableActor) -> None:
        self._actor = actor

    def __enter__(self) -> None:
        self._actor._users += 1

    def __exit__(self, *exc: object) -> None:
        actor = self._actor
        actor._users -= 1
        actor.touch()
