"""The hub: all table actors of this process, the connections, the lobby and its chat."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ulti.server.actor import TableActor
from ulti.server.auth import new_id
from ulti.server.config import Settings
from ulti.server.tablestate import (
    BOT_LEVELS,
    CommandError,
    TableState,
    validate_table_config,
)
from ulti.store import EventStore

LOBBY_CHAT_HISTORY = 50
RECENT_CLIENT_IDS = 512
OUTBOX_LIMIT = 1000


@dataclass(eq=False)
class Connection:
    """One client's WebSocket: who it is, what it watches, and its outgoing queue."""

    player_id: str
    name: str
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    table_id: str | None = None
    watches_lobby: bool = False
    tokens: float = 0.0
    last_refill: float = 0.0

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for this client; a client that stops reading is cut off, not waited for."""
        if self.outbox.qsize() < OUTBOX_LIMIT:
            self.outbox.put_nowait(message)
        else:
            self.outbox.put_nowait(None)  # the writer closes the socket


class Hub:
    """Everything live in this server process."""

    def __init__(self, store: EventStore, settings: Settings) -> None:
        """A hub over ``store``; call ``load`` before serving."""
        self.store = store
        self.settings = settings
        self.executor = ThreadPoolExecutor(max_workers=settings.bot_threads, thread_name_prefix="bot")
        self.actors: dict[str, TableActor] = {}
        self.connections: set[Connection] = set()
        self.lobby_chat: deque[dict[str, Any]] = deque(maxlen=LOBBY_CHAT_HISTORY)
        self.client_ids: dict[str, deque[str]] = {}
        self._lobby_dirty = False

    # ---------------------------------------------------------------- tables

    async def load(self) -> None:
        """Rebuild every unfinished table from its event log and resume it."""
        for table_id in await self.store.table_ids(["open", "playing"]):
            actor = await self._rebuild(table_id)
            actor.schedule()
            # Nobody is connected to a process that just started: every seated player gets the
            # usual grace period to come back before a bot plays for them, so matches always finish.
            for seat, info in enumerate(actor.state.seats):
                if info.kind == "player" and not info.away:
                    actor.player_left(seat)

    async def _rebuild(self, table_id: str) -> TableActor:
        state = TableState(table_id)
        for event in await self.store.events(table_id):
            state.apply(event)
        actor = TableActor(self, state, self.store, self.settings, self.executor)
        self.actors[table_id] = actor
        return actor

    async def actor(self, table_id: str) -> TableActor:
        """The actor of ``table_id`` (finished tables are rebuilt from the store on demand)."""
        actor = self.actors.get(table_id)
        if actor is None:
            if table_id not in await self.store.table_ids():
                raise CommandError("not_found", f"no table {table_id!r}")
            actor = await self._rebuild(table_id)
        return actor

    async def create_table(
        self, player_id: str, name: str, config: dict[str, Any]
    ) -> tuple[TableActor, dict[int, str]]:
        """Create a table for ``player_id`` from a validated request; returns it and its invite tokens."""
        deals, seconds, seats = config.get("deals"), config.get("move_seconds", 0), config.get("seats")
        validate_table_config(deals, seconds, seats)
        assert isinstance(seats, list)
        seed = config.get("seed")
        if seed is None:
            seed = random.SystemRandom().getrandbits(48)
        elif type(seed) is not int or not 0 <= seed < 2**48:
            raise CommandError("bad_config", "seed must be an integer from 0 to 2**48 - 1 (it fixes the deals)")
        table_id = new_id()
        specs: list[dict[str, Any]] = []
        invites: dict[int, str] = {}
        me: int | None = None
        for i, spec in enumerate(seats):
            if spec["kind"] == "bot":
                specs.append({"kind": "bot", "level": spec.get("level", "heuristic")})
            elif spec["kind"] == "invite":
                invites[i] = new_id()
                specs.append({"kind": "invite", "invite": invites[i]})
            else:
                if spec["kind"] == "me":
                    me = i
                specs.append({"kind": "open"})
        actor = TableActor(self, TableState(table_id), self.store, self.settings, self.executor)
        self.actors[table_id] = actor
        created = {
            "type": "created",
            "host": player_id,
            "deals": deals,
            "move_seconds": seconds,
            "seed": seed,
            "seats": specs,
        }

        async def command() -> None:
            await actor.emit(created)
            if me is not None:
                await self._sit(actor, me, player_id, name)

        await actor.run(command)
        return actor, invites

    async def _sit(self, actor: TableActor, seat: int, player_id: str, name: str) -> None:
        await actor.emit({"type": "sit", "seat": seat, "player": player_id, "name": name})
        await self.store.add_table_player(actor.table_id, player_id, seat)

    async def join(self, table_id: str, player_id: str, name: str, seat: object, invite: object) -> int:
        """Sit ``player_id`` at ``seat`` of an open table (an invite seat needs its token)."""
        actor = await self.actor(table_id)
        if type(seat) is not int or seat not in (0, 1, 2):
            raise CommandError("bad_request", "seat must be 0, 1 or 2")

        async def command() -> int:
            state = actor.state
            if state.status != "open":
                raise CommandError("table_started", "this table's match has started: seats are fixed")
            if state.seat_of(player_id) is not None:
                raise CommandError("already_seated", f"you already sit at seat {state.seat_of(player_id)}")
            target = state.seats[seat]
            if target.kind == "invite" and invite != target.invite:
                raise CommandError("reserved", f"seat {seat} is reserved: it needs its invite link")
            if target.kind not in ("open", "invite"):
                raise CommandError("seat_taken", f"seat {seat} is taken")
            await self._sit(actor, seat, player_id, name)
            return seat

        return int(await actor.run(command))

    async def leave(self, table_id: str, player_id: str) -> None:
        """Stand up from a table whose match has not started."""
        actor = await self.actor(table_id)

        async def command() -> None:
            seat = actor.state.seat_of(player_id)
            if seat is None:
                raise CommandError("not_seated", "you do not sit at this table")
            if actor.state.status != "open":
                raise CommandError("table_started", "the match has started: a bot plays for you while you are away")
            await actor.emit({"type": "leave", "seat": seat})

        await actor.run(command)

    async def add_bot(self, table_id: str, player_id: str, seat: object, level: object) -> None:
        """The host puts a bot of ``level`` in an empty ``seat``."""
        actor = await self.actor(table_id)
        if type(seat) is not int or seat not in (0, 1, 2):
            raise CommandError("bad_request", "seat must be 0, 1 or 2")
        if level not in BOT_LEVELS:
            raise CommandError("bad_request", f"level must be one of {', '.join(BOT_LEVELS)}")

        async def command() -> None:
            state = actor.state
            if state.host != player_id:
                raise CommandError("not_host", "only the host seats bots")
            if state.status != "open":
                raise CommandError("table_started", "the match has started")
            if state.seats[seat].kind not in ("open", "invite"):
                raise CommandError("seat_taken", f"seat {seat} is taken")
            await actor.emit({"type": "bot", "seat": seat, "level": level})

        await actor.run(command)

    async def start(self, table_id: str, player_id: str, fill_bots: bool) -> None:
        """The host starts the match (optionally filling empty seats with heuristic bots)."""
        actor = await self.actor(table_id)

        async def command() -> None:
            state = actor.state
            if state.host != player_id:
                raise CommandError("not_host", "only the host starts the match")
            if state.status != "open":
                raise CommandError("table_started", "the match has already started")
            empty = [i for i, s in enumerate(state.seats) if s.kind in ("open", "invite")]
            if empty and not fill_bots:
                raise CommandError("seats_empty", f"seats {empty} are empty: wait for players or fill them with bots")
            for i in empty:
                await actor.emit({"type": "bot", "seat": i, "level": "heuristic"})
            # RULES.md §7 recommends a random first dealer; it comes from the table's seed like the deals.
            first_dealer = random.Random(f"{state.seed}:first-dealer").randrange(3)
            await actor.emit({"type": "start", "first_dealer": first_dealer})
            await actor.emit(state.next_deal_event())

        await actor.run(command)

    def open_tables(self) -> list[dict[str, Any]]:
        """The lobby list: tables still open or being played, newest first."""
        states = [a.state for a in self.actors.values() if a.state.status in ("open", "playing")]
        return [s.summary() for s in reversed(states)]

    # ---------------------------------------------------------------- broadcasting

    def filter_event(
        self, actor: TableActor, seq: int, event: dict[str, Any]
    ) -> tuple[int, dict[int | None, dict[str, Any]]]:
        """Event ``seq`` as each seat watching the table (and spectators, None) may see it."""
        state = actor.state
        seats = {state.seat_of(c.player_id) for c in self.connections if c.table_id == actor.table_id}
        return seq, {seat: state.public_event(event, seat) for seat in seats}

    def broadcast_events(self, actor: TableActor, events: list[tuple[int, dict[int | None, dict[str, Any]]]]) -> None:
        """Send filtered events to every connection watching the table, each with its seat's view."""
        if not events:
            return
        state = actor.state
        views: dict[int | None, dict[str, Any]] = {}
        for conn in self.connections:
            if conn.table_id != actor.table_id:
                continue
            seat = state.seat_of(conn.player_id)
            if seat not in views:
                views[seat] = self.table_view(actor, seat)
            for seq, filtered in events:
                if seat in filtered:
                    conn.send({"type": "event", "seq": seq, "event": filtered[seat], "state": views[seat]})

    def table_view(self, actor: TableActor, seat: int | None) -> dict[str, Any]:
        """The table's view for ``seat`` with who is connected and the move deadline."""
        view = actor.state.view(seat)
        connected = {c.player_id for c in self.connections if c.table_id == actor.table_id}
        for i, seat_view in enumerate(view["table"]["seats"]):
            player = actor.state.seats[i].player_id
            seat_view["connected"] = player in connected if player else None
        view["deadline"] = actor.deadline
        return view

    def lobby_changed(self) -> None:
        """Note that the lobby list changed; watchers get it once per loop turn."""
        if self._lobby_dirty:
            return
        self._lobby_dirty = True
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(self._send_lobby)

    def _send_lobby(self) -> None:
        self._lobby_dirty = False
        message = {"type": "lobby", "tables": self.open_tables()}
        for conn in self.connections:
            if conn.watches_lobby:
                conn.send(message)

    def lobby_message(self, conn: Connection, text: object) -> None:
        """A lobby chat line from ``conn``."""
        if not isinstance(text, str) or not text.strip() or len(text) > 300:
            raise CommandError("bad_chat", "text must be a non-empty string of at most 300 characters")
        line = {"name": conn.name, "text": text.strip()}
        self.lobby_chat.append(line)
        for other in self.connections:
            if other.watches_lobby:
                other.send({"type": "lobby_chat", "line": line})

    def seen_client_id(self, player_id: str, client_id: str) -> bool:
        """Whether ``client_id`` was already used by ``player_id`` (and remember it)."""
        recent = self.client_ids.setdefault(player_id, deque(maxlen=RECENT_CLIENT_IDS))
        if client_id in recent:
            return True
        recent.append(client_id)
        return False

    def disconnected(self, conn: Connection) -> None:
        """``conn`` closed; if it was the last of a seated player, start the absence countdown."""
        self.connections.discard(conn)
        self.left_table(conn)

    def left_table(self, conn: Connection) -> None:
        """``conn`` no longer watches its table (closed or switched tables)."""
        if conn.table_id is None:
            return
        actor = self.actors.get(conn.table_id)
        if actor is None:
            return
        seat = actor.state.seat_of(conn.player_id)
        still = any(
            c is not conn and c.player_id == conn.player_id and c.table_id == conn.table_id for c in self.connections
        )
        if seat is None:
            return
        if not still:
            actor.player_left(seat)
        for other in self.connections:
            if other.table_id == conn.table_id:
                other.send({"type": "presence", "seat": seat, "connected": still})

    def close(self) -> None:
        """Stop all actors and the bot threads."""
        for actor in self.actors.values():
            actor.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
