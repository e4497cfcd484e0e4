"""Duplicate events over HTTP (docs/protocol/duplicate.md §23), and the rule that keeps their deals from peeking eyes.

An event is a set of ordinary tables created with the event's seed (``Hub.create_table(event=…)``),
so every table holds the same cards on every deal, seat for seat (``ulti.duplicates.deals``). The store
keeps only the event's row (its seed, settings and tables in order); who sits where, each table's
results, the cross-table and the standings are read from the tables themselves every time, so a
restart or a takeover by another process needs nothing extra.

No peeking is the visibility policy's (``ulti.server.visibility``): while the event runs, a table is
watched live by its own players only, and every other viewer sees deal ``k`` of any table (its record,
replay, analysis, its results on the cross-table) once every table of the event has finished deal
``k``. Once every table has finished, everything is open, and the event record can be downloaded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ulti.duplicates import build_duplicate_record
from ulti.duplicates.matchpoints import deal_matchpoints, standings
from ulti.server import sessions, tablerecords, tableviews
from ulti.server.answers import Done
from ulti.server.auth import new_id
from ulti.server.bodies import field_refusal, parse, store_of
from ulti.server.commands import Join, Start
from ulti.server.duplicateshapes import CrossTable, DealEntry, DealLine, EventMade, EventSeat, ParAnswer
from ulti.server.errors import CommandError
from ulti.server.hub import Hub
from ulti.server.inputs import check_id, decode_json
from ulti.server.table_settings import MAX_MOVE_SECONDS, BotLevel, MatchLength, OpenSeat, TableSettings
from ulti.server.tablestate import BOT_LEVELS, TableState
from ulti.server.visibility import (
    Sight,
    deals_finished,
    duplicate_row,
    duplicate_sight,
    duplicate_states,
    duplicate_status,
    require_deal,
    shows_no_table,
    shows_tables,
)
from ulti.store.ports import DuplicateBook, DuplicateRow

router = APIRouter()

MAX_TABLES = 50
NOT_OVER = "the event record is ready once every table has finished"


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _store(request: Request) -> DuplicateBook:
    return store_of(request)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (no body: ``{}``); the RequestGuard middleware has already refused
    malformed and too deep bodies, and this checks them the same way again rather than trust that."""
    body = decode_json(await request.body() or b"{}", _hub(request).settings.max_body_bytes, "request body")
    if not isinstance(body, dict):
        raise CommandError("bad_request", "the request body must be a JSON object")
    return body


def _json(payload: Mapping[str, object]) -> Response:
    # orjson: the cross-table of 20 tables is a few hundred results
    return Response(orjson.dumps(payload), media_type="application/json")


async def viewer_of(request: Request) -> str | None:
    """The session's player id, or None (a visitor without a session is an outsider)."""
    who = await sessions.resolve(request.app, sessions.token_of(request))
    return None if who is None else who.player_id


async def check_duplicate_lobby_chat(hub: Hub, store: DuplicateBook, player_id: str) -> None:
    """Chat between tables is off during an event: its players may not use the lobby chat meanwhile."""
    for duplicate_id in await store.duplicates_of_player(player_id):
        row = await duplicate_row(hub, duplicate_id)
        states = await duplicate_states(hub, row)
        if duplicate_status(states) == "playing" and any(s.seat_of(player_id) is not None for s in states):
            raise CommandError("event_chat_closed", "chat between tables is off during an event")


# ---------------------------------------------------------------- the cross-table


def deal_line(state: TableState, number: int, index: int) -> DealLine | None:
    """Table ``number``'s result on deal ``index`` (None if it has not finished it)."""
    match = state.match
    if match is None or index >= len(match.deals) or match.deals[index].result is None:
        return None
    result = match.deals[index].result
    assert result is not None
    shown = result.to_json()
    declarer = shown.get("declarer")
    return {
        "table": number,
        "table_id": state.table_id,
        "declarer": declarer,
        "declarer_name": state.seats[declarer].name if isinstance(declarer, int) else None,
        "bid": shown.get("bid"),
        "trump": shown.get("trump"),
        "given_up": shown.get("given_up", False),
        "scores": list(result.scores),
    }


