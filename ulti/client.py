"""A client of the server's protocol (docs/protocol/README.md): scripted players, tests and load runs.

It speaks to a server only over HTTP and WebSockets, as any client would, so it lives beside the server
package, not in it (the server imports none of it: an import contract holds that).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from typing import Any

import httpx2
import orjson
from websockets.asyncio.client import ClientConnection, connect

from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.server.patches import apply_patch


class ServerError(Exception):
    """The server refused a request; ``code`` is its error code."""

    def __init__(self, code: str, message: str, args: dict[str, Any] | None = None) -> None:
        """An error as the server named it, with its ``args`` (``retry_after``, …) if it had any."""
        super().__init__(f"{code}: {message}")
        self.code = code
        self.params: dict[str, Any] = args or {}


class GameClient:
    """One player: an HTTP session and one WebSocket."""

    def __init__(
        self, base_url: str, http_client: httpx2.AsyncClient | None = None, keep_messages: bool = True,
        events: str = "full",
    ) -> None:
        """A client of the server at ``base_url`` (``http://host:port``); ``http_client`` may be shared.

        ``keep_messages`` keeps every received message in ``received`` (tests); load runs turn it off.
        ``events`` is the event form asked for (docs/protocol/events.md §9.1): ``"full"`` (each event with the
        whole view) or ``"patch"`` (each event with what changed, applied here to ``state``; a received
        event then also holds the view it made as ``_state``).
        """
        if events not in ("full", "patch"):
            raise ValueError("events must be 'full' or 'patch'")
        self.events = events
        self.base_url = base_url.rstrip("/")
        self.http_client = http_client
        self.keep_messages = keep_messages
        self.event_times: dict[int, float] = {}  # arrival time of the latest events, by seq
        self._synced = False
        self.token = ""
        self.player_id = ""
        self.ws: ClientConnection | None = None
        self.received: list[dict[str, Any]] = []  # every message, in order
        self.state: dict[str, Any] | None = None  # the latest table view
        self.lobby: list[dict[str, Any]] | None = None  # the lobby list once watched, kept current
        self.seq = 0
        self._ids = itertools.count(1)
        # the server remembers a player's command ids across connections: a new client must not reuse them
        self._id_prefix = f"c{random.getrandbits(32):08x}-"
        self._waiters: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        # one future per waiting ``wait_for``, resolved by the next message: a shared event cleared by
        # each waiter could swallow a message another waiter needed (see ``wait_for``)
        self._watchers: set[asyncio.Future[None]] = set()
        self._reader: asyncio.Task[None] | None = None
        self._resync: asyncio.Future[None] | None = None

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Call the HTTP API; raise ``ServerError`` on an error answer."""
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        if self.http_client is not None:
            # a shared client must not carry one player's session cookie into another's requests:
            # this client authenticates by its bearer token only
            self.http_client.cookies.clear()
            response = await self.http_client.request(method, self.base_url + path, json=body, headers=headers)
        else:
            async with httpx2.AsyncClient(base_url=self.base_url, timeout=30) as client:
                response = await client.request(method, path, json=body, headers=headers)
        data = response.json()
        if response.status_code >= 400:
            error = data.get("error", {})
            raise ServerError(error.get("code", str(response.status_code)), error.get("message", ""), error.get("args"))
        return data

    async def login(self, name: str) -> None:
        """Start a guest session as ``name``."""
        data = await self.http("POST", "/api/session", {"name": name})
        self.token, self.player_id = data["token"], data["player"]["id"]

    async def connect(self) -> None:
        """Open the WebSocket."""
        url = self.base_url.replace("http", "ws", 1) + f"/ws?token={self.token}"
        if self.events == "patch":
            url += "&events=patch"
        self.ws = await connect(url, max_size=2**22)
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        """Close the WebSocket."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await self._reader

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = orjson.loads(raw)
                message["_t"] = time.perf_counter()
                if self.keep_messages:
                    self.received.append(message)
                kind = message.get("type")
                if kind == "sync":
                    self._synced = True
                if kind == "lobby":
                    self.lobby = list(message["tables"])
                elif kind == "lobby_update" and self.lobby is not None:
                    self.lobby = apply_lobby_update(self.lobby, message)
                # events are stored before anyone sees them, so a sync or event older than what this
                # client has seen is stale (it was overtaken in flight): keep the newer state
                if kind == "event" and "patch" in message:
                    self._patched(message)
                elif kind in ("sync", "event") and (message["seq"] > self.seq or (kind == "sync" and not self.state)):
                    # an event already contained in a sync may still arrive after it: skip it
                    self.state = message["state"]
                    self.seq = message["seq"]
                    if len(self.event_times) > 64:
                        self.event_times.clear()
                    self.event_times[self.seq] = message["_t"]
                if kind in ("ack", "error", "pong") and message.get("id") in self._waiters:
                    self._waiters.pop(message["id"]).set_result(message)
                self.notify()
        for waiter in self._waiters.values():
            if not waiter.done():
                waiter.set_exception(ConnectionError("socket closed"))
        self.notify()

    def notify(self) -> None:
        """Wake every ``wait_for`` (called after each message read, and when the socket closes)."""
        for watcher in self._watchers:
            if not watcher.done():
                watcher.set_result(None)
        self._watchers.clear()

    def _patched(self, message: dict[str, Any]) -> None:
        """An event of the patch form: apply its change to the view it follows (protocol §9.1)."""
        seq = message["seq"]
        if self.state is None or not self._synced or seq <= self.seq:
            return  # before this table's sync (§9), or already contained in it
        if seq != self.seq + 1:
            # a gap: the change is not from the view held here; resync (protocol §9)
            table_id = self.state["table"]["table_id"]
            self.state, self.seq, self._synced = None, 0, False
            self._resync = asyncio.ensure_future(self.send({"type": "open_table", "table": table_id}))
            return
        self.state = message["_state"] = apply_patch(self.state, message["patch"])
        self.seq = seq
        if len(self.event_times) > 64:
            self.event_times.clear()
        self.event_times[seq] = message["_t"]

    async def send(self, message: dict[str, Any]) -> None:
        """Send a raw message."""
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def request(self, message: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """Send ``message`` with a fresh id and wait for its ack; raise ``ServerError`` on an error."""
        client_id = f"{self._id_prefix}{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[client_id] = future
        await self.send({**message, "id": client_id})
        answer = await asyncio.wait_for(future, timeout)
        if answer["type"] == "error":
            raise ServerError(answer["code"], answer["message"], answer.get("args"))
        return answer

    async def open_table(self, table_id: str) -> None:
        """Watch (and, if seated, play at) ``table_id``; wait for its full view (the ``sync``)."""
        self.state = None
        self.seq = 0
        self._synced = False
        await self.send({"type": "open_table", "table": table_id})
        await self.wait_for(lambda: self._synced)

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Send a game action (record form without the seat)."""
        return await self.request({"type": "act", "action": action})

    async def ready(self) -> dict[str, Any]:
        """Say "Next deal": this player has seen the deal's result (protocol §6 ``ready``)."""
        return await self.request({"type": "ready"})

    def must_ready(self) -> bool:
        """Whether the next deal waits for this player's "Next deal" (protocol §10 ``next_deal``)."""
        state = self.state
        waiting = state.get("next_deal") if state else None
        return bool(state and waiting and state["you"] in waiting["waiting"])

    async def wait_for(self, predicate: Any, timeout: float = 60) -> None:
        """Wait until ``predicate()`` holds (checked after each message)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if self._reader is not None and self._reader.done():
                raise ConnectionError("socket closed")  # no message can come any more
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("condition not reached")
            # This waiter's own future, made with no await since the predicate was checked, so no message
            # can come unseen in between. (A shared event cleared here lost wake-ups when a player's
            # play and a test waited on one client: the other waiter's clear swallowed the message that
            # made it this one's turn, and the match stalled.)
            changed = asyncio.get_running_loop().create_future()
            self._watchers.add(changed)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed, remaining)
            finally:
                self._watchers.discard(changed)

    async def wait_for_message(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        """The first message received (so far or later) for which ``predicate(message)`` holds."""

        def found() -> dict[str, Any] | None:
            return next((m for m in self.received if predicate(m)), None)

        await self.wait_for(lambda: found() is not None, timeout)
        message = found()
        assert message is not None
        return message

    def my_choices(self) -> dict[str, Any] | None:
        """The choices the latest view offers this player's seat, if any."""
        if self.state is None or self.state["deal"] is None:
            return None
        deal = self.state["deal"]
        return deal.get("choices") if deal["phase"] != "done" else None

    def deal_seat(self) -> int | None:
        """The seat of the current deal this player plays: its table seat, or at a table of four the deal's
        seat the rotation gives it (None: it sits this deal out, or watches)."""
        if self.state is None:
            return None
        four = self.state.get("four")
        you: int | None = four["you_play"] if four is not None else self.state["you"]
        return you

    def my_turn(self) -> bool:
        """Whether this player's seat is the one the table waits for."""
        if self.state is None or self.state["deal"] is None:
            return False
        deal = self.state["deal"]
        you = self.deal_seat()
        return deal["phase"] != "done" and you is not None and deal["to_move"] == you and bool(deal.get("choices"))

    def random_action(self, salt: object = None) -> dict[str, Any]:
        """A random legal action for this seat (record form without the seat), drawn from ``salt`` and
        the position in the match (by default from the event number, ``seq``).

        The same position and view always draw the same action, so a replayed table (after a crash)
        sees the same choices. A kontra decline right after this seat's own decline is drawn again: the
        server acknowledges such a repeat without an event, so the position would not move.
        """
        assert self.state is not None and self.state["deal"] is not None
        deal = self.state["deal"]
        position = f"{salt}:{self.state['deal_index']}:{len(deal['log'])}"
        rng = random.Random(self.seq if salt is None else position)
        view = SeatView.from_json(deal)
        log = deal["log"]
        declined = bool(log) and log[-1] == {"seat": self.deal_seat(), "action": "kontra", "parts": []}
        for _ in range(50):
            action = action_to_json(RandomBot(rng).act(view))
            if not (declined and action["action"] == "kontra" and not action.get("parts")):
                break
        action.pop("seat")
        return action

    def match_over(self) -> bool:
        """Whether the table's match has a winner."""
        return bool(self.state and self.state["match"] and self.state["match"]["winner"] is not None)


def apply_lobby_update(tables: list[dict[str, Any]], update: dict[str, Any]) -> list[dict[str, Any]]:
    """The lobby list after a ``lobby_update`` (protocol §7): changed entries replaced in place, new ones
    first (newest first, as given), removed ones dropped.
    """
    changed = {t["table_id"]: t for t in update["tables"]}
    gone = set(update["removed"])
    known = {t["table_id"] for t in tables}
    fresh = [t for t in update["tables"] if t["table_id"] not in known]
    kept = [changed.get(t["table_id"], t) for t in tables if t["table_id"] not in gone]
    return fresh + kept


async def play_randomly(client: GameClient, seed: int, timeout: float = 600) -> None:
    """Play random legal actions for the client's seat, on its turn only, until the match ends;
    after each deal, say "Next deal" at once.

    The choice depends only on ``seed`` and the position in the match (the deal and its log's
    length), so a replayed table (after a crash) sees the same choices as the first run, however many
    "Next deal" events (or which of them) came between the deals.
    """
    deadline = time.monotonic() + timeout
    while not client.match_over():
        if time.monotonic() > deadline:
            raise TimeoutError("match did not finish")
        if client.must_ready():
            try:
                await client.ready()
            except ServerError as exc:
                # the time limit dealt the next deal meanwhile, or the server asks us to slow down
                if exc.code == "rate_limited":
                    await asyncio.sleep(0.2)
                    continue
                if exc.code != "not_between_deals":
                    raise
            await client.wait_for(lambda: client.match_over() or client.my_turn() or not client.must_ready(), timeout)
            continue
        if not client.my_turn():
            await client.wait_for(lambda: client.match_over() or client.my_turn() or client.must_ready(), timeout)
            continue
        action = client.random_action(seed)
        try:
            await client.act(action)
        except ServerError as exc:
            if exc.code == "rate_limited":
                await asyncio.sleep(0.2)
                continue
            raise
