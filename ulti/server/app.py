"""The ASGI app: JSON HTTP API (sessions, lobby, tables, records) and the game WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import time
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketState

from ulti.accounts.names import name_key as account_name_key
from ulti.accounts.names import name_skeleton
from ulti.accounts.ratings import NEWCOMER, is_provisional, shown_rating
from ulti.engine.contracts import BIDS, KONTRA_STEP_NAMES, Bid
from ulti.engine.replay import replay_record
from ulti.server import auth, sessions
from ulti.server.account_routes import router as account_router
from ulti.server.analysis import AnalysisJobs, answer_hint
from ulti.server.analysis_routes import router as analysis_router
from ulti.server.botapi import router as botapi_router
from ulti.server.botapi import start_bot_api
from ulti.server.cluster import Cluster
from ulti.server.config import Settings
from ulti.server.duplicate import ParJobs
from ulti.server.event_routes import check_event_lobby_chat, viewer_of
from ulti.server.event_routes import router as event_router
from ulti.server.httpguard import RequestGuard, same_origin
from ulti.server.hub import Connection, Hub
from ulti.server.inputs import BadInput, check_id, clean_name, clean_text, decode_json
from ulti.server.logs import log, setup_logging
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
    WatchLobby,
    parse_client_message,
)
from ulti.server.metrics import CONTENT_TYPE, Metrics
from ulti.server.openapi_bodies import describe_bodies
from ulti.server.player_routes import router as player_router
from ulti.server.puzzle_growth import Puzzles
from ulti.server.puzzle_routes import router as puzzle_router
from ulti.server.table_settings import parse_settings
from ulti.server.tablestate import MAX_CHAT_LENGTH, CommandError
from ulti.server.throttle import MessageBucket
from ulti.server.tournament_routes import router as tournament_router
from ulti.server.tournaments import Directors
from ulti.server.visibility import (
    listed,
    require_deal,
    require_live,
    shows_no_table,
    shows_tables,
    socket_route,
    visible_deals,
)
from ulti.server.workdesk import Asker
from ulti.store import EventStore
from ulti.store.puzzles import PuzzleStore

COOKIE = auth.COOKIE
#: seconds a refused WebSocket waits for its refusal (a reconnect loop then costs a handshake a second)
REFUSAL_DELAY = 1.0
WEB_DIR = Path(__file__).resolve().parents[2] / "web"
# the web app manifest's own type: a browser looks for it when it offers to install the site
mimetypes.add_type("application/manifest+json", ".webmanifest")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


_STATUS = {
    "not_found": 404,
    "unauthorized": 401,
    "not_host": 403,
    "reserved": 403,
    "bad_origin": 403,
    "practice_table": 403,
    "seed_not_allowed": 403,
    "account_required": 403,
    "rate_limited": 429,
    "work_quota": 429,
    "login_to_analyse": 401,
    "too_many_connections": 429,
    "too_large": 413,
    "too_deep": 400,
    "missing_scope": 403,
    "not_bot_account": 403,
    "bot_account": 403,
    "analysis_after_match": 403,
    "hint_rated": 403,
    "hint_not_learner": 403,
    "learner_rated": 403,
    "event_hidden": 403,
    "event_table": 403,
    "event_chat_closed": 403,
    # a route declared to show a table answered without asking the visibility policy: a bug, refused
    "visibility_unchecked": 500,
}


def create_app(settings: Settings) -> FastAPI:
    """The server app for ``settings``."""
    # this app's own registry: several apps in one process (tests) must not share counters
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        setup_logging(on_bad_input=metrics.bad_input)
        if settings.db_url.startswith("sqlite") and ":///" in settings.db_url:
            path = settings.db_url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = await EventStore.open(settings.db_url)
        secret = settings.secret or await store.set_setting_once("session_secret", auth.new_secret())
        cluster = Cluster(settings.redis_url, settings.lease_seconds) if settings.redis_url else None
        hub = Hub(store, settings, cluster, metrics)
        await hub.load()
        app.state.hub, app.state.secret, app.state.store = hub, secret, store
        # puzzles: the shipped puzzles the store lacks added, grown from deals played here (puzzle_growth.py)
        app.state.puzzles = Puzzles(PuzzleStore(store.engine), hub)
        await app.state.puzzles.start()
        # deal analyses: the store's queue, worked through in the low-priority long-work processes (restart-safe);
        # each analysis stored offers its players the puzzles of their own mistakes (told before the queue
        # starts, so that the jobs a restart resumes are told too)
        app.state.analysis = AnalysisJobs(store, hub.desk, on_done=app.state.puzzles.analysed)
        app.state.analysis.start()
        # solo duplicate: the par replays, queued in the store and played in the long-work processes (restart-safe)
        app.state.par = ParJobs(store, hub)
        app.state.par.start()
        await start_bot_api(app)
        # tournaments: each one's director, from its log (restart- and failover-safe, tournaments.py)
        app.state.tournaments = Directors(hub)
        app.state.tournaments.tell = app.state.bot_api.tell
        app.state.tournaments.run()
        log("server started", db=settings.db_url.split("://")[0], tables=len(hub.actors))
        try:
            yield
        finally:
            app.state.analysis.close()
            app.state.par.close()
            app.state.tournaments.close()
            app.state.puzzles.close()
            hub.close()
            if cluster is not None:
                await cluster.close()
            await store.close()

    app = FastAPI(title="Ulti", lifespan=lifespan)
    app.add_middleware(
        RequestGuard,
        max_body_bytes=settings.max_body_bytes,
        cookie_name=COOKIE,
        allowed_origins=settings.allowed_origins,
        on_refusal=metrics.refused_code,
    )

    @app.exception_handler(CommandError)
    async def command_error(_request: Request, exc: CommandError) -> JSONResponse:
        metrics.refused(exc, "http")
        status = _STATUS.get(exc.code, 400 if exc.code.startswith("bad_") else 409)
        retry = exc.params.get("retry_after")
        headers = {"retry-after": str(retry)} if isinstance(retry, int) else None  # a 429 says when, as a header too
        return JSONResponse({"error": exc.to_json()}, status_code=status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        metrics.refused_code(code)
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        metrics.refused_code("bad_request")
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, "bad_request", f"{where}: {first.get('msg', 'invalid request')}")

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    async def player_of(request: Request) -> tuple[str, str]:
        # one resolver for guest tokens and account sessions (ulti/server/sessions.py), as for the socket
        who = await sessions.identity_of(request)
        return who.player_id, who.name

    async def body_of(request: Request) -> dict[str, Any]:
        # the RequestGuard middleware has already bounded the size; orjson refuses what cannot be re-encoded
        body = decode_json(await request.body(), settings.max_body_bytes, "request body")
        if not isinstance(body, dict):
            raise CommandError("bad_request", "the request body must be a JSON object")
        return body

    @app.get("/healthz")
    @shows_no_table("the process's health: counts of tables and connections")
    async def healthz(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        return {
            "ok": True,
            "tables": len(hub.actors),
            "connections": len(hub.connections),
            "process": hub.cluster.process_id if hub.cluster else None,
        }

    if settings.metrics:

        @app.get("/metrics", include_in_schema=False)
        @shows_no_table("the process's Prometheus counters")
        async def metrics_text() -> Response:
            # This process's figures only: Prometheus scrapes every process on its own port, never
            # through the proxy, which refuses /metrics to the outside (docs/deploy.md).
            return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    @app.post("/api/session")
    @shows_no_table("a new guest session")
    async def new_session(request: Request) -> JSONResponse:
        body = await body_of(request)
        name = clean_name(body.get("name"))
        hub_of(request).throttle.new_session(request.client.host if request.client else "?")
        store = hub_of(request).store
        if await store.account_by_key(account_name_key(name)) or await store.account_by_skeleton(name_skeleton(name)):
            # a guest must not pass for an account's owner (player pages, leaderboard, ratings)
            raise CommandError(
                "name_registered", f"an account named {name!r} exists: log in, or play under another name"
            )
        player_id = auth.new_id()
        await hub_of(request).store.add_player(player_id, name)
        token = auth.sign(request.app.state.secret, player_id)
        response = JSONResponse({"token": token, "player": {"id": player_id, "name": name}})
        response.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=365 * 86400)
        return response

    @app.get("/api/me")
    @shows_no_table("the session's own name and rating")
    async def me(request: Request) -> dict[str, Any]:
        who = await sessions.identity_of(request)
        me: dict[str, Any] = {"id": who.player_id, "name": who.name, "kind": who.kind}
        if who.kind == "account":
            # an account that has played no rated match shows a newcomer's rating
            stored = await hub_of(request).store.skill_of(who.player_id)
            mu, played = (NEWCOMER.mu, 0) if stored is None else (stored.mu, stored.rated_matches)
            me["rating"] = {"value": shown_rating(mu), "provisional": is_provisional(played), "matches": played}
        return me

    @app.get("/api/whoami")
    @shows_no_table("the session's own name")
    async def whoami(request: Request) -> dict[str, Any]:
        """The session's player, or null without a valid session: a page asks it on a first visit
        without getting a 401 (which browsers log as a console error)."""
        try:
            player_id, name = await player_of(request)
        except CommandError:
            return {"player": None}
        return {"player": {"id": player_id, "name": name}}

    @app.get("/api/me/matches")
    @shows_tables
    async def my_matches(request: Request) -> dict[str, Any]:
        player_id, _ = await player_of(request)
        matches = await hub_of(request).store.tables_of_player(player_id)
        shown = listed([m["summary"] for m in matches])
        return {"matches": [{**m, "summary": summary} for m, summary in zip(matches, shown, strict=True)]}

    @app.get("/api/tables")
    @shows_tables
    async def tables(request: Request) -> dict[str, Any]:
        return {"tables": await hub_of(request).open_tables()}  # through visibility.listed (lobby.py)

    @app.post("/api/tables")
    @shows_no_table("creates a table: answers its id and invite links")
    async def create_table(request: Request) -> dict[str, Any]:
        who = await sessions.identity_of(request)
        player_id, name = who.player_id, who.name
        body = await body_of(request)
        hub_of(request).throttle.new_table(player_id)  # counted before the settings are read, refused or not
        chosen = parse_settings(body)
        table_id, invites = await hub_of(request).create_table(player_id, name, chosen, who.kind == "account")
        return {"table_id": table_id, "invites": {str(k): v for k, v in invites.items()}}

    @app.get("/api/tables/{table_id}")
    @shows_tables
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        player_id, _ = await player_of(request)
        hub = hub_of(request)
        source = await hub.source(table_id)
        await require_live(hub, source.state, player_id)  # an event's table: its own players only
        view = hub.table_view(source, source.state.seat_of(player_id))
        if source.state.host == player_id:
            # the host may fetch the invite links again (another device, a cleared browser)
            view["invites"] = {str(i): s.invite for i, s in enumerate(source.state.seats) if s.kind == "invite"}
        return view

    @app.post("/api/tables/{table_id}/join")
    @shows_no_table("takes a seat: answers its number")
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        who = await sessions.identity_of(request)
        body = await body_of(request)
        seat = await hub_of(request).join(
            table_id, who.player_id, who.name, body.get("seat"), body.get("invite"), who.kind == "account"
        )
        return {"seat": seat}

    @app.post("/api/tables/{table_id}/leave")
    @shows_no_table("gives up a seat")
    async def leave(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        player_id, _ = await player_of(request)
        await hub_of(request).leave(table_id, player_id)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/resign")
    @shows_no_table("resigns the match: a bot plays the seat to the end")
    async def resign(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        player_id, _ = await player_of(request)
        await hub_of(request).resign(table_id, player_id)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/rematch")
    @shows_no_table("asks for or accepts the rematch of a finished match: answers the new table's id")
    async def rematch(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        who = await sessions.identity_of(request)
        new_id = await hub_of(request).rematch(table_id, who.player_id, who.name, who.kind == "account")
        return {"table_id": new_id}

    @app.post("/api/tables/{table_id}/bot")
    @shows_no_table("seats a bot")
    async def add_bot(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        player_id, _ = await player_of(request)
        body = await body_of(request)
        await hub_of(request).add_bot(table_id, player_id, body.get("seat"), body.get("level", "heuristic"))
        return {"ok": True}

    @app.post("/api/tables/{table_id}/start")
    @shows_no_table("starts the match")
    async def start(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        player_id, _ = await player_of(request)
        body = await body_of(request)
        await hub_of(request).start(table_id, player_id, bool(body.get("fill_bots", False)))
        return {"ok": True}

    @app.get("/api/tables/{table_id}/record")
    @shows_tables
    async def match_record(request: Request, table_id: str) -> dict[str, Any]:
        check_id(table_id, "table id")
        source = await hub_of(request).source(table_id)
        record = source.state.match_record()
        limit = await visible_deals(hub_of(request), source.state, await viewer_of(request))
        if limit is not None:  # an event's table: the deals the viewer may see (visibility.py)
            record["deals"] = record["deals"][:limit]
        return record

    @app.get("/api/tables/{table_id}/deals/{index}/record")
    @shows_tables
    async def deal_record(request: Request, table_id: str, index: int) -> dict[str, Any]:
        check_id(table_id, "table id")
        source = await hub_of(request).source(table_id)
        record = source.state.deal_record(index)
        await require_deal(hub_of(request), source.state, await viewer_of(request), index)
        return record

    @app.get("/api/tables/{table_id}/deals/{index}/replay")
    @shows_tables
    async def deal_replay(request: Request, table_id: str, index: int) -> Response:
        """The engine's replay frames of finished deal ``index`` (docs/protocol/http.md §15): the page draws them."""
        check_id(table_id, "table id")
        source = await hub_of(request).source(table_id)
        record = source.state.deal_record(index)  # refuses a deal that is not finished
        await require_deal(hub_of(request), source.state, await viewer_of(request), index)
        # orjson: some 40 full views, ten times faster than FastAPI's encoder
        return Response(orjson.dumps({"frames": replay_record(record)}), media_type="application/json")

    @app.get("/api/bids")
    @shows_no_table("the rules' table of bids")
    async def bid_table() -> dict[str, Any]:
        return {"bids": [bid_json(b) for b in BIDS], "kontra_steps": list(KONTRA_STEP_NAMES[1:])}

    app.include_router(account_router)  # /api/account/... (ulti/server/account_routes.py)
    app.include_router(player_router)  # /api/players/..., /api/leaderboard, /@/{name} (player_routes.py)
    app.include_router(analysis_router)  # /api/tables/{id}/deals/{k}/analysis and /whatif (analysis_routes.py)
    app.include_router(botapi_router)  # /api/account/tokens, /api/bot/..., /api/stream/event (botapi.py)
    app.include_router(event_router)  # /api/events/... and solo duplicate's par (event_routes.py)
    app.include_router(tournament_router)  # /api/tournaments/... (tournament_routes.py)
    app.include_router(puzzle_router)  # /api/puzzles/... (puzzle_routes.py)
    # the bodies the routes read by hand, in /openapi.json (openapi_bodies.py)
    describe_bodies(app, account_router, player_router, analysis_router, botapi_router, event_router,
                    tournament_router)

    @app.websocket("/ws")
    @socket_route
    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, settings)

    # The page in the browser: plain static files (web/), mounted last so the API routes win.
    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