def cross_table(row: DuplicateRow, states: list[TableState], access: Sight) -> CrossTable:
    """The event as ``access`` lets its viewer see it: tables, per deal each table's result and matchpoints,
    and the standings over the deals shown whole.

    A deal is shown whole (every table's result) once every table has finished it; before that, a player
    of the event sees their own table's result on the deals it has finished, and nothing of the others.
    """
    status = duplicate_status(states)
    whole = row.deals if access.deals is None else min(access.deals, row.deals)
    own = access.duplicate_table
    visible = max(whole, deals_finished(states[own - 1]) if own is not None else 0)
    deals: list[DealEntry] = []
    counted: list[dict[int, list[int]]] = []
    for index in range(row.deals):
        done = [(n, line) for n, s in enumerate(states, 1) if (line := deal_line(s, n, index)) is not None]
        entry: DealEntry = {"index": index, "visible": index < visible, "finished": len(done)}
        if index < visible:
            shown = done if index < whole else [(n, line) for n, line in done if n == own]
            results = {n: line["scores"] for n, line in shown}
            points = deal_matchpoints(results)
            entry["dealer"] = states[0].match.dealer_of(index) if states[0].match else None
            entry["results"] = [{**line, "matchpoints": points[n]} for n, line in shown]
            if index < whole:
                counted.append(results)
        deals.append(entry)
    players = {
        (n, seat): (s.seats[seat].name, s.seats[seat].kind == "bot")
        for n, s in enumerate(states, 1)
        for seat in range(3)
        if s.seats[seat].kind in ("player", "bot")
    }
    you: EventSeat | None = None
    if access.duplicate_table is not None:
        own_table = access.duplicate_table
        you = {"table": own_table, "table_id": states[own_table - 1].table_id, "seat": access.seat}
    return {
        "event": {
            "id": row.duplicate_id, "host": row.host, "host_name": row.host_name, "deals": row.deals,
            "tables": row.tables, "level": row.level, "move_seconds": row.move_seconds, "status": status,
        },
        "you": you,
        "visible_deals": visible,
        "tables": [
            {"table": n, "table_id": s.table_id, "status": s.status, "deals_played": deals_finished(s),
             "seats": [tableviews.public_seat(seat) for seat in s.seats]}
            for n, s in enumerate(states, 1)
        ],
        "deals": deals,
        "standings": [line.to_json() for line in standings(players, counted)],
        "record": f"/api/events/{row.duplicate_id}/record" if status == "finished" else None,
    }


# ---------------------------------------------------------------- routes


class EventBody(BaseModel):
    """``POST /api/events``: the event's length, its number of tables, the par's bots and the time limit."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)

    deals: MatchLength
    tables: int = Field(ge=1, le=MAX_TABLES)
    level: BotLevel = "heuristic"
    move_seconds: int = Field(default=0, ge=0, le=MAX_MOVE_SECONDS)


#: a fault in an event's settings, as the API words it
EVENT_REFUSAL = field_refusal("bad_config", {
    "deals": "deals must be 6, 9 or 12",
    "tables": f"tables must be a number from 1 to {MAX_TABLES}",
    "level": f"level must be one of {', '.join(BOT_LEVELS)}",
    "move_seconds": f"move_seconds must be an integer from 0 (no limit) to {MAX_MOVE_SECONDS}",
})


class DuplicateJoinBody(BaseModel):
    """``POST /api/events/{id}/join``: the table (numbered from 1) and seat asked for, each optional."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)

    table: int | None = Field(default=None, ge=1, le=MAX_TABLES)
    seat: int | None = Field(default=None, ge=0, le=2)


#: a fault in a join's table or seat, as the API words it (a table beyond the event's is refused by the route)
JOIN_REFUSAL = field_refusal("bad_request", {
    "table": f"table must be a number from 1 to the event's number of tables (at most {MAX_TABLES})",
    "seat": "seat must be 0, 1 or 2",
})


@router.post("/api/events", response_model=dict[str, object])
@shows_no_table("creates an event: answers its ids")
async def create_event(request: Request) -> EventMade:
    """Create an event: its tables (all seats open), dealt from one secret seed."""
    who = await sessions.identity_of(request)
    chosen = parse(EventBody, await _body(request), EVENT_REFUSAL)
    deals, count, level, seconds = chosen.deals, chosen.tables, chosen.level, chosen.move_seconds
    hub = _hub(request)
    await hub.refuse_bot_account(who.player_id)
    hub.throttle.new_table(who.player_id)
    duplicate_id = new_id()
    # secret like any table's seed: it fixes every hand, and is shown with the record once the event is over
    seed = random.SystemRandom().getrandbits(47)
    config = TableSettings(deals=deals, move_seconds=seconds, seats=[OpenSeat(kind="open")] * 3)
    table_ids = []
    for _ in range(count):
        table_id, _invites = await hub.create_table(who.player_id, who.name, config, event=(duplicate_id, seed))
        table_ids.append(table_id)
    row = DuplicateRow(duplicate_id, who.player_id, who.name, deals, count, level, seconds, seed, False,
                   int(time.time() * 1000), tuple(table_ids))
    await _store(request).add_duplicate(row)
    return {"event_id": duplicate_id, "tables": table_ids}


@router.get("/api/events")
@shows_no_table("the event list: each event's status and free seats, no deal")
async def list_events(request: Request) -> Response:
    """The newest events with their status (the lobby lists them)."""
    hub = _hub(request)
    out = []
    for row in await _store(request).recent_duplicates():
        states = await duplicate_states(hub, row)
        out.append({"id": row.duplicate_id, "host_name": row.host_name, "deals": row.deals, "tables": row.tables,
                    "level": row.level, "status": duplicate_status(states),
                    "open_seats": sum(1 for s in states for seat in s.seats if seat.kind == "open")})
    return _json({"events": out})


