"""Several server processes on one Redis: table leases, command routing, event fan-out, presence.

- Each table is owned by one process at a time: a Redis key ``ulti:lease:{table}`` holding the
  owner's process id, set with NX and a time to live, renewed by the owner. When the owner dies the
  key expires and another process takes the table over by replaying its log from the database.
- A process that receives a command for a table it does not own sends it to the owner's channel
  ``ulti:proc:{pid}`` and waits for the reply on its own channel.
- The owner publishes every stored event on ``ulti:table:{table}``; every process that has clients
  watching the table keeps a replica of the table's state by applying those events in order (a gap
  reloads the log from the database) and filters them per viewer exactly as in one process.
- ``ulti:presence:{table}`` counts each player's open connections over all processes, so that a
  player is "away" only when no process holds a connection of theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import redis.asyncio as aioredis

from ulti.server.auth import new_id
from ulti.server.logs import log

LEASE_PREFIX = "ulti:lease:"
PROC_PREFIX = "ulti:proc:"
TABLE_PREFIX = "ulti:table:"
PRESENCE_PREFIX = "ulti:presence:"
LOBBY_CHANNEL = "ulti:lobby"
ALIVE_PREFIX = "ulti:alive:"

# Renew or release a lease only if this process still holds it.
_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
)
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class OwnerUnavailable(Exception):
    """The table's owner did not answer in time (it may have died; its lease will expire)."""