def bid_json(bid: Bid) -> dict[str, Any]:
    """A bid as the page shows it in the ladder."""
    return {
        "code": bid.code,
        "name_en": bid.name_en,
        "name_hu": bid.name_hu,
        "rung": bid.rung,
        "value": bid.value,
        "kind": bid.kind.value,
        "open": bid.is_open,
        "parts": [{"part": p.value, "value": v} for p, v in bid.parts],
    }


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
        await _serve_player(hub, websocket, settings, conn)
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


async def _serve_player(hub: Hub, websocket: WebSocket, settings: Settings, conn: Connection) -> None:
    await websocket.accept()
    hub.connections.add(conn)
    writer = asyncio.create_task(_write(websocket, conn))
    bucket = hub.throttle.bucket(conn.player_id)
    welcome: dict[str, Any] = {"type": "welcome", "player": {"id": conn.player_id, "name": conn.name}}
    if conn.patches:
        welcome["events"] = "patch"  # the server knows the patch form (docs/protocol/events.md §9.1)
    conn.send(welcome)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                hub.metrics.socket_closed(message.get("code"))
                break
            if not bucket.take():
                hub.metrics.bad_input("rate_limited")  # every dropped message; the answer goes out once a second
                await _excess(conn, bucket, settings)
                continue
            await _handle(hub, conn, message, settings)
    except WebSocketDisconnect:
        pass
    finally:
        with contextlib.suppress(Exception):
            await hub.disconnected(conn)
        conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


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


