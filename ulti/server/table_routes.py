"""The table routes: the lobby's list, creating a table, its view, seats, bots, the start, rematches,
and a finished match's record and replays (docs/protocol/http.md §4.2, §15).

Thin: the rules are the table's (``tablerules.py``), run by its actor through the hub; this module
parses the request at the edge (``bodies.py``, ``table_settings.py``), asks the visibility policy
before answering anything about a table (``visibility.py``) and shapes the answer.
"""

from __future__ import annotations

from typing import Any, TypedDict

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ulti.engine.contracts import BIDS, KONTRA_STEP_NAMES, Bid
from ulti.engine.replay import replay_record
from ulti.server import sessions, tablerecords
from ulti.server.answers import Done, Seated, TableMade
from ulti.server.bodies import body_as, field_refusal, hub_of, json_object, store_of
from ulti.server.duplicate_routes import viewer_of
from ulti.server.inputs import check_id
from ulti.server.table_settings import MOST_SEATS, BotLevel, parse_settings, seat_fault
from ulti.server.tablestate import BOT_LEVELS
from ulti.server.visibility import listed, require_deal, require_live, shows_no_table, shows_tables, visible_deals
from ulti.store.ports import TableIndex

router = APIRouter()

#: how a bad seat number is refused (the table's own check, ``tablerules.seat_number``, says the same)
SEAT_FAULT = seat_fault()
_EDGE = ConfigDict(extra="ignore", strict=True, frozen=True)  # unknown fields are ignored, as they always were


class JoinBody(BaseModel):
    """``POST .../join`` (and the bot API's): the seat, and for a seat kept for a friend its invite token."""

    model_config = _EDGE
    seat: int = Field(ge=0, lt=MOST_SEATS)
    invite: str | None = None

    @field_validator("invite", mode="before")
    @classmethod
    def _token_or_none(cls, invite: object) -> object:
        # a token that is not a string matches no seat's link: "reserved" at an invite seat, unused at an open one
        return invite if isinstance(invite, str) else None


class BotBody(BaseModel):
    """``POST .../bot``: the seat and the built-in bot's level."""

    model_config = _EDGE
    seat: int = Field(ge=0, lt=MOST_SEATS)
    level: BotLevel = "heuristic"


class StartBody(BaseModel):
    """``POST .../start``: whether bots take the open seats, and their level (the page sends the level it
    offers the host: the one recommended by their rating)."""

    model_config = _EDGE
    fill_bots: bool = False
    level: BotLevel = "heuristic"

    @field_validator("fill_bots", mode="before")
    @classmethod
    def _truthy(cls, fill_bots: object) -> bool:
        # read as JSON's truth ("" and 0 are false), as the route always has read it
        return bool(fill_bots)


#: a fault in a seat body's field, as the API words it
SEAT_REFUSAL = field_refusal(
    "bad_request", {"seat": SEAT_FAULT, "level": f"level must be one of {', '.join(BOT_LEVELS)}"}
)
#: a fault in a start body's level (its fill_bots is read as JSON's truth: never a fault)
LEVEL_REFUSAL = field_refusal("bad_request", {"level": f"level must be one of {', '.join(BOT_LEVELS)}"})


async def player_of(request: Request) -> tuple[str, str]:
    """The session's player id and name (guest token or account session), or ``401 unauthorized``."""
    who = await sessions.identity_of(request)
    return who.player_id, who.name


@router.get("/api/me/matches")
@shows_tables
async def my_matches(request: Request) -> dict[str, Any]:
    player_id, _ = await player_of(request)
    tables: TableIndex = store_of(request)
    matches = await tables.tables_of_player(player_id)
    shown = listed([m["summary"] for m in matches])
    return {"matches": [{**m, "summary": summary} for m, summary in zip(matches, shown, strict=True)]}


@router.get("/api/tables")
@shows_tables
async def tables(request: Request) -> dict[str, Any]:
    return {"tables": await hub_of(request).open_tables()}  # through visibility.listed (lobby.py)


@router.post("/api/tables", response_model=dict[str, object])
@shows_no_table("creates a table: answers its id and invite links")
async def create_table(request: Request) -> NewTable:
    who = await sessions.identity_of(request)
    body = await json_object(request)
    hub_of(request).throttle.new_table(who.player_id)  # counted before the settings are read, refused or not
    chosen = parse_settings(body)
    table_id, invites = await hub_of(request).create_table(who.player_id, who.name, chosen, who.kind == "account")
    return {"table_id": table_id, "invites": {str(k): v for k, v in invites.items()}}


@router.get("/api/tables/{table_id}")
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