Handler = Callable[[dict[str, Any]], Awaitable[None]]
RequestHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Cluster:
    """This process's link to the others through Redis."""

    def __init__(self, url: str, lease_seconds: float = 5.0) -> None:
        """A cluster member on the Redis at ``url``; leases last ``lease_seconds`` unless renewed."""
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.process_id = new_id()
        self.lease_ms = int(lease_seconds * 1000)
        self.owned: set[str] = set()
        self._pubsub = self.redis.pubsub()
        self._reader: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        self.on_request: RequestHandler | None = None
        self.on_table_event: Handler | None = None
        self.on_lobby: Handler | None = None
        self.on_lease_lost: Callable[[str], Awaitable[None]] | None = None
        #: other channels this process listens to, and who hears them (``listen``: the bot API's)
        self.on_channel: dict[str, Handler] = {}

    @property
    def channel(self) -> str:
        """This process's own channel."""
        return PROC_PREFIX + self.process_id

    async def start(self) -> None:
        """Subscribe to this process's channel and the lobby, start reading and renewing."""
        await self.redis.ping()
        await self.redis.set(ALIVE_PREFIX + self.process_id, "1", px=self.lease_ms)
        await self._pubsub.subscribe(self.channel, LOBBY_CHANNEL)
        self._reader = asyncio.create_task(self._read())
        self._renewer = asyncio.create_task(self._renew_loop())
        log("cluster member started", process=self.process_id)

    async def close(self) -> None:
        """Release every lease and stop."""
        for task in (self._reader, self._renewer):
            if task is not None:
                task.cancel()
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.release(table_id)
        with contextlib.suppress(Exception):
            await self.redis.delete(ALIVE_PREFIX + self.process_id, PRESENCE_PREFIX + self.process_id)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    # ---------------------------------------------------------------- leases

    async def acquire(self, table_id: str) -> bool:
        """Try to become the owner of ``table_id``; True if this process owns it now."""
        if table_id in self.owned:
            return True
        took = await self.redis.set(LEASE_PREFIX + table_id, self.process_id, nx=True, px=self.lease_ms)
        if took:
            self.owned.add(table_id)
            log("table lease taken", table=table_id, process=self.process_id)
        return bool(took)

    async def release(self, table_id: str) -> None:
        """Give up ownership of ``table_id``."""
        self.owned.discard(table_id)
        await self.redis.eval(_RELEASE, 1, LEASE_PREFIX + table_id, self.process_id)

    async def owner_of(self, table_id: str) -> str | None:
        """The process id holding ``table_id``'s lease, if any."""
        value = await self.redis.get(LEASE_PREFIX + table_id)
        return str(value) if value else None

    async def _renew_loop(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.redis.set(ALIVE_PREFIX + self.process_id, "1", px=self.lease_ms)
            await asyncio.sleep(self.lease_ms / 3000)
            for table_id in list(self.owned):
                try:
                    kept = await self.redis.eval(
                        _RENEW, 1, LEASE_PREFIX + table_id, self.process_id, str(self.lease_ms)
                    )
                except Exception:  # Redis briefly unreachable: try again next round
                    continue
                if not kept:
                    self.owned.discard(table_id)
                    log("table lease lost", table=table_id, process=self.process_id)
                    if self.on_lease_lost is not None:
                        await self.on_lease_lost(table_id)

    # ---------------------------------------------------------------- messages

    async def request(self, owner: str, payload: Mapping[str, object], timeout: float = 5.0) -> dict[str, Any]:
        """Send ``payload`` to process ``owner`` and wait for its reply."""
        request_id = f"{self.process_id}:{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        message = {"kind": "request", "id": request_id, "reply_to": self.channel, "payload": payload}
        try:
            receivers = await self.redis.publish(PROC_PREFIX + owner, json.dumps(message))
            if not receivers:
                raise OwnerUnavailable(f"process {owner} is not listening")
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise OwnerUnavailable(f"process {owner} did not answer within {timeout:g} s") from None
        finally:
            self._waiting.pop(request_id, None)

    async def publish_table(self, table_id: str, payload: Mapping[str, object]) -> None:
        """Publish a table's event to every process watching it."""
        await self.redis.publish(TABLE_PREFIX + table_id, json.dumps({"origin": self.process_id, **payload}))

    async def publish_lobby(self, payload: Mapping[str, object]) -> None:
        """Tell every process about a lobby change (the ids of the changed tables) or a lobby chat line."""
        await self.redis.publish(LOBBY_CHANNEL, json.dumps({"origin": self.process_id, **payload}))

    async def listen(self, channel: str, handler: Handler) -> None:
        """Hear every message published on ``channel`` by the other processes (``publish``)."""
        self.on_channel[channel] = handler
        await self._pubsub.subscribe(channel)

    async def publish(self, channel: str, payload: Mapping[str, object]) -> None:
        """Tell every process listening on ``channel`` (this one skips its own messages)."""
        await self.redis.publish(channel, json.dumps({"origin": self.process_id, **payload}))

    async def watch_table(self, table_id: str) -> None:
        """Receive ``table_id``'s events."""
        await self._pubsub.subscribe(TABLE_PREFIX + table_id)

    async def unwatch_table(self, table_id: str) -> None:
        """Stop receiving ``table_id``'s events."""
        await self._pubsub.unsubscribe(TABLE_PREFIX + table_id)

    async def presence(self, table_id: str, player_id: str, delta: int) -> int:
        """Add ``delta`` to this process's count of a player's connections to a table."""
        return int(await self.redis.hincrby(PRESENCE_PREFIX + self.process_id, f"{table_id}:{player_id}", delta))

    async def present(self, table_id: str, player_id: str) -> bool:
        """Whether any live process holds a connection of ``player_id`` to ``table_id``.

        Counts are kept per process, so a dead process's connections stop counting with it.
        """
        alive = [key.rsplit(":", 1)[1] async for key in self.redis.scan_iter(match=ALIVE_PREFIX + "*")]
        if not alive:
            return False
        field = f"{table_id}:{player_id}"
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in alive:
                pipe.hget(PRESENCE_PREFIX + pid, field)
            counts = await pipe.execute()
        return any(int(c or 0) > 0 for c in counts)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except Exception:
                await asyncio.sleep(0.2)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                await self._dispatch(message["channel"], json.loads(message["data"]))
            except Exception:
                import logging

                logging.getLogger("ulti").exception("cluster message failed")

    async def _dispatch(self, channel: str, data: dict[str, Any]) -> None:
        if channel == self.channel:
            if data.get("kind") == "reply":
                future = self._waiting.get(data["id"])
                if future is not None and not future.done():
                    future.set_result(data["payload"])
            elif data.get("kind") == "request" and self.on_request is not None:
                task = asyncio.create_task(self._answer(data))
                self._answering.add(task)
                task.add_done_callback(self._answering.discard)
        elif channel in self.on_channel:
            if data.get("origin") != self.process_id:
                await self.on_channel[channel](data)
        elif channel == LOBBY_CHANNEL and self.on_lobby is not None and data.get("origin") != self.process_id:
            await self.on_lobby(data)
        elif (
            channel.startswith(TABLE_PREFIX)
            and self.on_table_event is not None
            and data.get("origin") != self.process_id
        ):
            await self.on_table_event(data)

    async def _answer(self, data: dict[str, Any]) -> None:
        assert self.on_request is not None
        reply = await self.on_request(data["payload"])
        await self.redis.publish(data["reply_to"], json.dumps({"kind": "reply", "id": data["id"], "payload": reply}))