@router.get("/api/events/{event_id}")
@shows_tables
async def get_event(request: Request, event_id: str) -> Response:
    """The standings and the cross-table, as far as the viewer may see (no peeking)."""
    check_id(event_id, "event id")
    hub = _hub(request)
    row = await duplicate_row(hub, event_id)
    states = await duplicate_states(hub, row)
    return _json(cross_table(row, states, duplicate_sight(states, await viewer_of(request))))


@router.post("/api/events/{event_id}/join", response_model=dict[str, object])
@shows_no_table("takes a seat: answers its table and seat")
async def join_event(request: Request, event_id: str) -> EventSeat:
    """Take a seat at one of the event's tables: the one asked for (``table``, ``seat``) or the first free one."""
    check_id(event_id, "event id")
    who = await sessions.identity_of(request)
    asked = parse(DuplicateJoinBody, await _body(request), JOIN_REFUSAL)
    hub = _hub(request)
    await hub.refuse_bot_account(who.player_id)
    row = await duplicate_row(hub, event_id)
    states = await duplicate_states(hub, row)
    for n, s in enumerate(states, 1):
        seat = s.seat_of(who.player_id)
        if seat is not None:
            return {"table": n, "table_id": s.table_id, "seat": seat}
    if duplicate_status(states) != "open":
        raise CommandError("table_started", "this event has started: its seats are fixed")
    wanted_table, wanted_seat = asked.table, asked.seat
    if wanted_table is not None and wanted_table > len(states):
        raise CommandError("bad_request", f"table must be a number from 1 to {len(states)}")
    candidates = [
        (n, i) for n, s in enumerate(states, 1) for i, seat in enumerate(s.seats)
        if seat.kind == "open" and (wanted_table is None or n == wanted_table) and (wanted_seat in (None, i))
    ]
    if not candidates:
        raise CommandError("event_full", "no free seat is left at this event (or at the table asked for)")
    n, i = candidates[0]
    seat = await hub.execute(row.table_ids[n - 1], Join(
        who.player_id, who.name, i, account=who.kind == "account", via_event=True,
    ))
    return {"table": n, "table_id": row.table_ids[n - 1], "seat": int(seat)}


@router.post("/api/events/{event_id}/leave", response_model=dict[str, object])
@shows_no_table("gives up a seat")
async def leave_event(request: Request, event_id: str) -> Done:
    """Give up one's seat before the event starts (afterwards a bot plays for a player who leaves)."""
    check_id(event_id, "event id")
    who = await sessions.identity_of(request)
    hub = _hub(request)
    row = await duplicate_row(hub, event_id)
    for table_id, state in zip(row.table_ids, await duplicate_states(hub, row), strict=True):
        if state.seat_of(who.player_id) is not None:
            await hub.leave(table_id, who.player_id)
            return {"ok": True}
    raise CommandError("not_seated", "you do not sit at this event's tables")


@router.post("/api/events/{event_id}/start", response_model=dict[str, object])
@shows_no_table("starts the tables")
async def start_event(request: Request, event_id: str) -> Done:
    """The host starts every table: bots of the event's level fill the empty seats. Safe to repeat."""
    check_id(event_id, "event id")
    who = await sessions.identity_of(request)
    hub = _hub(request)
    row = await duplicate_row(hub, event_id)
    if row.host != who.player_id:
        raise CommandError("not_host", "only the event's host starts it")
    for table_id, state in zip(row.table_ids, await duplicate_states(hub, row), strict=True):
        if state.status == "open":  # a start cut short by a crash goes on with the tables left
            await hub.execute(table_id, Start(who.player_id, fill_bots=True, level=row.level))
    await _store(request).mark_duplicate_started(event_id)
    return {"ok": True}


@router.get("/api/events/{event_id}/record")
@shows_tables
async def event_record(request: Request, event_id: str) -> Response:
    """The ``ulti-event/1`` record (docs/record.md), once every table has finished."""
    check_id(event_id, "event id")
    hub = _hub(request)
    row = await duplicate_row(hub, event_id)
    states = await duplicate_states(hub, row)
    if duplicate_sight(states, await viewer_of(request)).deals is not None:  # not every table has finished
        raise CommandError("event_not_over", NOT_OVER)
    matches = [tablerecords.match_record(s) for s in states]
    bots = [[seat.kind == "bot" for seat in s.seats] for s in states]
    first = states[0].match.first_dealer if states[0].match else 0
    return _json(build_duplicate_record(row.duplicate_id, row.deals, first, matches, bots, seed=row.seed))


@router.get("/api/tables/{table_id}/deals/{index}/par", response_model=dict[str, object])
@shows_tables
async def par_record(request: Request, table_id: str, index: int) -> ParAnswer:
    """Solo duplicate: the par of finished deal ``index`` (the strong bot's replay), or its status."""
    check_id(table_id, "table id")
    hub = _hub(request)
    state = (await hub.source(table_id)).state
    tablerecords.deal_record(state, index)  # refuses a deal that is not finished, as its record is
    await require_deal(hub, state, await viewer_of(request), index)
    if not state.duplicate:
        raise CommandError("not_found", "this table plays no par: it is not a duplicate table")
    par = state.par.get(index)
    if par is None:
        return {"status": "pending"}
    return {"status": "done", "scores": par["scores"], "record": par["record"]}
