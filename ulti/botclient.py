"""``ulti bot``: any built-in bot level playing real tables as an external bot, through the bot API.

One process, any number of tables: the account's event stream (``GET /api/stream/event``) says where
the bot is invited and which of its matches run; each table is followed on its own NDJSON stream
(``GET /api/bot/tables/{id}/stream``, resumed with ``since`` after a dropped connection) and played
with ``POST /api/bot/tables/{id}/act``. The bot thinks in a worker thread, so a slow search never
stops the other tables' streams from being read. docs/bot-api.md describes every route used here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from ulti.bots.levels import LEVELS, bot_for_level
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView

#: seconds to wait before opening a dropped stream again
RECONNECT_DELAY = 0.5
#: statuses that say the token itself no longer works (revoked, or the password changed): nothing to retry
TOKEN_REFUSED = (401,)


class BotApiError(Exception):
    """The server refused a bot API request; ``code`` is its error code (docs/protocol/errors.md §16)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        """An error as the server named it."""
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message

    @property
    def token_refused(self) -> bool:
        """Whether the server refused the token itself (revoked or unknown): the bot cannot go on."""
        return self.status in TOKEN_REFUSED

    def one_line(self, program: str) -> str:
        """The error as the one line a bot program ends with."""
        if self.token_refused:
            return f"{program}: the server refused the token ({self.code}): {self.message}"
        return f"{program}: {self}"


def my_turn(state: dict[str, Any]) -> bool:
    """Whether the view ``state`` waits for the viewer's seat to act.

    The viewer's seat in the deal is ``deal.seat``: at a table of four it differs from the table seat
    (``state.you``) and is None in the deals the viewer sits out (docs/bot-api.md §4).
    """
    deal = state.get("deal")
    return bool(
        deal is not None and deal["phase"] != "done" and deal.get("seat") is not None
        and deal["to_move"] == deal["seat"] and deal.get("choices")
    )


def match_over(state: dict[str, Any]) -> bool:
    """Whether the view's match has a winner."""
    match = state.get("match")
    return bool(match and match.get("winner") is not None)


def position(state: dict[str, Any]) -> str:
    """The point of the match a view shows (deal, actions so far): the id of the act made from it.

    Two views of one position give one id, so acting twice on it is answered once (idempotent).
    """
    return f"{state['deal_index']}-{len(state['deal']['log'])}"


