"""The hub: this process's table actors and replicas, its connections, the lobby and its chat.

It holds collaborators, one concern each, each built with only what it uses (see ``hubcore.py``):
``ownership.Ownership``, ``broadcast.Broadcaster``, ``lobby.Lobby``, ``connections.Attendance``,
over one ``hubcore.TableRegistry`` of actors, replicas and connections; this module runs the tables'
commands and reads them, and forwards the few calls others make of the hub as before.

Every change to a table is a command (``commands.Command``: ``Join``, ``Play``, ``Say``, ``Back``, …)
run by the table's actor in the process that owns the table. In one process that is always this one.
With ``--redis`` (``cluster.py``) the hub sends the command to the owner in its JSON form, takes a table
over when its owner is gone, and keeps a replica of every table its clients watch, fed by the owner's
events.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, assert_never

from ulti.bots.levels import level_searches
from ulti.queue.botturns import QueueExecutor
from ulti.server import tablerules, tableviews
from ulti.server.actor import TableActor
from ulti.server.auth import new_id
from ulti.server.bot_choice import NEWCOMERS_LEVEL, level_for_players
from ulti.server.broadcast import Broadcaster
from ulti.server.cluster import Cluster, OwnerUnavailable
from ulti.server.commands import (
    AddBot,
    Back,
    Command,
    Join,
    Leave,
    Left,
    LetBot,
    Play,
    Ready,
    Rematch,
    RematchJoin,
    Resign,
    Say,
    SetPace,
    Start,
    StorePar,
    command_from_json,
    command_to_json,
)
from ulti.server.config import Settings
from ulti.server.connections import Attendance
from ulti.server.events import Created, Event, SeatSpec, Sit
from ulti.server.hubcore import (
    ROUTING_ATTEMPTS,
    Connection,
    Replica,
    TableRegistry,
    load_state,
)
from ulti.server.lobby import Lobby
from ulti.server.logs import log
from ulti.server.longwork import BotTurns, CountedExecutor, PeopleAtPlay, end_with_server
from ulti.server.metrics import Metrics
from ulti.server.ownership import Ownership
from ulti.server.results import crash_point, record_if_unrecorded
from ulti.server.seam import Filtered, TableSource
from ulti.server.seeks import Matchmaker
from ulti.server.table_settings import BotSeat, InviteSeat, TableSettings
from ulti.server.tablebots import bot_name, bot_player_id
from ulti.server.tablestate import (
    CommandError,
    TableState,
)
from ulti.server.throttle import Throttle
from ulti.server.visibility import require_live
from ulti.server.workdesk import Desk, queue_runner
from ulti.store import HubStore, SeqConflict

__all__ = ["Connection", "Hub", "Replica", "TableSource"]


class Hub:
    """Everything live in this server process."""

    def __init__(
        self, store: HubStore, settings: Settings, cluster: Cluster | None = None, metrics: Metrics | None = None
    ) -> None:
        """A hub over ``store`` (and ``cluster`` when several processes share the work).

        ``metrics`` (the app's, served at /metrics) read this hub's counts; a hub without an app gets its own.
        """
        self.store = store
        self.settings = settings
        self.cluster = cluster
        #: this process's actors, replicas and connections, shared by the collaborators below
        self.tables = TableRegistry()
        # the registry's parts under the names the routes, the metrics and the bot API read them by
        self.actors = self.tables.actors
        self.replicas = self.tables.replicas
        self.connections = self.tables.connections
        self.metrics = metrics if metrics is not None else Metrics(process=False)
        self.metrics.watch(self)
        self.executor = ThreadPoolExecutor(max_workers=settings.bot_threads, thread_name_prefix="bot")
        self.throttle = Throttle(settings.quotas, settings.rate_per_second)
        self._tasks: set[asyncio.Task[None]] = set()
        self._processes: CountedExecutor | None = None
        #: what each watcher is sent, and the replicas of tables other processes own
        self.broadcaster = Broadcaster(self.tables, store, cluster, self._spawn)
        #: which tables this process acts for; expiring and unloading idle ones
        self.ownership = Ownership(self.tables, store, settings, cluster, self._adopt, self.broadcaster.replica)
        #: the lobby's list of tables, pushed as changes, and its chat
        self.lobby = Lobby(self.tables, store, cluster, self._spawn, lambda players: self.seeks.deliver(players))
        #: the lobby's seeks and its count of people online and playing (seeks.py)
        self.seeks = Matchmaker(self, self.tables.plays_now)
        #: who is at which table: presence, closed connections, command ids already used
        self.attendance = Attendance(self.tables, cluster, self.seeks.closed, self._player_left)
        #: the strong bots' turns thinking now: long work starts nothing while there is one
        self.bot_turns = BotTurns()
        #: when a person last acted here: long work waits for a pause in people's play
        self.people = PeopleAtPlay()
        #: long work (analyses, par replays, what-if lines, hints): its own low-priority workers, never the bots'
        self.desk = Desk(settings.long_work_processes, settings.work, self.metrics.long_work_started, self.bot_turns,
                         self.people, queue_runner(settings))
        self.metrics.watch_long_work(self.desk.work)
        #: told of every command's stored events by the table's owner (the bot API's account events)
        self.commit_listeners: list[Callable[[TableState, list[tuple[int, Event]]], None]] = []

    # ---------------------------------------------------------------- start and stop

    async def load(self) -> None:
        """Resume the unfinished tables: all of them alone, or the ownerless ones in a cluster."""
        if self.cluster is not None:
            cluster = self.cluster
            cluster.on_request = self._on_request
            cluster.on_table_event = self.broadcaster.on_table_event
            cluster.on_lobby = self.lobby.on_cluster_message
            cluster.on_lease_lost = self.ownership.on_lease_lost
            await cluster.start()
            self._spawn(self.ownership.adopt_orphans_forever())
            self._spawn(self.ownership.sweep_forever())
            self._spawn(self.seeks.run_forever())
            return
        for table_id in await self.store.table_ids(["open", "playing"]):
            await self._adopt(table_id)
        self._spawn(self.ownership.sweep_forever())
        self._spawn(self.seeks.run_forever())

    def _spawn(self, coro: Awaitable[None]) -> None:
        """Run ``coro`` in the background for as long as the hub (``close`` cancels it)."""
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---------------------------------------------------------------- the actors' host (actor.TableHost)

    @property
    def clustered(self) -> bool:
        """Whether several processes share the tables."""
        return self.cluster is not None

    def bot_executor(self, level: str) -> Executor:
        """Threads for quick bots; worker processes for the bots whose compiled search holds the GIL
        (strong, expert: ``ulti.bots.levels.Level.searches``)."""
        return self.process_executor() if level_searches(level) else self.executor

    async def level_for_people(self, player_ids: Sequence[str]) -> str:
        """The level of bots nobody chose that play with or for ``player_ids`` (a seek's free seats, an away
        player's stand-in): the ladder's nearest their settled ratings (``bot_choice``). A failed read of
        the ratings costs the choice, never the table: the lowest rung plays."""
        try:
            return await level_for_players(self.store, player_ids)
        except Exception:
            logging.getLogger("ulti").exception("ratings unread: the lowest rung plays")
            return NEWCOMERS_LEVEL

    def action_stored(self, by: str) -> None:
        """Count a stored action; a person's tells long work they are playing."""
        self.metrics.action_done(by)
        if by == "player":
            self.people.acted()

    async def events_committed(
        self, actor: TableActor, outgoing: list[Filtered], stored: list[tuple[int, Event]]
    ) -> None:
        """Send a command's events to the watchers here, then to the other processes."""
        self.broadcaster.broadcast_events(actor, outgoing)
        await self.broadcaster.publish(actor, stored)
        for listener in self.commit_listeners:
            listener(actor.state, stored)

    def process_executor(self) -> Executor:
        """The worker processes for bots whose search would hold the interpreter lock (made on first use).

        Bot turns only: long work has its own low-priority processes (``self.desk``), so a bot's turn
        never queues behind it, and starts nothing while a turn here is thinking (``longwork.py``)."""
        if self._processes is None and self.settings.bots_on_queue and self.desk.work.queue is not None:
            self._processes = CountedExecutor(QueueExecutor(self.desk.work.queue, self.settings.bot_budget),
                                              self.bot_turns)
        if self._processes is None:
            pool = ProcessPoolExecutor(
                max_workers=self.settings.bot_processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_server, initargs=(os.getpid(),),
            )
            self._processes = CountedExecutor(pool, self.bot_turns)
        return self._processes

    def close(self) -> None:
        """Stop all actors, background tasks and the bot threads and processes."""
        for actor in self.actors.values():
            actor.close()
        for task in self._tasks:
            task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
        self.desk.close()

    async def _adopt(self, table_id: str) -> TableActor:
        """Become the live actor of ``table_id`` (its lease already held in a cluster)."""
        state = await load_state(self.store, table_id)
        if state.status == "finished":
            # Its match ended just before the process that held it died: record the result (once,
            # whoever else tries) and mark the table finished, which that process had no time to do.
            await record_if_unrecorded(self.store, state)
            await self.store.save_table(table_id, state.status, tableviews.summary_row(state))
            self.lobby_changed(table_id)
        actor = TableActor(self, state, self.store, self.settings)
        if state.status == "open":
            # an unstarted table's expiry counts from its last stored event, not from this restart
            actor.last_event_at = await self.store.last_event_at(table_id) or actor.last_event_at
        self.actors[table_id] = actor
        self.replicas.pop(table_id, None)
        actor.schedule()
        # Whoever was connected to a process that is gone gets the usual grace period to come back.
        present = self.attendance.is_present
        for seat, info in enumerate(state.seats):
            if info.kind == "player" and not info.away and not await present(table_id, info.player_id):
                actor.player_left(seat)
            elif info.kind == "player":
                actor.present.add(seat)
        log("table resumed", table=table_id, seq=state.seq)
        return actor

    # ---------------------------------------------------------------- commands

    async def execute(self, table_id: str, command: Command) -> Any:
        """Run ``command`` on ``table_id`` at its owner; raise ``CommandError`` when refused."""
        if self.cluster is None:
            return await self._run(await self._local_actor(table_id), command)
        for _ in range(ROUTING_ATTEMPTS):
            actor = self.actors.get(table_id)
            if actor is not None and table_id in self.cluster.owned:
                try:
                    return await self._run(actor, command)
                except SeqConflict:
                    await self.ownership.drop(table_id)  # another process took the table over
                    continue
            owner = await self.cluster.owner_of(table_id)
            if owner is None or owner == self.cluster.process_id:
                if not await self.ownership.take_over(table_id):
                    await asyncio.sleep(0.05)
                continue
            try:
                reply = await self.cluster.request(owner, {"table": table_id, "command": command_to_json(command)})
            except OwnerUnavailable:
                await asyncio.sleep(0.25)  # its lease expires within seconds; then someone takes over
                continue
            if reply.get("moved"):
                continue
            if "error" in reply:
                raise CommandError.from_json(reply["error"])
            return reply.get("result")
        raise CommandError("unavailable", "the server that holds this table is not answering; try again")

    async def _run(self, actor: TableActor, command: Command) -> Any:
        """Run ``command`` on ``actor``, which the idle sweep does not unload meanwhile."""
        with actor.in_use():
            return await self._handle(actor, command)

    async def _handle(self, actor: TableActor, command: Command) -> Any:
        """What each command does at the table's owner (one case per kind of ``commands.Command``)."""
        match command:
            case Play(player=player, action=action, cid=cid):  # nearly every command: matched first
                return await actor.act(tablerules.acting_seat(actor.state, player), action, command_id=cid)
            case Join():
                return await self._join(actor, command)
            case Leave(player=player):
                return await actor.run(lambda: actor.emit(tablerules.leave_event(actor.state, player)))
            case AddBot(player=player, seat=seat, level=level):
                return await actor.run(lambda: actor.emit(tablerules.add_bot_event(actor.state, player, seat, level)))
            case Start():
                return await self._start(actor, command)
            case Say(player=player, name=name, text=text, phrase=phrase, cid=cid):
                return await actor.say(actor.state.seat_of(player), name, text, phrase, cid)
            case Back(player=player):
                await actor.back(tablerules.acting_seat(actor.state, player))
                return actor.state.seq
            case Ready(player=player, cid=cid):
                return await actor.ready(tablerules.acting_seat(actor.state, player), command_id=cid)
            case Left(player=player):
                seat = actor.state.seat_of(player)
                if seat is not None and not await self.attendance.is_present(actor.table_id, player):
                    actor.player_left(seat)
                return None
            case Resign(player=player):
                return await actor.resign(player)
            case Rematch():
                return await self._rematch(actor, command)
            case RematchJoin():
                return await self._rematch_join(actor, command)
            case SetPace(player=player, pace=pace):
                paced = actor.state.seat_of(player)
                if paced is not None:
                    actor.set_pace(paced, pace)
                return None
            case LetBot(player=player, seat=seat):
                return await actor.let_bot(tablerules.acting_seat(actor.state, player), seat)
            case StorePar():
                return await self._store_par(actor, command)
            case _:
                assert_never(command)

    async def _local_actor(self, table_id: str) -> TableActor:
        """This process's actor of ``table_id`` (one process), loaded from the log if it was unloaded."""
        actor = self.actors.get(table_id)
        if actor is None:
            state = await load_state(self.store, table_id)
            # Another request may have loaded the table while this one read the log: two actors of
            # one table would store conflicting events, so the first one loaded is the one kept.
            actor = self.actors.get(table_id)
            if actor is None:
                actor = TableActor(self, state, self.store, self.settings)
                self.actors[table_id] = actor
        actor.touch()
        return actor

    async def _on_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A command sent by another process to this one, the owner (``commands.command_to_json``)."""
        assert self.cluster is not None
        table_id = payload["table"]
        actor = self.actors.get(table_id)
        if actor is None or table_id not in self.cluster.owned:
            return {"moved": True}
        try:
            return {"result": await self._run(actor, command_from_json(payload["command"]))}
        except CommandError as exc:
            return {"error": exc.to_json()}
        except SeqConflict:
            await self.ownership.drop(table_id)
            return {"moved": True}

    async def create_table(
        self, player_id: str, name: str, settings: TableSettings, account: bool = False,
        event: tuple[str, int] | None = None, rematch_of: str | None = None, table_id: str | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Create a table for ``player_id`` (``account``: not a guest) here; returns its id and its invite tokens.

        ``settings`` were parsed where the request arrived (``table_settings.parse_settings``), which
        checked every rule of settings alone; here only who asks and this server's policy are checked.
        ``event``: (id, seed) of the duplicate event the table belongs to: its deals come from the event's
        seed (the same cards at every table of the event), kept secret like any table's (duplicate_routes.py).
        ``rematch_of``: the finished table this one is the rematch of (its other players take their seats
        from there, ``rematch``). ``table_id``: the id to give it (a tournament names its tables in its log
        before creating them, so that a director resuming after a crash creates each one once).
        """
        if settings.rated and not account:
            raise CommandError("account_required", "only accounts host and play rated tables: register or log in")
        seed, chosen = self._table_seed(settings) if event is None else (event[1], True)
        me = settings.host_seat
        if me is not None:
            await self.refuse_bot_account(player_id)
        table_id = table_id or new_id()
        specs: list[SeatSpec] = []
        invites: dict[int, str] = {}
        bot_names: list[str] = []
        for i, seat in enumerate(settings.seats):
            match seat:
                case BotSeat(level=level):
                    # named as the created event will be applied (two bots of a level read apart)
                    bot_names.append(bot_name(level, bot_names))
                    specs.append({"kind": "bot", "level": level, "player": bot_player_id(bot_names[-1])})
                case InviteSeat():
                    invites[i] = new_id()
                    specs.append({"kind": "invite", "invite": invites[i]})
                case _:  # open, or the host's own (taken below)
                    specs.append({"kind": "open"})
        if self.cluster is not None and not await self.cluster.acquire(table_id):  # pragma: no cover - fresh id
            raise CommandError("unavailable", "could not create the table; try again")
        actor = TableActor(self, TableState(table_id), self.store, self.settings)
        self.actors[table_id] = actor
        created: Created = {"type": "created", "host": player_id, "deals": settings.deals,
                            "move_seconds": settings.move_seconds, "seed": seed, "chosen_seed": chosen,
                            "practice": chosen and event is None and not self.settings.allow_chosen_seeds,
                            "host_name": name, "seats": specs}
        if settings.rated:
            created["rated"] = True
        if settings.learner:
            created["learner"] = True
        if settings.duplicate:
            created["duplicate"] = True
        if event is not None:
            created["event"] = event[0]
        if rematch_of is not None:
            created["rematch_of"] = rematch_of

        async def command() -> None:
            await actor.emit(created)
            if me is not None:
                await self._sit(actor, me, player_id, name)

        try:
            await actor.run(command)
        except SeqConflict:
            # The id's log has begun already: a process died after storing its first event and before
            # saving its row (a tournament names its tables before making them), or another owner made
            # it a moment ago. That log is the table; this empty actor must not stand in for it.
            actor.close()
            if self.actors.get(table_id) is actor:
                del self.actors[table_id]
            raise
        return table_id, invites

    def _table_seed(self, settings: TableSettings) -> tuple[int, bool]:
        """The table's seed and whether its creator chose it.

        A chosen seed fixes every deal, so whoever knows it knows every hand: it is accepted only
        where nobody can profit (a test server, or a practice table where every other seat is a bot
        and nobody else may join). Otherwise the seed is the server's secret and the deals are drawn
        from the operating system's randomness, not from the seed at all.
        """
        if settings.seed is None:
            return random.SystemRandom().getrandbits(63), False
        if not self.settings.allow_chosen_seeds and any(seat.kind not in ("bot", "me") for seat in settings.seats):
            raise CommandError(
                "seed_not_allowed",
                "a seed fixes every hand, so it may be chosen only at a practice table (you and bots only)",
            )
        return settings.seed, True

    async def _sit(self, actor: TableActor, seat: int, player_id: str, name: str, bot: bool = False) -> None:
        sit: Sit = {"type": "sit", "seat": seat, "player": player_id, "name": name}
        if bot:
            sit["bot"] = True  # a bot account, seated through the bot API (botapi.py)
        await actor.emit(sit)
        await self.store.add_table_player(actor.table_id, player_id, seat)

    async def _join(self, actor: TableActor, join: Join) -> int:
        if not join.bot:
            await self.refuse_bot_account(join.player)

        async def command() -> int:
            event = tablerules.join_event(
                actor.state, join.player, join.name, join.seat, join.invite, join.account, join.via_event
            )
            await self._sit(actor, event["seat"], join.player, join.name, join.bot)
            return int(event["seat"])

        return int(await actor.run(command))

    async def _start(self, actor: TableActor, start: Start) -> None:
        async def command() -> None:
            for event in tablerules.start_events(actor.state, start.player, start.fill_bots, start.level):
                await actor.emit(event)
            crash_point("table_started")  # its start stored, its first deal not yet dealt
            await actor.emit(tablerules.next_deal_event(actor.state))

        await actor.run(command)

    async def refuse_bot_account(self, player_id: str) -> None:
        """A bot account takes seats through the bot API only (docs/bot-api.md), never as a person."""
        if await self.store.is_bot_account(player_id):
            raise CommandError("bot_account", "a bot account plays through the bot API only (docs/bot-api.md)")

    async def _rematch(self, actor: TableActor, rematch: Rematch) -> dict[str, Any]:
        """The rematch of a finished table: made by the first seated player who asks (the table's lock
        keeps two asking at once from making two), found by the others, who take their seats in it."""

        async def command() -> dict[str, Any]:
            state = actor.state
            seat = tablerules.rematch_seat(state, rematch.player)
            if state.rematch is not None:
                return {"table": state.rematch["table"], "seat": seat, "made": False}
            new_id, _ = await self.create_table(
                rematch.player, rematch.name, tablerules.rematch_config(state, seat), rematch.account,
                rematch_of=actor.table_id,
            )
            await actor.emit(tablerules.rematch_event(seat, new_id))
            return {"table": new_id, "seat": seat, "made": True}

        answer: dict[str, Any] = await actor.run(command)
        return answer

    async def _rematch_join(self, actor: TableActor, join: RematchJoin) -> None:
        async def command() -> None:
            state = actor.state
            if state.seat_of(join.player) is None:
                event = tablerules.rematch_join_event(state, join.player, join.name, join.old, join.seat, join.account)
                await self._sit(actor, event["seat"], join.player, join.name)
            await self._start_rematch_if_full(actor)

        await actor.run(command)

    async def _store_par(self, actor: TableActor, par: StorePar) -> int:
        """Solo duplicate: store the par of a deal unless it has one (a job run twice stores it once)."""

        async def command() -> int:
            if par.index in actor.state.par:
                return actor.state.seq
            return await actor.emit(par.event)

        return int(await actor.run(command))

    async def _start_rematch_if_full(self, actor: TableActor) -> None:
        """A rematch starts itself once every seat is taken: each person has accepted by taking theirs."""
        state = actor.state
        if state.status == "open" and all(s.kind in ("player", "bot") for s in state.seats):
            for event in tablerules.start_events(state, state.host, fill_bots=False):
                await actor.emit(event)
            await actor.emit(tablerules.next_deal_event(state))

    async def _player_left(self, table_id: str, player_id: str) -> None:
        """The player's last connection to the table closed: its owner starts the absence countdown."""
        await self.execute(table_id, Left(player_id))

    # the actors' host (actor.TableHost): what the broadcaster, the lobby and ownership answer

    def filter_event(self, actor: TableActor, seq: int, event: Event) -> Filtered:
        """Event ``seq`` as each seat watching the table may see it (``Broadcaster.filter_event``)."""
        return self.broadcaster.filter_event(actor, seq, event)

    async def presence_changed(self, actor: TableActor, seat: int, connected: bool) -> None:
        """Tell the table's watchers that a seat's player came or went (``Broadcaster.presence_changed``)."""
        await self.broadcaster.presence_changed(actor, seat, connected)

    def presence_soon(self, actor: TableActor, seat: int, connected: bool) -> None:
        """``presence_changed`` from synchronous code."""
        self.broadcaster.presence_soon(actor, seat, connected)

    def waiting_changed(self, actor: TableActor) -> None:
        """Tell the table's watchers whom it waits for (``Broadcaster.waiting_changed``)."""
        self.broadcaster.waiting_changed(actor)

    def lobby_changed(self, table_id: str) -> None:
        """The table's lobby entry changed (``Lobby.lobby_changed``)."""
        self.lobby.lobby_changed(table_id)

    async def lost_table(self, table_id: str) -> None:
        """Another process stored an event this one meant to: give the table up (``Ownership.lost_table``)."""
        await self.ownership.lost_table(table_id)

    # for the routes, the socket and the bot API, under the names they have always called

    def table_view(
        self, source: TableSource, seat: int | None, like: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The table's view for ``seat`` with presence and deadline (``Broadcaster.table_view``)."""
        return self.broadcaster.table_view(source, seat, like)

    async def open_tables(self) -> list[dict[str, Any]]:
        """The lobby list (``Lobby.open_tables``)."""
        return await self.lobby.open_tables()

    @property
    def lobby_chat(self) -> deque[dict[str, Any]]:
        """The lobby chat's last lines (``Lobby.chat``)."""
        return self.lobby.chat

    async def lobby_message(self, conn: Connection, text: str) -> None:
        """A lobby chat line from ``conn`` (``Lobby.lobby_message``)."""
        await self.lobby.lobby_message(conn, text)

    def seen_client_id(self, player_id: str, client_id: str) -> bool:
        """Whether ``client_id`` was already used by ``player_id`` (``Attendance.seen_client_id``)."""
        return self.attendance.seen_client_id(player_id, client_id)

    async def disconnected(self, conn: Connection) -> None:
        """``conn`` closed (``Attendance.disconnected``)."""
        await self.attendance.disconnected(conn)

    async def unload(self, table_id: str, actor: TableActor) -> None:
        """Forget an idle table here (``Ownership.unload``); account erasure calls it too."""
        await self.ownership.unload(table_id, actor)

    async def sweep(self) -> None:
        """Expire and unload the idle tables now (``Ownership.sweep``)."""
        await self.ownership.sweep()

    # public entry points used by the HTTP API and the socket

    async def join(
        self, table_id: str, player_id: str, name: str, seat: object, invite: object, account: bool = False
    ) -> int:
        """Sit ``player_id`` at ``seat`` of an open table (an invite seat needs its token).

        ``account``: the player has an account (a rated table seats no guest).
        """
        return int(await self.execute(table_id, Join(player_id, name, seat, invite, account)))

    async def leave(self, table_id: str, player_id: str) -> None:
        """Stand up from a table whose match has not started."""
        await self.execute(table_id, Leave(player_id))

    async def add_bot(self, table_id: str, player_id: str, seat: object, level: object) -> None:
        """The host puts a bot of ``level`` in an empty ``seat``."""
        await self.execute(table_id, AddBot(player_id, seat, level))

    async def start(self, table_id: str, player_id: str, fill_bots: bool, level: str = "heuristic") -> None:
        """The host starts the match (optionally filling empty seats with bots of ``level``)."""
        await self.execute(table_id, Start(player_id, fill_bots, level))

    async def resign(self, table_id: str, player_id: str) -> None:
        """``player_id`` resigns the match under way at ``table_id``: a bot plays the seat to the end."""
        await self.execute(table_id, Resign(player_id))

    async def rematch(self, table_id: str, player_id: str, name: str, account: bool = False) -> str:
        """A seated player of the finished ``table_id`` asks for or accepts its rematch: the new table's id.

        The first to ask makes the new table (same seats: the asker seated, the same built-in bots, the
        other seats kept for their players); every other player who asks takes their seat in it, and the
        rematch starts once no seat is waiting for anyone.
        """
        # a bot account takes seats through the bot API only: the host invites it to the rematch there
        await self.refuse_bot_account(player_id)
        made = await self.execute(table_id, Rematch(player_id, name, account))
        new_id = str(made["table"])
        await self.execute(new_id, RematchJoin(player_id, name, table_id, int(made["seat"]), account))
        return new_id

    # ---------------------------------------------------------------- reading tables
    async def source(self, table_id: str) -> TableSource:
        """The freshest state of ``table_id`` this process has: its actor, a replica, or the log."""
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.touch()
            return actor
        replica = self.replicas.get(table_id)
        if replica is not None:
            return replica
        if self.cluster is None:
            return await self._local_actor(table_id)
        return Replica(table_id, await load_state(self.store, table_id))

    async def watch(self, conn: Connection, table_id: str) -> TableSource:
        """``conn`` now watches ``table_id``: returns what to sync it from.

        Every live watcher (a WebSocket's ``open_table``, a bot-API table stream) comes through here, so
        here the visibility policy is asked whether ``conn``'s player may watch the table (``event_hidden``).
        """
        if self.cluster is None or table_id in self.actors:
            source = await self.source(table_id)
        else:
            source = await self.broadcaster.replica(table_id)
        await require_live(self, source.state, conn.player_id)
        if conn.table_id is not None and conn.table_id != table_id:
            await self.attendance.left_table(conn)  # switching tables: the old seat may now be absent
        self.connections.set_table(conn, table_id)
        seat = source.state.seat_of(conn.player_id)
        if seat is not None:
            if self.cluster is not None:
                await self.cluster.presence(table_id, conn.player_id, +1)
            # takes the seat back from the bot, or cancels the absence countdown
            await self.execute(table_id, Back(conn.player_id))
            # that may have taken a while (an owner's failover): sync from what is current now
            source = self.actors.get(table_id) or self.replicas.get(table_id) or source
        return source