@router.post("/api/tables/{table_id}/join", response_model=dict[str, object])
@shows_no_table("takes a seat: answers its number")
async def join(request: Request, table_id: str) -> Seated:
    check_id(table_id, "table id")
    who = await sessions.identity_of(request)
    body = await body_as(request, JoinBody, SEAT_REFUSAL)
    seat = await hub_of(request).join(table_id, who.player_id, who.name, body.seat, body.invite, who.kind == "account")
    return {"seat": seat}


@router.post("/api/tables/{table_id}/leave", response_model=dict[str, object])
@shows_no_table("gives up a seat")
async def leave(request: Request, table_id: str) -> Done:
    check_id(table_id, "table id")
    player_id, _ = await player_of(request)
    await hub_of(request).leave(table_id, player_id)
    return {"ok": True}


@router.post("/api/tables/{table_id}/resign", response_model=dict[str, object])
@shows_no_table("resigns the match: a bot plays the seat to the end")
async def resign(request: Request, table_id: str) -> Done:
    check_id(table_id, "table id")
    player_id, _ = await player_of(request)
    await hub_of(request).resign(table_id, player_id)
    return {"ok": True}


@router.post("/api/tables/{table_id}/rematch", response_model=dict[str, object])
@shows_no_table("asks for or accepts the rematch of a finished match: answers the new table's id")
async def rematch(request: Request, table_id: str) -> TableMade:
    check_id(table_id, "table id")
    who = await sessions.identity_of(request)
    new_id = await hub_of(request).rematch(table_id, who.player_id, who.name, who.kind == "account")
    return {"table_id": new_id}


@router.post("/api/tables/{table_id}/bot", response_model=dict[str, object])
@shows_no_table("seats a bot")
async def add_bot(request: Request, table_id: str) -> Done:
    check_id(table_id, "table id")
    player_id, _ = await player_of(request)
    body = await body_as(request, BotBody, SEAT_REFUSAL)
    await hub_of(request).add_bot(table_id, player_id, body.seat, body.level)
    return {"ok": True}


@router.post("/api/tables/{table_id}/start", response_model=dict[str, object])
@shows_no_table("starts the match")
async def start(request: Request, table_id: str) -> Done:
    check_id(table_id, "table id")
    player_id, _ = await player_of(request)
    body = await body_as(request, StartBody, LEVEL_REFUSAL)
    await hub_of(request).start(table_id, player_id, body.fill_bots, body.level)
    return {"ok": True}


@router.get("/api/tables/{table_id}/record")
@shows_tables
async def match_record(request: Request, table_id: str) -> dict[str, Any]:
    check_id(table_id, "table id")
    source = await hub_of(request).source(table_id)
    record = tablerecords.match_record(source.state)
    limit = await visible_deals(hub_of(request), source.state, await viewer_of(request))
    if limit is not None:  # an event's table: the deals the viewer may see (visibility.py)
        record["deals"] = record["deals"][:limit]
    return record


@router.get("/api/tables/{table_id}/deals/{index}/record")
@shows_tables
async def deal_record(request: Request, table_id: str, index: int) -> dict[str, Any]:
    check_id(table_id, "table id")
    source = await hub_of(request).source(table_id)
    record = tablerecords.deal_record(source.state, index)
    await require_deal(hub_of(request), source.state, await viewer_of(request), index)
    return record


@router.get("/api/tables/{table_id}/deals/{index}/replay")
@shows_tables
async def deal_replay(request: Request, table_id: str, index: int) -> Response:
    """The engine's replay frames of finished deal ``index`` (docs/protocol/http.md §15): the page draws them."""
    check_id(table_id, "table id")
    source = await hub_of(request).source(table_id)
    record = tablerecords.deal_record(source.state, index)  # refuses a deal that is not finished
    await require_deal(hub_of(request), source.state, await viewer_of(request), index)
    # orjson: some 40 full views, ten times faster than FastAPI's encoder
    return Response(orjson.dumps({"frames": replay_record(record)}), media_type="application/json")


@router.get("/api/bids", response_model=dict[str, object])
@shows_no_table("the rules' table of bids")
async def bid_table() -> BidTable:
    return {"bids": [bid_json(b) for b in BIDS], "kontra_steps": list(KONTRA_STEP_NAMES[1:])}


class NewTable(TypedDict):
    """``POST /api/tables``: the new table's id and its invite seats' tokens, by seat number."""

    table_id: str
    invites: dict[str, str | None]


class BidPart(TypedDict):
    """One part of a bid and its value per defender."""

    part: str
    value: int


class BidJson(TypedDict):
    """A bid as the page shows it in the ladder."""

    code: str
    name_en: str
    name_hu: str
    rung: int
    value: int
    kind: str
    open: bool
    parts: list[BidPart]


class BidTable(TypedDict):
    """``GET /api/bids``: every bid, lowest first, and the kontra steps' names after the first."""

    bids: list[BidJson]
    kontra_steps: list[str]


def bid_json(bid: Bid) -> BidJson:
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
