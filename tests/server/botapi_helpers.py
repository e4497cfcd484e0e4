"""Helpers for bot API tests and benchmarks: accounts with tokens, NDJSON streams read in the background."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx2

from ulti.botclient import match_over, my_turn, position
from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView

SCOPES = ["bot:play", "table:read"]
FOREVER = httpx2.Timeout(30.0, read=None)


@dataclass
class Account:
    """A registered account: its session, and one API token."""

    name: str
    session: str
    token: str
    token_id: str
    player_id: str

    def api(self, base_url: str) -> httpx2.AsyncClient:
        """A client that authenticates with the API token."""
        return httpx2.AsyncClient(base_url=base_url, headers={"authorization": f"Bearer {self.token}"}, timeout=FOREVER)

    def web(self, base_url: str) -> httpx2.AsyncClient:
        """A client that authenticates with the account's session (as the account page does)."""
        return httpx2.AsyncClient(base_url=base_url, headers={"authorization": f"Bearer {self.session}"}, timeout=30)


async def new_account(
    base_url: str, name: str, scopes: list[str] | None = None, bot: bool = True, password: str = "correct horse"
) -> Account:
    """Register ``name``, make a token with ``scopes`` (both by default), and upgrade it to a bot account."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=30) as client:
        registered = await client.post("/api/account/register", json={"name": name, "password": password})
        assert registered.status_code == 200, registered.text
        session = registered.json()["token"]
        made = await client.post("/api/account/tokens", json={"name": "test", "scopes": scopes or SCOPES},
                                 headers={"authorization": f"Bearer {session}"})
        assert made.status_code == 200, made.text
        account = Account(name, session, made.json()["token"], made.json()["id"], registered.json()["player"]["id"])
        if bot:
            upgraded = await client.post("/api/bot/account/upgrade", json={},
                                         headers={"authorization": f"Bearer {account.token}"})
            assert upgraded.status_code == 200, upgraded.text
    return account


@dataclass
class Reader:
    """An NDJSON stream read in the background: every line (keep-alives as None) as it comes."""

    client: httpx2.AsyncClient
    path: str
    params: dict[str, str] | None = None
    status: int | None = None
    lines: list[dict[str, Any] | None] = field(default_factory=list)
    ended: bool = False
    _task: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> Reader:
        """Start reading."""
        self._task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async with self.client.stream("GET", self.path, params=self.params) as response:
                self.status = response.status_code
                async for line in response.aiter_lines():
                    self.lines.append(json.loads(line) if line else None)
                    self._changed.set()
        except httpx2.TransportError:
            pass  # the server hung up (the test looks at what came before)
        finally:
            self.ended = True
            self._changed.set()

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The JSON lines so far (keep-alives left out)."""
        return [m for m in self.lines if m is not None]

    async def wait_for(self, predicate: Any, timeout: float = 30) -> None:
        """Wait until ``predicate(self)`` holds (checked after each line)."""
        async def check() -> None:
            while not predicate(self):
                if self.ended:
                    raise AssertionError(f"stream ended first: {self.lines[-3:]}")
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(check(), timeout)

    async def stop(self) -> None:
        """Hang up."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


async def play_over_api(
    client: httpx2.AsyncClient,
    table: str,
    seed: int,
    drop: Any = None,
    latencies: list[float] | None = None,
    act_via: list[httpx2.AsyncClient] | None = None,
    resume_via: httpx2.AsyncClient | None = None,
) -> list[dict[str, Any]]:
    """Play random legal actions at ``table`` through its stream until the match ends; every message seen.

    ``drop(state)``: when it first holds, the stream is hung up and opened again with ``since`` (through
    ``resume_via`` if given). ``act_via``: the clients the acts are sent with, in turn (several processes).
    """
    acts = 0
    got: list[dict[str, Any]] = []
    last: int | None = None
    dropped = False
    loop = asyncio.get_running_loop()
    sent: float | None = None
    while True:
        params = {"since": str(last)} if last is not None else None
        streaming = resume_via if dropped and resume_via is not None else client
        async with streaming.stream("GET", f"/api/bot/tables/{table}/stream", params=params) as response:
            assert response.status_code == 200, await response.aread()
            async for line in response.aiter_lines():
                if not line:
                    continue
                message = json.loads(line)
                got.append(message)
                if sent is not None and latencies is not None:
                    latencies.append(loop.time() - sent)
                sent = None
                last = message["seq"]
                state = message["state"]
                if match_over(state):
                    return got
                if drop is not None and not dropped and drop(state):
                    dropped = True
                    break  # hang up mid-deal: the next stream resumes after `last`
                if my_turn(state):
                    key = position(state)
                    bot = RandomBot(random.Random(f"{seed}:{key}"))
                    action = action_to_json(bot.act(SeatView.from_json(state["deal"])))
                    action.pop("seat")
                    sent = loop.time()
                    via = act_via[acts % len(act_via)] if act_via else client
                    acts += 1
                    answer = await via.post(f"/api/bot/tables/{table}/act", json={"id": key, "action": action})
                    assert answer.status_code == 200, answer.text
