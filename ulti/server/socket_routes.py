"""The game's WebSocket (docs/protocol/connection.md): authenticate, then read typed client messages and
write events until it closes.

The edge of the socket: a frame is decoded (size and depth limits, ``inputs.decode_json``), parsed into
its typed message (``messages.parse_client_message``) and carried out by ``_dispatch``; a table
command goes to the table's actor through the hub (``_command``), idempotent by its id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any, Literal, NotRequired, TypedDict, assert_never, cast

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from ulti.server import auth, commands, sessions
from ulti.server.analysis import answer_hint
from ulti.server.config import Settings
from ulti.server.duplicate_routes import check_duplicate_lobby_chat
from ulti.server.httpguard import SOCKET_CHANNEL, same_origin
from ulti.server.hub import Connection, Hub
from ulti.server.inputs import BadInput, check_id, clean_text, decode_json
from ulti.server.messages import (
    Act,
    Back,
    CancelSeek,
    Chat,
    ClientMessage,
    Hint,
    LetBot,
    LobbyChat,
    OpenTable,
    Pace,
    Ping,
    Ready,
    SeekGame,
    TableMessage,
    WatchLobby,
    parse_client_message,
)
from ulti.server.tablerules import MAX_CHAT_LENGTH
from ulti.server.tablestate import CommandError
from ulti.server.throttle import MessageBucket
from ulti.server.visibility import socket_route
from ulti.server.workdesk import Asker
from ulti.server.wsprotocol import WebSocketProtocol
from ulti.store.ports import DuplicateBook

COOKIE = auth.COOKIE
#: seconds a refused WebSocket waits for its refusal (a reconnect loop then costs a handshake a second)
REFUSAL_DELAY = 1.0

router = APIRouter()


@router.websocket("/ws")
@socket_route
async def socket(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await serve_socket(websocket, hub.settings)


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """A browser's Origin must be this server's own origin (or a configured one); tools send none."""
    origin = websocket.headers.get("origin")
    return origin is None or same_origin(origin, websocket.headers.get("host"), settings.allowed_origins)


async def serve_socket(websocket: WebSocket, settings: Settings) -> None:
    """One client's WebSocket: authenticate, then read commands and write events until it closes."""
    hub: Hub = websocket.app.state.hub
    if not origin_allowed(websocket, settings):
        hub.metrics.bad_input("ws_origin")
        await websocket.close(code=1008, reason="origin not allowed")
        return
    token = websocket.query_params.get("token") or websocket.cookies.get(COOKIE)
    # a malformed or forged token costs no store read; a logged-out or ended session is refused here
    who = await sessions.resolve(websocket.app, token)
    if who is None:
        hub.metrics.bad_input("ws_session")
        await websocket.close(code=1008, reason="no valid session")
        return
    player_id = who.player_id
    address = websocket.client.host if websocket.client else "?"
    try:
        # counted before the store is read: a client that reconnects in a loop costs a refusal only
        hub.throttle.open_connection(player_id, address)
    except BadInput as exc:
        hub.metrics.refused(exc, "ws")
        await _refuse_socket(websocket, exc)
        return
    # the event form (docs/protocol/events.md §9.1): "patch" sends each event with what changed, else the whole view
    conn = Connection(player_id, who.name, patches=websocket.query_params.get("events") == "patch", address=address)
    sockets = sessions.sockets_of(websocket.app)
    sockets.add(conn, who)  # closed at once if its session ends (logout, password change, deletion)
    try:
        store: DuplicateBook = websocket.app.state.store
        await _serve_player(hub, store, websocket, settings, conn)
    finally:
        sockets.discard(conn)
        hub.throttle.close_connection(player_id, address)


async def _refuse_socket(websocket: WebSocket, exc: CommandError) -> None:
    """Wait a second, then accept only to say why and close (a browser sees no reason on a refused
    handshake). The wait costs nothing here and slows a client that reconnects in a loop."""
    await asyncio.sleep(REFUSAL_DELAY)
    await websocket.accept()
    with contextlib.suppress(Exception):
        await websocket.send_text(orjson.dumps({"type": "error", "id": None, **exc.to_json()}).decode())
        await websocket.close(code=1008, reason=exc.code)