async def _write(websocket: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.outbox.get()
        if message is None:
            break
        try:
            # orjson: the views are re-encoded for every watcher after every action (docs/stack.md §4: 15x stdlib)
            text = orjson.dumps(message).decode()
        except TypeError:
            # Everything sent was checked at the edge: a message that cannot be encoded is a bug. Say
            # so loudly, but keep the connection (tests/server/test_encodable.py guards against it).
            logging.getLogger("ulti").exception("unencodable message", extra={"fields": {"type": message.get("type")}})
            continue
        try:
            await websocket.send_text(text)
        except Exception:
            break
    if websocket.application_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close()


async def _handle(hub: Hub, conn: Connection, message: MutableMapping[str, Any], settings: Settings) -> None:
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
        await _dispatch(hub, conn, parse_client_message(data))
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


async def _dispatch(hub: Hub, conn: Connection, message: ClientMessage) -> None:
    """Carry out one typed client message (already checked field by field)."""
    client_id = message.id
    if isinstance(message, Chat | LobbyChat):
        hub.throttle.chat_line(conn.player_id)  # before any work: a refused line changes nothing
    match message:
        case Ping():
            conn.send({"type": "pong", "id": client_id})
        case WatchLobby():
            conn.watches_lobby = True
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
            await check_event_lobby_chat(hub, conn.player_id)  # no chat between an event's tables
            await hub.lobby_message(conn, clean_text(text, "text", MAX_CHAT_LENGTH))
            conn.send({"type": "ack", "id": client_id})
        case OpenTable(table=table):
            table_id = check_id(table, "table")
            source = await hub.watch(conn, table_id)  # asks the visibility policy (require_live)
            seat = source.state.seat_of(conn.player_id)
            view = hub.table_view(source, seat)
            conn.base = view  # the next event's patch is the change from this view
            conn.send({"type": "sync", "seq": source.state.seq, "state": view})
        case Act() | Chat() | Back() | Ready() | LetBot():
            await _command(hub, conn, message)
        case Pace(trick_pause=pace):
            # a seated player's wish, kept by the table's actor; anyone else's is acknowledged and ignored
            if conn.table_id is None:
                raise CommandError("no_table", "open a table first: {\"type\": \"open_table\", \"table\": ID}")
            await hub.execute(conn.table_id, "pace", {"player": conn.player_id, "pace": pace})
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


async def _command(hub: Hub, conn: Connection, message: Act | Chat | Back | Ready | LetBot) -> None:
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
    args: dict[str, Any] = {"player": conn.player_id, "cid": command_id}
    if isinstance(message, Chat):
        # the free text is checked (inputs.clean_text) once the table has said it may be said now
        args.update(name=conn.name, text=message.text, phrase=message.phrase)
    elif isinstance(message, Act):
        args["action"] = message.action
    elif isinstance(message, LetBot):
        args["seat"] = message.seat
    seq = await hub.execute(conn.table_id, message.type, args)
    # execute returns once the actor has queued the events in every watcher's outbox
    hub.metrics.command_done(message.type, started)
    conn.send({"type": "ack", "id": message.id, "seq": seq})
