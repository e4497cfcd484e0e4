"""HTTP routes of deal analyses and what-if lines (docs/protocol/analysis.md §22); the work is in ``analysis.py``."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request

from ulti.engine.fourmatch import FourMatch
from ulti.server import sessions, tablerecords
from ulti.server.analysis import AnalysisJobs, AnalysisStatus, MatchAnalysis, check_access, check_match_access, explore
from ulti.server.errors import CommandError
from ulti.server.hub import Hub
from ulti.server.inputs import check_id
from ulti.server.visibility import require_deal, shows_tables, visible_deals
from ulti.server.workdesk import Asker

router = APIRouter()


async def _asker(request: Request) -> Asker:
    """Who asks for long work, for its quotas: the session's player (None: none) and the client's address.

    The request counts against the long-work request rates, the address's before the session is
    resolved (a refused flood costs no store read), the player's after (``work_quota``, nothing done).
    A visitor without a session is a spectator: the analysis of a finished match is public.
    """
    hub: Hub = request.app.state.hub
    address = request.client.host if request.client else "?"
    hub.desk.limiter.request("address", address)
    who = await sessions.resolve(request.app, sessions.token_of(request))
    if who is not None:
        hub.desk.limiter.request("player", who.player_id)
    return Asker(None if who is None else who.player_id, address)


@router.get("/api/tables/{table_id}/deals/{index}/analysis", response_model=dict[str, object])
@shows_tables
async def deal_analysis(request: Request, table_id: str, index: int) -> AnalysisStatus:
    """The analysis of finished deal ``index``, or its job's status and progress (queued on first asking)."""
    check_id(table_id, "table id")
    asker = await _asker(request)  # counted before any other work
    viewer = asker.player_id
    hub: Hub = request.app.state.hub
    jobs: AnalysisJobs = request.app.state.analysis
    source = await hub.source(table_id)
    record = check_access(source.state, index, viewer)
    await require_deal(hub, source.state, viewer, index)  # no peeking (visibility.py)
    return await jobs.request(table_id, index, record, asker)


@router.get("/api/tables/{table_id}/analysis", response_model=dict[str, object])
@shows_tables
async def match_analysis(request: Request, table_id: str) -> MatchAnalysis:
    """Each seat's accuracy and cost over the analysed deals of the match (the others are queued now)."""
    check_id(table_id, "table id")
    asker = await _asker(request)  # counted before any other work
    viewer = asker.player_id
    hub: Hub = request.app.state.hub
    jobs: AnalysisJobs = request.app.state.analysis
    state = (await hub.source(table_id)).state
    indices = check_match_access(state, viewer)
    limit = await visible_deals(hub, state, viewer)
    if limit is not None:  # an event's table: only the deals the viewer may see (visibility.py)
        indices = [k for k in indices if k < limit]
    match = state.match
    # a table of four: each deal's seats are played by the table seats its rotation names
    positions = (lambda k: match.rotation(k).positions) if isinstance(match, FourMatch) else None
    return await jobs.match(table_id, indices, functools.partial(tablerecords.deal_record, state), asker, positions)


@router.get("/api/tables/{table_id}/deals/{index}/whatif")
@shows_tables
async def deal_what_if(request: Request, table_id: str, index: int, at: int, line: str = "") -> dict[str, Any]:
    """The double-dummy outcome of playing ``line`` (comma-separated card codes) after the first ``at``
    actions of finished deal ``index``, with the value of each next card."""
    check_id(table_id, "table id")
    if len(line) > 200:
        raise CommandError("bad_request", "line is at most 30 card codes")
    asker = await _asker(request)  # counted before any other work
    viewer = asker.player_id
    hub: Hub = request.app.state.hub
    source = await hub.source(table_id)
    await require_deal(hub, source.state, viewer, index)  # no peeking (visibility.py)
    cards = [c for c in line.split(",") if c]
    return await explore(hub.desk, source.state, index, asker, at, cards)