@dataclass
class RemoteBot:
    """A built-in bot level playing through the bot API with one token."""

    server: str
    token: str
    level: str = "heuristic"
    seed: int | None = None
    #: a folder to write every line each table stream sent (one file per table), for tests and debugging
    record: Path | None = None
    #: told (table, seconds) from posting an act to the next event on that table's stream (benchmarks)
    on_latency: Callable[[str, float], None] | None = None
    log: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr, flush=True))
    tables: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    _client: httpx2.AsyncClient | None = None
    _sent_at: dict[str, float] = field(default_factory=dict)
    _target: int | None = None  # stop after this many matches (None: never)
    _done: asyncio.Event = field(default_factory=asyncio.Event)
    #: the refusal that ends the whole run (the token was revoked), from whichever task met it first
    _fatal: BotApiError | None = None

    @property
    def client(self) -> httpx2.AsyncClient:
        """The HTTP client (made on first use, within the running loop)."""
        if self._client is None:
            self._client = httpx2.AsyncClient(
                base_url=self.server.rstrip("/"),
                headers={"authorization": f"Bearer {self.token}"},
                timeout=httpx2.Timeout(30.0, read=60.0),
                limits=httpx2.Limits(max_connections=None, max_keepalive_connections=20),
            )
        return self._client

    async def close(self) -> None:
        """Stop following tables and close the HTTP client."""
        tasks = list(self.tables.values())  # a table task ending meanwhile removes itself from the dict
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._client is not None:
            await self._client.aclose()

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A bot API request; ``BotApiError`` on a refusal (a 429 is waited out and tried again)."""
        while True:
            response = await self.client.request(method, path, json=body)
            try:
                data = response.json()
            except ValueError:  # not the server's JSON (a proxy's error page): said in one line, not a traceback
                raise BotApiError(response.status_code, "bad_answer", response.text[:200]) from None
            if response.status_code == 429 and data["error"]["code"] == "rate_limited":
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                continue
            if response.status_code >= 400:
                error = data.get("error", {})
                raise BotApiError(response.status_code, error.get("code", "?"), error.get("message", ""))
            return data

    # ---------------------------------------------------------------- the account

    async def run(self, tables: int | None = None) -> None:
        """Follow the account's events for ever (or until ``tables`` matches have finished)."""
        account = await self.call("GET", "/api/bot/account")
        if not account["bot"]:
            raise BotApiError(403, "not_bot_account", "this token's account is not a bot account (ulti bot --upgrade)")
        self.log(f"playing as {account['name']} ({self.level})")
        self._target = tables
        following = asyncio.create_task(self._follow_events_forever())
        done = asyncio.create_task(self._done.wait())
        try:
            await asyncio.wait([following, done], return_when=asyncio.FIRST_COMPLETED)
            if following.done():
                following.result()  # a refusal (a revoked token) ends the run with its error
            if self._fatal is not None:
                raise self._fatal
        finally:
            for task in (following, done):
                task.cancel()

    def _give_up(self, exc: BotApiError) -> None:
        """A table's task met a refusal of the token: the whole run ends with it (the first one told)."""
        if self._fatal is None:
            self._fatal = exc
        self._done.set()

    async def _follow_events_forever(self) -> None:
        while True:
            try:
                await self._follow_events()
            except (httpx2.TransportError, httpx2.RemoteProtocolError) as exc:
                self.log(f"event stream dropped ({exc.__class__.__name__}); reconnecting")
                await asyncio.sleep(RECONNECT_DELAY)

    async def _follow_events(self) -> None:
        async with self.client.stream("GET", "/api/stream/event", timeout=httpx2.Timeout(30.0, read=None)) as response:
            await _check_stream(response)
            async for line in response.aiter_lines():
                if not line:
                    continue  # keep-alive
                message = json.loads(line)
                kind = message.get("type")
                if kind == "invited":
                    await self.accept(message)
                elif kind == "match_started":
                    self.follow(message["table"])
                elif kind == "error":
                    raise BotApiError(401, message["code"], message["message"])

    async def accept(self, invitation: dict[str, Any]) -> None:
        """Take the seat an ``invited`` event offers, and follow the table."""
        table = invitation["table"]
        try:
            await self.call("POST", f"/api/bot/tables/{table}/join",
                            {"seat": invitation["seat"], "invite": invitation["invite"]})
        except BotApiError as exc:
            self.log(f"could not join table {table}: {exc}")
            return
        self.log(f"joined table {table} at seat {invitation['seat']}")
        self.follow(table)

    def follow(self, table: str) -> None:
        """Play at ``table`` (once: a table already followed is left alone)."""
        if table not in self.tables and table not in self.finished:
            self.tables[table] = asyncio.create_task(self.play(table))

    # ---------------------------------------------------------------- one table

    async def play(self, table: str) -> None:
        """Follow ``table``'s stream and act on each turn until its match is over."""
        last: int | None = None
        thinking: asyncio.Task[None] | None = None
        latest: dict[str, Any] = {"acted": set()}  # the newest view, and the positions acted on
        out = (self.record / f"{table}.ndjson").open("a", encoding="utf-8") if self.record else None
        try:
            while True:
                params = {"since": str(last)} if last is not None else None
                try:
                    async with self.client.stream(
                        "GET", f"/api/bot/tables/{table}/stream", params=params, timeout=httpx2.Timeout(30.0, read=None)
                    ) as response:
                        await _check_stream(response)
                        async for line in response.aiter_lines():
                            if not line:
                                continue
                            if out is not None:
                                out.write(line + "\n")
                                out.flush()
                            message = json.loads(line)
                            if message.get("type") == "error":  # the stream's last line
                                status = 401 if message.get("code") == "token_revoked" else 409
                                raise BotApiError(status, str(message.get("code")), str(message.get("message")))
                            if message.get("type") not in ("sync", "event"):
                                continue
                            last = int(message["seq"])
                            sent = self._sent_at.pop(table, None)
                            if sent is not None and self.on_latency is not None:
                                self.on_latency(table, time.perf_counter() - sent)
                            latest["state"] = message["state"]
                            if match_over(message["state"]):
                                self.log(f"table {table}: match over, totals {message['state']['match']['totals']}")
                                return
                            if my_turn(message["state"]) and (thinking is None or thinking.done()):
                                thinking = asyncio.create_task(self._turn(table, latest))
                except (httpx2.TransportError, httpx2.RemoteProtocolError):
                    await asyncio.sleep(RECONNECT_DELAY)  # resumed after ``last``: nothing missed, nothing twice
        except BotApiError as exc:
            # the stream was refused: a token that no longer works ends the run; anything else this table only
            if exc.token_refused:
                self._give_up(exc)
            else:
                self.log(f"table {table}: {exc}")
        finally:
            self.finished.add(table)
            self.tables.pop(table, None)
            if self._target is not None and len(self.finished) >= self._target:
                self._done.set()
            if thinking is not None:
                thinking.cancel()
            if out is not None:
                out.close()

    async def _turn(self, table: str, latest: dict[str, Any]) -> None:
        """Act for as long as the latest view waits for this seat (a new turn may come while acting)."""
        done: set[str] = latest["acted"]
        while my_turn(latest["state"]) and position(latest["state"]) not in done:
            state = latest["state"]
            key = position(state)
            done.add(key)
            rng = random.Random(f"{self.seed}:{table}:{key}") if self.seed is not None else random.Random()
            view = SeatView.from_json(state["deal"])
            # the search runs in a thread: the other tables' streams go on being read meanwhile
            action = action_to_json(await asyncio.to_thread(bot_for_level(self.level, rng).act, view))
            action.pop("seat")
            self._sent_at[table] = time.perf_counter()
            try:
                await self.call("POST", f"/api/bot/tables/{table}/act", {"id": f"{table}-{key}", "action": action})
            except BotApiError as exc:
                self._sent_at.pop(table, None)
                if exc.token_refused:
                    self._give_up(exc)
                    return
                # the view moved on meanwhile (the move time ran out and the built-in bot played): the stream says so
                self.log(f"table {table}: {exc}")


async def run_bot(server: str, token: str, level: str, upgrade: bool, record: str | None, tables: int | None) -> int:
    """``ulti bot``: play as the token's bot account until stopped (or ``tables`` matches are over)."""
    if level not in LEVELS:
        print(f"ulti bot: unknown level {level!r}; levels: {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    bot = RemoteBot(server, token, level, record=Path(record) if record else None)
    if bot.record is not None:
        bot.record.mkdir(parents=True, exist_ok=True)
    try:
        if upgrade:
            await bot.call("POST", "/api/bot/account/upgrade", {})
        await bot.run(tables)
    except BotApiError as exc:
        print(exc.one_line("ulti bot"), file=sys.stderr)
        return 1
    except httpx2.HTTPError as exc:
        print(f"ulti bot: cannot reach the server {server}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        await bot.close()
    return 0


async def _check_stream(response: httpx2.Response) -> None:
    """Raise ``BotApiError`` with the server's code if a stream was refused (any status but 200)."""
    if response.status_code != 200:
        await response.aread()
        error = response.json().get("error", {})
        raise BotApiError(response.status_code, error.get("code", "?"), error.get("message", ""))
