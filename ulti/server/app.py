"""The ASGI app's composition root: the store, the hub and its services made at start, the routers.

Every route lives in the router of its subject (``*_routes.py``, ``botapi.py``); this module only
assembles them: the lifespan opens the store and starts the hub and the background services, and
``create_app`` adds the request guard, the error handlers and the routers, and mounts the page.
"""

from __future__ import annotations

import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from starlette.staticfiles import StaticFiles

from ulti.server import auth
from ulti.server.account_routes import router as account_router
from ulti.server.analysis import AnalysisJobs
from ulti.server.analysis_routes import router as analysis_router
from ulti.server.botapi import router as botapi_router
from ulti.server.botapi import start_bot_api
from ulti.server.cluster import Cluster
from ulti.server.config import Settings
from ulti.server.duplicate import ParJobs
from ulti.server.duplicate_routes import router as duplicate_router
from ulti.server.http_errors import install_error_handlers
from ulti.server.httpguard import RequestGuard
from ulti.server.hub import Hub
from ulti.server.level_routes import router as level_router
from ulti.server.logs import log, setup_logging
from ulti.server.metrics import Metrics
from ulti.server.openapi_bodies import describe_bodies
from ulti.server.player_routes import router as player_router
from ulti.server.process_routes import metrics_router
from ulti.server.process_routes import router as process_router
from ulti.server.puzzle_growth import Puzzles
from ulti.server.puzzle_routes import router as puzzle_router
from ulti.server.session_routes import router as session_router
from ulti.server.socket_routes import router as socket_router
from ulti.server.table_routes import router as table_router
from ulti.server.tournament_routes import router as tournament_router
from ulti.server.tournaments import Directors
from ulti.store.eventstore import EventStore
from ulti.store.puzzles import PuzzleStore

COOKIE = auth.COOKIE
WEB_DIR = Path(__file__).resolve().parents[2] / "web"
# the web app manifest's own type: a browser looks for it when it offers to install the site
mimetypes.add_type("application/manifest+json", ".webmanifest")


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
        await start_bot_api(app, store)
        # tournaments: each one's director, from its log (restart- and failover-safe, tournaments.py)
        app.state.tournaments = Directors(hub, store)
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
    app.state.metrics = metrics  # read by /metrics (process_routes.py)
    app.add_middleware(
        RequestGuard,
        max_body_bytes=settings.max_body_bytes,
        cookie_name=COOKIE,
        allowed_origins=settings.allowed_origins,
        on_refusal=metrics.refused_code,
    )
    install_error_handlers(app, metrics)  # every refusal in the API's error shape (http_errors.py)

    app.include_router(process_router)  # /healthz (process_routes.py)
    if settings.metrics:
        app.include_router(metrics_router)  # /metrics, for Prometheus
    app.include_router(session_router)  # /api/session, /api/me, /api/whoami (session_routes.py)
    app.include_router(table_router)  # /api/tables/..., /api/me/matches, /api/bids (table_routes.py)
    app.include_router(level_router)  # /api/bot_levels: the levels offered to people (level_routes.py)
    app.include_router(account_router)  # /api/account/... (ulti/server/account_routes.py)
    app.include_router(player_router)  # /api/players/..., /api/leaderboard, /@/{name} (player_routes.py)
    app.include_router(analysis_router)  # /api/tables/{id}/deals/{k}/analysis and /whatif (analysis_routes.py)
    app.include_router(botapi_router)  # /api/account/tokens, /api/bot/..., /api/stream/event (botapi.py)
    app.include_router(duplicate_router)  # /api/events/... and solo duplicate's par (duplicate_routes.py)
    app.include_router(tournament_router)  # /api/tournaments/... (tournament_routes.py)
    app.include_router(puzzle_router)  # /api/puzzles/... (puzzle_routes.py)
    app.include_router(socket_router)  # /ws, the game's WebSocket (socket_routes.py)
    # the bodies the routes read themselves, in /openapi.json (openapi_bodies.py)
    describe_bodies(app, session_router, table_router, level_router, account_router, player_router, analysis_router,
                    botapi_router, duplicate_router, tournament_router)

    # The page in the browser: plain static files (web/), mounted last so the API routes win.
    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app