class SocketPlayer(TypedDict):
    """Who the socket's session is."""

    id: str
    name: str


class SocketWelcome(TypedDict):
    """The socket's first message (docs/protocol/connection.md): who it is, and ``events: "patch"`` when
    it asked for the patch form."""

    type: Literal["welcome"]
    player: SocketPlayer
    events: NotRequired[Literal["patch"]]


async def _serve_player(
    hub: Hub, store: DuplicateBook, websocket: WebSocket, settings: Settings, conn: Connection
) -> None:
    await websocket.accept()
    receive, send = _channel(websocket)
    hub.connections.add(conn)
    writer = asyncio.create_task(_write(websocket, send, conn))
    conn.write_now = _direct_writer(send)
    welcome: SocketWelcome = {"type": "welcome", "player": {"id": conn.player_id, "name": conn.name}}
    if conn.patches:
        welcome["events"] = "patch"  # the server knows the patch form (docs/protocol/events.md §9.1)
    conn.send(welcome)
    # The socket is read in a task of its own: every frame, and every command's wait for its table,
    # resumes that task's few coroutines, not this route's chain of the framework's middleware (a
    # dozen coroutines under this one, each resumed at every wake: the load run's profile showed them).
    # Cancelling this route (the server stopping) cancels the reader it awaits.
    reader = asyncio.create_task(_read(hub, store, receive, settings, conn))
    try:
        await reader
    finally:
        reader.cancel()
        conn.write_now = None  # from here on every message queues, and the writer ends at the None
        conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _channel(websocket: WebSocket) -> tuple[Receive, Send]:
    """The socket's own ``receive`` and ``send``, as the server gave them (left in the scope by
    ``httpguard.RequestGuard``): a frame read or sent through them skips the framework's wrappers of each
    message (Starlette's state checks and exception middleware), which are there for the handshake and
    the close, made through ``websocket`` as before. Without the guard in front, the wrapped ones."""
    channel = websocket.scope.get(SOCKET_CHANNEL)
    if channel is None:
        return websocket.receive, websocket.send
    return cast("tuple[Receive, Send]", channel)


async def _read(hub: Hub, store: DuplicateBook, receive: Receive, settings: Settings, conn: Connection) -> None:
    """Read the client's messages and carry them out until the socket closes."""
    bucket = hub.throttle.bucket(conn.player_id)
    try:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":  # websocket.disconnect, the only other one
                hub.metrics.socket_closed(message.get("code"))
                break
            if not bucket.take():
                hub.metrics.bad_input("rate_limited")  # every dropped message; the answer goes out once a second
                await _excess(conn, bucket, settings)
                continue
            await handle_message(hub, store, conn, message, settings)
    except WebSocketDisconnect:
        pass
    finally:
        with contextlib.suppress(Exception):
            await hub.disconnected(conn)


async def _excess(conn: Connection, bucket: MessageBucket, settings: Settings) -> None:
    """A message over the rate: dropped unread, answered at most once a second, and reading slows.

    After each dropped message this socket is not read for a while, earning no allowance, so TCP
    pushes back on a flooding client: its excess costs a sleep, not parsing, and cutting it off
    (which would invite a reconnect, a far costlier handshake) is never needed.
    """
    if bucket.should_answer():
        message = f"too many messages: at most {settings.rate_per_second:g} per second; the excess was dropped"
        # the allowance refills within a second: the page can say when to try again
        conn.send({"type": "error", "id": None, "code": "rate_limited", "message": message, "args": {"retry_after": 1}})
    await asyncio.sleep(bucket.pause())
    bucket.no_credit()


def _encoded(message: Mapping[str, object]) -> str | None:
    """``message`` as JSON text; None (and an error logged) if it cannot be encoded."""
    data = _encoded_bytes(message)
    return None if data is None else data.decode()


