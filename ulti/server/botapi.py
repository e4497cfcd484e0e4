"""The bot API (docs/bot-api.md): personal API tokens, bot accounts, NDJSON streams and acts over HTTP.

The way lichess opens its doors to bots: any program that speaks HTTP plays real tables with a
personal token (``Authorization: Bearer ulti_…``). Nothing here is a second table machinery:

- A table stream is a connection like a WebSocket's (``hubcore.Connection``): it registers with the
  hub of whichever process serves it and watches the table through ``Hub.watch`` (a replica fed
  through Redis when another process owns the table), so it receives exactly the numbered,
  per-seat-filtered events a socket of that seat receives, and its seat counts as present.
- Acts and chat go through ``Hub.execute``, the WebSocket's command path: idempotent by the client's
  id, refused with the same codes and rule texts.
- The account's own events (invited, match started, match finished) come from the tables' owners
  (``Hub.commit_listeners``) and cross processes on one Redis channel.

Each line of a stream is one JSON object; an empty line is a keep-alive. Revoking a token ends its
streams at once in this process and, through Redis, in the others; every stream also checks now and
then that its token still exists, in case a message was lost.

What the routes and streams send is typed in ``botshapes.py``; a route that returns one of those shapes
declares ``response_model=dict[str, object]`` (a plain JSON object, as before), so that FastAPI sends the
same bytes and publishes the same schema whatever the Python type says.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from types import FrameType
from typing import Annotated, Any, Protocol

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from ulti.accounts import AccountError
from ulti.accounts.apitokens import BOT_PLAY, TABLE_READ, ApiTokens, check_scopes, check_token_name, is_api_token
from ulti.accounts.names import name_key
from ulti.server import sessions, tableviews
from ulti.server.answers import Done, Seated
from ulti.server.auth import new_id
from ulti.server.bodies import body_as, checked, field_refusal, json_object, parse
from ulti.server.botshapes import (
    AccountEvent,
    AccountNote,
    BotAccount,
    Challenges,
    Claimed,
    EventLine,
    Numbered,
    Revoked,
    RevokedNote,
    SeatableBots,
    StreamError,
    SyncLine,
    TokenList,
    Upgraded,
    UpgradedNote,
    Welcome,
)
from ulti.server.commands import Join, Play, Say
from ulti.server.errors import CommandError
from ulti.server.events import Event, parse_event
from ulti.server.hub import Hub
from ulti.server.hubcore import Connection, Outbox
from ulti.server.inputs import BadInput, check_id
from ulti.server.messages import Act, Chat, parse_client_message
from ulti.server.table_routes import SEAT_REFUSAL, JoinBody
from ulti.server.table_settings import MOST_SEATS, seat_fault
from ulti.server.tablestate import TableState
from ulti.server.visibility import shows_no_table, shows_tables
from ulti.store.ports import AccountBook, BotAccounts, TableIndex, TableLog

router = APIRouter()

#: seconds between keep-alive lines (an empty line) on an idle stream: proxies and clients see it live
KEEPALIVE_SECONDS = 4.0
#: every this many keep-alives a stream checks that its token still exists (a lost revocation message)
RECHECK_EVERY = 5
NDJSON = "application/x-ndjson"
#: the Redis channel of account events and revocations (several processes, cluster.py)
CHANNEL = "ulti:botapi"
#: what a stream sends when its token is revoked, before it ends
REVOKED: StreamError = {
    "type": "error", "code": "token_revoked", "message": "this API token was revoked: the stream ends"
}
#: headers of every stream: nginx must pass each line on at once, nobody may cache it
STREAM_HEADERS = {"x-accel-buffering": "no", "cache-control": "no-store"}


@dataclass(eq=False)
class OpenStream:
    """One open NDJSON stream of a token: its queue of messages (None ends it)."""

    token_id: str
    player_id: str
    outbox: Outbox = field(default_factory=Outbox)

    def end(self, message: StreamError | None = None) -> None:
        """End the stream, after ``message`` if given."""
        if message is not None:
            self.outbox.put_nowait(message)
        self.outbox.put_nowait(None)


class BotApiStore(AccountBook, BotAccounts, TableIndex, TableLog, Protocol):
    """The store's part the bot API uses: bot accounts and their tokens, an account by name (a bot
    invited), the tables an account sat at (its stream's first lines), a table's log (a stream's replay)."""


class BotApi:
    """This process's bot API: open streams by token, account event listeners, the link to the others."""

    def __init__(self, hub: Hub, store: BotApiStore) -> None:
        """The bot API of ``hub``'s process, over ``store``."""
        self.hub = hub
        self.store = store
        self.streams: dict[str, set[OpenStream]] = defaultdict(set)  # by token id
        self.listeners: dict[str, set[OpenStream]] = defaultdict(set)  # account event streams, by player id
        self._tasks: set[asyncio.Task[None]] = set()
        self.tokens: ApiTokens | None = None  # the app's (set by start_bot_api)

    # ---------------------------------------------------------------- streams

    def open(
        self, who: sessions.Identity, outbox: Outbox | None = None
    ) -> OpenStream:
        """Count a new stream of ``who``'s token, or refuse one over the limit (``too_many_connections``)."""
        assert who.token_id is not None
        held = self.streams[who.token_id]
        limit = self.hub.settings.quotas.streams_per_token
        if len(held) >= limit:
            message = f"at most {limit} open streams per token: close one first"
            raise BadInput("too_many_connections", message, params={"limit": limit})
        stream = OpenStream(who.token_id, who.player_id) if outbox is None else OpenStream(
            who.token_id, who.player_id, outbox
        )
        held.add(stream)
        return stream

    def release(self, stream: OpenStream) -> None:
        """``stream`` ended."""
        held = self.streams.get(stream.token_id)
        if held is not None:
            held.discard(stream)
            if not held:
                del self.streams[stream.token_id]
        listening = self.listeners.get(stream.player_id)
        if listening is not None:
            listening.discard(stream)
            if not listening:
                del self.listeners[stream.player_id]

    def revoked(self, token_id: str) -> int:
        """Token ``token_id`` is gone: forget it and end its streams here; how many ended."""
        ended = list(self.streams.get(token_id, ()))
        for stream in ended:
            stream.end(REVOKED)
        return len(ended)

    def end_all(self) -> None:
        """End every stream (the server is shutting down: a stream would hold its connection open)."""
        for held in list(self.streams.values()):
            for stream in list(held):
                stream.end()

    # ---------------------------------------------------------------- account events

    def tell(self, player_id: str, message: AccountEvent) -> None:
        """Send ``message`` to the account's event streams, here and in the other processes."""
        self._deliver(player_id, message)
        if self.hub.cluster is not None:
            note: AccountNote = {"kind": "account", "player": player_id, "message": message}
            self._spawn(self.hub.cluster.publish(CHANNEL, note))

    def _deliver(self, player_id: str, message: Mapping[str, object]) -> None:
        for stream in list(self.listeners.get(player_id, ())):
            stream.outbox.put_nowait(message)

    def on_commit(self, state: TableState, stored: list[tuple[int, Event]]) -> None:
        """A table's owner stored events: tell its bot accounts that their match started or finished."""
        bots = [(i, s.player_id) for i, s in enumerate(state.seats) if s.bot and s.player_id]
        if not bots or not stored:
            return
        started = any(event["type"] == "start" for _, event in stored)
        finished = stored[-1][1]["type"] == "action" and state.status == "finished"
        for seat, player_id in bots:
            if started:
                self.tell(player_id, {"type": "match_started", "table": state.table_id, "seat": seat})
            if finished and state.match is not None:
                self.tell(player_id, {"type": "match_finished", "table": state.table_id, "seat": seat,
                                      "totals": state.match.totals(), "winner": state.match.winner()})

    async def on_cluster(self, data: dict[str, Any]) -> None:
        """A message of another process (raw JSON of an ``AccountNote``, a ``RevokedNote`` or an
        ``UpgradedNote``): an account event to deliver here, a revoked token, an upgraded account."""
        if data.get("kind") == "account":
            self._deliver(str(data["player"]), dict(data["message"]))
        elif data.get("kind") == "revoked":
            self.forget(str(data["token"]))
        elif data.get("kind") == "upgraded":
            self.forget_account(str(data["player"]))

    def forget(self, token_id: str) -> None:
        """Drop a revoked token from this process's cache and end its streams here."""
        if self.tokens is not None:
            self.tokens.forget(token_id)
        self.revoked(token_id)

    def forget_account(self, player_id: str) -> None:
        """An account's tokens changed meaning (it became a bot account): read them again."""
        if self.tokens is not None:
            self.tokens.forget_account(player_id)

    def announce(self, payload: RevokedNote | UpgradedNote) -> None:
        """Tell the other processes (a revocation, an upgrade)."""
        if self.hub.cluster is not None:
            self._spawn(self.hub.cluster.publish(CHANNEL, payload))

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def start_bot_api(app: Any, store: BotApiStore) -> None:
    """Set up the bot API of a started app over ``store``: commit listener, Redis channel, streams ended at
    shutdown."""
    hub: Hub = app.state.hub
    api = BotApi(hub, store)
    api.tokens = sessions.api_tokens_of(app)
    app.state.bot_api = api
    hub.commit_listeners.append(api.on_commit)
    if hub.cluster is not None:
        await hub.cluster.listen(CHANNEL, api.on_cluster)
    _end_streams_on_exit(api)


def _end_streams_on_exit(api: BotApi) -> None:
    """Chain the server's SIGINT/SIGTERM handlers so that a shutdown ends the streams first.

    uvicorn shuts down once every response is complete, and a stream never completes by itself: without
    this, stopping a server that a bot is connected to would wait for the bot to hang up.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(api.end_all)
            previous(signum, frame)

        signal.signal(sig, handler)


# ---------------------------------------------------------------- helpers


def _api(request: Request) -> BotApi:
    api: BotApi = request.app.state.bot_api
    return api


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _caller(request: Request, *scopes: str) -> sessions.Identity:
    """The token's account, with one of ``scopes``, within the token's request rate."""
    who = await sessions.api_identity(request, scopes)
    assert who.token_id is not None
    _hub(request).throttle.api_request(who.token_id)
    return who


async def _bot(request: Request) -> sessions.Identity:
    """A bot account's ``bot:play`` token (only bot accounts play through the API)."""
    who = await _caller(request, BOT_PLAY)
    if not who.bot:
        raise CommandError(
            "not_bot_account", "only a bot account plays through the API: POST /api/bot/account/upgrade first"
        )
    return who


async def _account(request: Request) -> sessions.Identity:
    """The logged-in account of the web page (a session, never an API token: a token cannot mint tokens)."""
    who = await sessions.identity_of(request)
    if who.kind != "account":
        raise CommandError("not_account", "you are a guest: register first (POST /api/account/register)")
    return who


class ClaimBody(BaseModel):
    """``POST /api/account/bots``: one of the bot account's API tokens, the proof of control."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    token: str

    @field_validator("token")
    @classmethod
    def _api_token(cls, token: str) -> str:
        if not is_api_token(token):
            raise ValueError("not an API token")
        return token


class InviteBotBody(BaseModel):
    """``POST /api/tables/{id}/invite_bot``: the seat and the bot account's name."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    seat: int = Field(ge=0, lt=MOST_SEATS)
    bot: str | None = None

    @field_validator("bot", mode="before")
    @classmethod
    def _as_name(cls, bot: object) -> object:
        # any other JSON value is looked up as its text, as the route always did: it names no bot account
        return bot if bot is None or isinstance(bot, str) else str(bot)


class ChallengesBody(BaseModel):
    """``POST /api/bot/account/challenges``: whether the bot is offered to every host."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    accept: bool


def _refusal(request: Request, exc: AccountError) -> JSONResponse:
    _hub(request).metrics.refused_code(exc.code)
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)


def _line(message: Mapping[str, object]) -> bytes:
    return orjson.dumps({k: v for k, v in message.items() if k != "_t"}) + b"\n"


def _since(request: Request) -> int | None:
    value = request.query_params.get("since")
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        raise CommandError("bad_request", "since must be an event number (0 or more)")
    return int(value)


def _command_id(body: Mapping[str, object]) -> object:
    # no id: a fresh one (then a retried request is refused as a repeat of the action, not done twice)
    return body.get("id", "api-" + new_id())


# ---------------------------------------------------------------- tokens (the account page)


class TokenBody(BaseModel):
    """``POST /api/account/tokens``: the token's label and its scopes (the rules of ``ulti.accounts.apitokens``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    # validated even when absent, so that a missing field is refused in its rule's own words
    name: Annotated[str, BeforeValidator(checked(check_token_name))] = Field(
        default=None, validate_default=True)
    scopes: Annotated[tuple[str, ...], BeforeValidator(checked(check_scopes))] = Field(
        default=None, validate_default=True)


#: a token request's fault: its rule's own code and words
TOKEN_REFUSAL = field_refusal("bad_request", {})


@router.post("/api/account/tokens")
@shows_no_table("a new API token")
async def create_token(request: Request) -> JSONResponse:
    """A new personal API token ``{"name", "scopes"}``: its id and the token, shown this once."""
    who = await _account(request)
    body = parse(TokenBody, await json_object(request), TOKEN_REFUSAL)
    try:
        token_id, token = await sessions.api_tokens_of(request.app).create(who.player_id, body.name, list(body.scopes))
    except AccountError as exc:
        return _refusal(request, exc)
    return JSONResponse({"id": token_id, "token": token})


@router.get("/api/account/tokens", response_model=dict[str, object])
@shows_no_table("the account's API tokens")
async def list_tokens(request: Request) -> TokenList:
    """The account's tokens (never the tokens themselves), and whether it is a bot account."""
    who = await _account(request)
    listed = await sessions.api_tokens_of(request.app).listed(who.player_id)
    return {
        "bot": await _api(request).store.is_bot_account(who.player_id),
        "tokens": [
            {"id": t.token_id, "name": t.name, "scopes": list(t.scopes), "created_at": t.created_at,
             "last_used_at": t.last_used_at}
            for t in listed
        ],
    }


@router.delete("/api/account/tokens/{token_id}", response_model=dict[str, object])
@shows_no_table("revokes a token")
async def revoke_token(request: Request, token_id: str) -> Revoked:
    """Revoke a token: refused from now on, its open streams end (in every process)."""
    who = await _account(request)
    check_id(token_id, "token id")
    if not await sessions.api_tokens_of(request.app).revoke(who.player_id, token_id):
        raise CommandError("not_found", f"you hold no token {token_id!r}")
    api = _api(request)
    ended = api.revoked(token_id)
    api.announce({"kind": "revoked", "token": token_id})
    return {"ok": True, "streams_ended": ended}


# ---------------------------------------------------------------- the bot account


@router.get("/api/bot/account", response_model=dict[str, object])
@shows_no_table("the bot account itself")
async def bot_account(request: Request) -> BotAccount:
    """Who the token belongs to: id, name, whether it is a bot account, the token's scopes."""
    who = await _caller(request, BOT_PLAY, TABLE_READ)
    return {"id": who.player_id, "name": who.name, "bot": who.bot, "scopes": list(who.scopes)}


@router.post("/api/bot/account/upgrade", response_model=dict[str, object])
@shows_no_table("makes the account a bot account")
async def upgrade(request: Request) -> Upgraded:
    """Turn the token's account into a bot account, if it has never sat at a table."""
    who = await _caller(request, BOT_PLAY)
    store = _api(request).store
    if not who.bot:
        if await store.has_sat_at_a_table(who.player_id):
            raise CommandError(
                "bot_upgrade_refused", "an account that has sat at a table cannot become a bot account: make a new one"
            )
        await store.make_bot_account(who.player_id)
        api = _api(request)
        api.forget_account(who.player_id)
        api.announce({"kind": "upgraded", "player": who.player_id})
    return {"ok": True, "bot": True}


@router.post("/api/tables/{table_id}/invite_bot", response_model=dict[str, object])
@shows_no_table("invites a bot account to a seat")
async def invite_bot(request: Request, table_id: str) -> Done:
    """The host invites a bot account (by name) to an open seat or one kept for an invited player.

    The bot is told on its event stream (``invited``, with the seat's invite token) and joins with
    ``POST /api/bot/tables/{id}/join`` if it wants to.
    """
    check_id(table_id, "table id")
    who = await sessions.identity_of(request)
    body = await body_as(request, InviteBotBody, SEAT_REFUSAL)
    seat = body.seat
    hub = _hub(request)
    state = (await hub.source(table_id)).state
    if state.host != who.player_id:
        raise CommandError("not_host", "only the host invites bots")
    if seat >= len(state.seats):  # the edge allows a table of four's seat 3
        raise CommandError("bad_request", seat_fault(len(state.seats)))
    invite = state.seats[seat].invite  # None for an open seat: the bot joins it with the seat's number alone
    if not (state.seats[seat].kind == "open" or (state.seats[seat].kind == "invite" and invite is not None)):
        raise CommandError("bad_request", f"seat {seat} is taken: a bot is invited to an open or an invite seat")
    store = _api(request).store
    try:
        account = await store.account_by_key(name_key(body.bot or ""))
    except AccountError:
        account = None
    if account is None or not await store.is_bot_account(account.player_id):
        raise CommandError("not_found", f"no bot account named {body.bot!r}")
    _api(request).tell(account.player_id, {
        "type": "invited", "table": table_id, "seat": seat, "invite": invite,
        "host": state.host_name, "deals": state.deals_planned, "move_seconds": state.move_seconds,
        "rated": state.rated,
    })
    return {"ok": True}


@router.post("/api/account/bots", response_model=dict[str, object])
@shows_no_table("records that the account owns a bot account")
async def claim_bot(request: Request) -> Claimed:
    """The logged-in account owns the bot account whose API token ``{"token"}`` it presents (the proof
    of control): the waiting room then lists that bot to its tables' host."""
    who = await _account(request)
    message = "token must be one of the bot account's API tokens (ulti_…)"
    token = (await body_as(request, ClaimBody, field_refusal("bad_request", {"token": message}))).token
    tokens = _api(request).tokens
    assert tokens is not None
    owner = await tokens.resolve(token)
    if owner is None:
        raise CommandError("not_found", "no account holds that API token (revoked or mistyped)")
    if not owner.bot:
        raise CommandError("not_bot_account", "that token's account is not a bot account: upgrade it first")
    await _api(request).store.set_bot_owner(owner.player_id, who.player_id)
    return {"ok": True, "bot": {"id": owner.player_id, "name": owner.name}}


@router.post("/api/bot/account/challenges", response_model=dict[str, object])
@shows_no_table("the bot's own choice to be offered to every host")
async def accept_challenges(request: Request) -> Challenges:
    """The bot offers itself (``{"accept": true}``) to every host's waiting room, or stops (false)."""
    who = await _bot(request)
    refusal = field_refusal("bad_request", {"accept": "accept must be true or false"})
    accept = (await body_as(request, ChallengesBody, refusal)).accept
    await _api(request).store.set_bot_challenges(who.player_id, accept)
    return {"ok": True, "challenges": accept}


@router.get("/api/bots/seatable", response_model=dict[str, object])
@shows_no_table("names of bot accounts a host may invite")
async def seatable_bots(request: Request) -> SeatableBots:
    """The bot accounts the caller may seat from a waiting room: its own, then those accepting challenges."""
    who = await sessions.identity_of(request)
    bots = await _api(request).store.bots_for_host(who.player_id)
    return {"bots": [{"id": pid, "name": name, "mine": mine} for pid, name, mine in bots]}


# ---------------------------------------------------------------- streams


@router.get("/api/stream/event")
@shows_no_table("the account's own invitations and its own tables' starts and ends")
async def account_stream(request: Request) -> StreamingResponse:
    """The account's events as NDJSON: ``welcome``, then ``invited``, ``match_started``, ``match_finished``.

    On opening, a ``match_started`` line is sent for every match of the account still being played,
    so that a bot that restarts finds its tables again.
    """
    who = await _caller(request, BOT_PLAY, TABLE_READ)
    api = _api(request)
    stream = api.open(who)
    api.listeners[who.player_id].add(stream)
    try:
        welcome: Welcome = {"type": "welcome", "player": {"id": who.player_id, "name": who.name, "bot": who.bot}}
        first: list[AccountEvent] = [welcome]
        for table in await api.store.tables_of_player(who.player_id):
            if table["status"] == "playing":
                first.append({"type": "match_started", "table": table["table_id"], "seat": table["seat"]})
    except BaseException:
        api.release(stream)
        raise
    return StreamingResponse(_lines(api, stream, first), media_type=NDJSON, headers=STREAM_HEADERS)


async def _lines(api: BotApi, stream: OpenStream, first: list[AccountEvent]) -> AsyncIterator[bytes]:
    """The lines of an account's event stream."""
    try:
        for message in first:
            yield _line(message)
        async for item in _messages(api, stream):
            yield b"\n" if item is None else _line(item)
    finally:
        api.release(stream)


async def _messages(api: BotApi, stream: OpenStream) -> AsyncIterator[Mapping[str, object] | None]:
    """A stream's messages as they come, None for a keep-alive; ends when the stream is ended."""
    idle = 0
    while True:
        try:
            message = await asyncio.wait_for(stream.outbox.get(), KEEPALIVE_SECONDS)
        except TimeoutError:
            idle += 1
            if idle % RECHECK_EVERY == 0 and not await api.store.api_token_exists(stream.token_id):
                yield REVOKED  # revoked in a process whose message never came
                return
            yield None
            continue
        if message is None:
            return
        yield message


@router.get("/api/bot/tables/{table_id}/stream")
@shows_tables
async def table_stream(request: Request, table_id: str) -> StreamingResponse:
    """One table as the token's account sees it, as NDJSON.

    Without ``since``: first a ``sync`` (the full view of the seat, the WebSocket's ``sync``), then every
    event with its number. With ``since=N``: the events after N (from the log), then the live ones,
    none missing and none repeated.
    """
    who = await _caller(request, BOT_PLAY, TABLE_READ)
    check_id(table_id, "table id")
    since = _since(request)
    api, hub = _api(request), _hub(request)
    conn = Connection(who.player_id, who.name, program=True)
    stream = api.open(who, conn.outbox)
    hub.connections.add(conn)
    try:
        source = await hub.watch(conn, table_id)
        # the freshest copy (watch may have waited); nothing is awaited between reading its number
        # and its view, and every later event reaches the connection's outbox (skipped if <= seq)
        source = hub.actors.get(table_id) or hub.replicas.get(table_id) or source
        seq = source.state.seq
        if since is None:
            seat = source.state.seat_of(who.player_id)
            sync: SyncLine = {"type": "sync", "seq": seq, "state": hub.table_view(source, seat)}
            first: list[SyncLine] | list[EventLine] = [sync]
        elif since > seq:
            raise CommandError("bad_request", f"since={since} is beyond the table's last event ({seq})")
        else:
            first = await _replay(api.store, table_id, who.player_id, since, seq)
    except BaseException:
        api.release(stream)
        _spawn_disconnect(api, conn)
        raise
    lines = _table_lines(api, stream, conn, table_id, first, seq)
    return StreamingResponse(lines, media_type=NDJSON, headers=STREAM_HEADERS)


async def _table_lines(
    api: BotApi, stream: OpenStream, conn: Connection, table_id: str, first: list[SyncLine] | list[EventLine], last: int
) -> AsyncIterator[bytes]:
    """The lines of a table stream: ``first``, then each event after ``last`` once, in order."""
    try:
        for message in first:
            yield _line(message)
        async for item in _messages(api, stream):
            if item is None:
                yield b"\n"
            elif item.get("type") == "error":
                yield _line(item)
            elif item.get("type") == "event":
                seq = item["seq"]
                assert isinstance(seq, int)  # every event the hub sends carries its number
                if seq <= last:
                    continue  # already in the sync or the replay
                if seq > last + 1:
                    # never expected (the hub sends every event to every watcher); the log fills any hole
                    for missed in await _replay(api.store, table_id, conn.player_id, last, seq - 1):
                        yield _line(missed)
                yield _line(item)
                last = seq
    finally:
        api.release(stream)
        _spawn_disconnect(api, conn)


def _spawn_disconnect(api: BotApi, conn: Connection) -> None:
    # In its own task: a stream ended by the client is cancelled, and so would be any await here.
    api.hub.connections.discard(conn)
    api._spawn(api.hub.disconnected(conn))


async def _replay(store: TableLog, table_id: str, player_id: str, after: int, upto: int) -> list[EventLine]:
    """Events ``after + 1`` to ``upto`` of a table as ``player_id``'s seat saw them, rebuilt from the log."""
    state = TableState(table_id)
    out: list[EventLine] = []
    for raw in await store.events(table_id):
        if state.seq >= upto:
            break
        event = parse_event(raw)
        state.apply(event)
        if state.seq > after:
            seat = state.seat_of(player_id)
            view = tableviews.wire_view(state, seat)
            view["deadline"] = None  # long past
            for seat_view in view["table"]["seats"]:
                seat_view["connected"] = None
            public = tableviews.public_event(state, event, seat)
            out.append({"type": "event", "seq": state.seq, "event": public, "state": view})
    return out


# ---------------------------------------------------------------- playing


@router.post("/api/bot/tables/{table_id}/join", response_model=dict[str, object])
@shows_no_table("takes a seat: answers its number")
async def join(request: Request, table_id: str) -> Seated:
    """The bot takes ``seat`` (an open seat, or an invite seat with its ``invite`` token)."""
    who = await _bot(request)
    check_id(table_id, "table id")
    body = await body_as(request, JoinBody, SEAT_REFUSAL)
    join = Join(who.player_id, who.name, body.seat, body.invite, account=True, bot=True)
    return {"seat": int(await _hub(request).execute(table_id, join))}


@router.post("/api/bot/tables/{table_id}/leave", response_model=dict[str, object])
@shows_no_table("gives up a seat")
async def leave(request: Request, table_id: str) -> Done:
    """The bot stands up from a table whose match has not started."""
    who = await _bot(request)
    check_id(table_id, "table id")
    await _hub(request).leave(table_id, who.player_id)
    return {"ok": True}


@router.post("/api/bot/tables/{table_id}/act", response_model=dict[str, object])
@shows_no_table("a game action: answers its event number")
async def act(request: Request, table_id: str) -> Numbered:
    """A game action ``{"action": {...}, "id": ...}`` (the WebSocket's ``act`` without ``type``): its event number."""
    who = await _bot(request)
    check_id(table_id, "table id")
    body = await json_object(request)
    message = parse_client_message({**body, "type": "act", "id": _command_id(body)})
    assert isinstance(message, Act)
    play = Play(who.player_id, message.action, cid=f"{who.player_id}:{message.id}")
    return {"seq": await _hub(request).execute(table_id, play)}


@router.post("/api/bot/tables/{table_id}/chat", response_model=dict[str, object])
@shows_no_table("a chat line: answers its event number")
async def chat(request: Request, table_id: str) -> Numbered:
    """A chat line ``{"phrase": key}`` (during a deal only preset phrases) or ``{"text": ...}`` between deals."""
    who = await _bot(request)
    check_id(table_id, "table id")
    body = await json_object(request)
    message = parse_client_message({**body, "type": "chat", "id": _command_id(body)})
    assert isinstance(message, Chat)
    hub = _hub(request)
    hub.throttle.chat_line(who.player_id)
    say = Say(who.player_id, who.name, message.text, message.phrase, cid=f"{who.player_id}:{message.id}")
    return {"seq": await hub.execute(table_id, say)}