def _encoded_bytes(message: Mapping[str, object]) -> bytes | None:
    """``message`` as JSON (UTF-8 bytes); None (and an error logged) if it cannot be encoded."""
    try:
        # orjson: the views are re-encoded for every watcher after every action (docs/stack.md §4: 15x stdlib)
        return orjson.dumps(message)
    except TypeError:
        # Everything sent was checked at the edge: a message that cannot be encoded is a bug. Say
        # so loudly, drop the message, but keep the connection.
        logging.getLogger("ulti").exception("unencodable message", extra={"fields": {"type": message.get("type")}})
        return None


def _direct_writer(send: Send) -> Callable[[Mapping[str, object]], bool] | None:
    """What sends a message on the socket from plain code (``Connection.write_now``), if ``send`` is the
    socket's own (``wsprotocol.WebSocketProtocol``): a message sent while nothing waits in the outbox then
    costs no wake of the writer task, which was a few of the server's microseconds per event (issue 40)."""
    protocol = getattr(send, "__self__", None)
    if not isinstance(protocol, WebSocketProtocol):
        return None

    def write_now(message: Mapping[str, object]) -> bool:
        data = _encoded_bytes(message)
        return True if data is None else protocol.send_text_now(data)  # an unencodable one is dropped

    return write_now


async def _write(websocket: WebSocket, send: Send, conn: Connection) -> None:
    while True:
        message = await conn.outbox.get()
        if message is None:
            break
        text = _encoded(message)
        if text is None:
            continue
        try:
            await send({"type": "websocket.send", "text": text})
        except Exception:
            break
    if websocket.application_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close()


async def handle_message(
    hub: Hub, store: DuplicateBook, conn: Connection, message: MutableMapping[str, Any], settings: Settings
) -> None:
    """One message received on ``conn``'s socket: decoded, checked and carried out, or answered with an error
    naming its fault (a bug is logged and answered as ``internal``: the connection stays open either way)."""
    client_id: Any = None
    try:
        text = message.get("text")
        if text is None:
            raise BadInput("bad_message", "messages are JSON text frames")
        data = decode_json(text, settings.max_message_bytes)
        if not isinstance(data, dict):
            raise BadInput("bad_message", "a message is a JSON object with a 'type'")
        client_id = data.get("id")
        if client_id is not None and not _valid_client_id(client_id):
            client_id = None
            raise BadInput("bad_message", "id must be a string of at most 64 characters or a 64-bit integer")
        await _dispatch(hub, store, conn, parse_client_message(data))
    except CommandError as exc:
        hub.metrics.refused(exc, "ws")
        conn.send({"type": "error", "id": client_id, **exc.to_json()})
    except Exception:
        # A bug must not cost the player their connection, nor anyone else theirs: log it, answer, go on.
        logging.getLogger("ulti").exception("command failed", extra={"fields": {"player": conn.player_id}})
        hub.metrics.refusal("internal", "ws")
        conn.send(
            {"type": "error", "id": client_id, "code": "internal", "message": "the server failed; nothing was done"}
        )


def _valid_client_id(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    return isinstance(value, str) and len(value) <= 64


async def _dispatch(hub: Hub, store: DuplicateBook, conn: Connection, message: ClientMessage) -> None:
    """Carry out one typed client message (already checked field by field)."""
    client_id = message.id
    if isinstance(message, Chat | LobbyChat):
        hub.throttle.chat_line(conn.player_id)  # before any work: a refused line changes nothing
    match message:
        case Act() | Chat() | Back() | Ready() | LetBot():  # TableMessage: nearly every message, matched first
            await _command(hub, conn, message)
        case Ping():
            conn.send({"type": "pong", "id": client_id})
        case WatchLobby():
            hub.connections.watch_lobby(conn)
            people = await hub.seeks.snapshot()  # who is online and playing, and the seeks (seeks.py)
            conn.send({"type": "lobby", "tables": await hub.open_tables(), "chat": list(hub.lobby_chat),
                       "people": {k: v for k, v in people.items() if k != "type"}})
        case SeekGame(deals=deals, wait=wait):
            await hub.seeks.seek(conn, deals, wait)
            conn.send({"type": "ack", "id": client_id})
        case CancelSeek():
            await hub.seeks.cancel(conn)
            conn.send({"type": "ack", "id": client_id})
        case LobbyChat(text=text):
            await check_duplicate_lobby_chat(hub, store, conn.player_id)  # no chat between an event's tables
            await hub.lobby_message(conn, clean_text(text, "text", MAX_CHAT_LENGTH))
            conn.send({"type": "ack", "id": client_id})
        case OpenTable(table=table):
            table_id = check_id(table, "table")
            source = await hub.watch(conn, table_id)  # asks the visibility policy (require_live)
            seat = source.state.seat_of(conn.player_id)
            view = hub.table_view(source, seat)
            conn.base = view  # the next event's patch is the change from this view
            conn.send({"type": "sync", "seq": source.state.seq, "state": view})
        case Pace(trick_pause=pace):
            # a seated player's wish, kept by the table's actor; anyone else's is acknowledged and ignored
            if conn.table_id is None:
                raise CommandError("no_table", "open a table first: {\"type\": \"open_table\", \"table\": ID}")
            await hub.execute(conn.table_id, commands.SetPace(conn.player_id, pace))
            if client_id is not None:
                conn.send({"type": "ack", "id": client_id})
        case Hint():
            # answered to this connection only: the hint is priced from its seat's own view
            if conn.table_id is None:
                raise CommandError("no_table", "open a table first: {\"type\": \"open_table\", \"table\": ID}")
            state = (await hub.source(conn.table_id)).state
            asker = Asker(conn.player_id, conn.address)
            answer = await answer_hint(hub.desk, state, asker, f"{conn.table_id}:{state.seq}")
            conn.send({"type": "hint", "id": client_id, "seq": state.seq, **answer})


async def _command(hub: Hub, conn: Connection, message: TableMessage) -> None:
    """A command that changes the table: idempotent by its id, acknowledged with its event number."""
    # nothing was awaited since the frame was read (parsing only): the command's arrival
    started = time.perf_counter()
    if conn.table_id is None:
        raise CommandError("no_table", "open a table first: {\"type\": \"open_table\", \"table\": ID}")
    command_id = f"{conn.player_id}:{message.id}"
    if hub.seen_client_id(conn.player_id, str(message.id)):
        # A command the table carried out is answered again with its event number, as after a restart
        # (when the table's own memory answers) and as the bot API does: a client that re-sends after a
        # reconnect learns that it took effect. Any other reused id (its command was refused or is still
        # running) is refused; either way nothing runs twice (docs/protocol/connection.md §5.3).
        done = (await hub.source(conn.table_id)).state.recent_commands.get(command_id)
        if done is None:
            raise CommandError("duplicate_id", f"command id {message.id!r} was already used; nothing was done")
        conn.send({"type": "ack", "id": message.id, "seq": done})
        return
    seq = await hub.execute(conn.table_id, _table_command(conn, message, command_id))
    # execute returns once the actor has queued the events in every watcher's outbox
    hub.metrics.command_done(message.type, started)
    conn.send({"type": "ack", "id": message.id, "seq": seq})


def _table_command(conn: Connection, message: TableMessage, command_id: str) -> commands.Command:
    """The table command a client's message asks for (sent by ``conn``'s player)."""
    player = conn.player_id
    match message:
        case Act(action=action):
            return commands.Play(player, action, command_id)
        case Chat(text=text, phrase=phrase):
            # the free text is checked (inputs.clean_text) once the table has said it may be said now
            return commands.Say(player, conn.name, text, phrase, command_id)
        case Back():
            return commands.Back(player)
        case Ready():
            return commands.Ready(player, command_id)
        case LetBot(seat=seat):
            return commands.LetBot(player, seat)
        case _:
            assert_never(message)
