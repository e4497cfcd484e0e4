"""Tournaments over HTTP (docs/protocol/tournaments.md): create, register, check in, withdraw, the
director's desk, the schedule, the current round's tables, the standings, a player's results, the record.

Every change is an event of the tournament's log, appended by ``Directors.append`` (which refuses an
event the log's rules refuse, naming the rule); the director (``ulti.server.tournaments``) does the
rest. Sport ulti rounds are duplicate events: while one runs, its tables' results (which tell its
deals' scores) are shown only as the duplicate events' visibility policy allows (``duplicate_sight``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, Protocol, TypedDict

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ulti.accounts.apitokens import BOT_PLAY
from ulti.accounts.names import name_key
from ulti.server import sessions, tablerecords
from ulti.server.answers import Done
from ulti.server.arena import BOT_WAIT_SECONDS, ArenaView, arena_view
from ulti.server.auth import new_id
from ulti.server.bodies import store_of
from ulti.server.duplicate_routes import viewer_of
from ulti.server.errors import CommandError
from ulti.server.hub import Hub
from ulti.server.inputs import check_id, decode_json
from ulti.server.tablestate import BOT_LEVELS
from ulti.server.tournaments import Directors, Loaded, created_event, status_of, table_of, withdrawal
from ulti.server.tournamentshapes import PlayerEvent, Registered, ResultCorrected, TableInRound
from ulti.server.visibility import (
    duplicate_row,
    duplicate_sight,
    duplicate_states,
    ordinary_results,
    shows_no_table,
    shows_tables,
)
from ulti.store.ports import AccountBook, PlayerReads, TournamentBook, TournamentRow
from ulti.tournaments.correction import correction_event
from ulti.tournaments.log import Tournament, replay
from ulti.tournaments.record import build_tournament_record, rounds_json
from ulti.tournaments.settings import settings_from_json, start_timestamp
from ulti.tournaments.standings import TIE_BREAKS, standings, team_standings

router = APIRouter()

NOT_OVER = "the tournament's record is ready once every round has its results"
#: how many built-in bots one desk action adds (a tournament of bots for a demonstration or a load run)
MAX_BOTS = 300
MAX_CORRECTED_DEALS = 200  # far above a round's deals and its tie-break deals


class CreateBody(BaseModel):
    """A new tournament, as the host chooses it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=64)
    format: Literal["standings", "everyone", "teams", "duplicate", "arena"] = "standings"
    rounds: int = Field(default=3, ge=1, le=40)
    # a table's match is 6, 9 or 12 deals (ulti.engine.match.MATCH_LENGTHS): multiples of 3, so everyone opens equally
    deals_per_round: Literal[6, 9, 12] = 6
    scoring: Literal["points", "placement"] = "points"
    placement_points: list[int] = Field(default=[2, 1, 0], min_length=3, max_length=3)
    first_round: Literal["random", "rating"] = "random"
    start: str | None = Field(default=None, max_length=40)
    # a limit is needed: an absent player's seat goes to a bot after the table's grace only at tables with one
    move_seconds: int = Field(default=60, ge=5, le=600)
    rated: bool = False
    entry: Literal["open", "invited", "bots"] = "open"
    late_entry: bool = False
    level: str = "heuristic"
    break_seconds: int = Field(default=60, ge=0, le=3600)
    invited: list[str] = Field(default=[], max_length=500)
    # the arena's length; it needs one (a match started before the end plays on and counts)
    minutes: int | None = Field(default=None, ge=1, le=1440)
    # how long an arena player waits for two others before bots fill their table (ulti.server.arena)
    bot_wait_seconds: int = Field(default=BOT_WAIT_SECONDS, ge=1, le=600)
    # standings: one or two tables of four (the dealer sitting out) instead of bots (ulti/tournaments/fours.py)
    four_tables: bool = False


class RegisterBody(BaseModel):
    """A registration (a team tournament needs the team and the letter)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    team: str | None = Field(default=None, min_length=1, max_length=64)
    letter: Literal["A", "B", "C"] | None = None


class DeskBody(BaseModel):
    """One action of the director's desk."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: Literal["start", "pause", "resume", "add", "add_bots", "remove", "replace", "correct", "publish"]
    player: int | None = Field(default=None, ge=0)
    name: str | None = Field(default=None, min_length=1, max_length=64)
    round: int | None = Field(default=None, ge=1)
    table: int | None = Field(default=None, ge=1)
    points: list[int] | None = Field(default=None, min_length=3, max_length=4)  # four: a table of four
    # a correction's deals' scores (sport ulti, a table of four): each deal's three or four, the log checks
    deals: list[list[int]] | None = Field(default=None, min_length=1, max_length=MAX_CORRECTED_DEALS)
    reason: str | None = Field(default=None, min_length=1, max_length=500)
    count: int | None = Field(default=None, ge=1, le=MAX_BOTS)


class TournamentRoutesStore(TournamentBook, PlayerReads, AccountBook, Protocol):
    """The store's part these routes use: the tournaments' rows, a player's rating (a draw by rating), an
    account by name (the host adds a player)."""


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _store(request: Request) -> TournamentRoutesStore:
    return store_of(request)


def _directors(request: Request) -> Directors:
    directors: Directors = request.app.state.tournaments
    return directors


def _json(payload: Mapping[str, object]) -> Response:
    return Response(orjson.dumps(payload), media_type="application/json")


async def _body(request: Request, model: type[BaseModel]) -> Any:
    """The request's JSON body checked against ``model``: a bad one is ``bad_request`` naming the field."""
    raw = decode_json(await request.body() or b"{}", _hub(request).settings.max_body_bytes, "request body")
    if not isinstance(raw, dict):
        raise CommandError("bad_request", "the request body must be a JSON object")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise CommandError("bad_request", f"{where}: {first['msg']}", params={"field": where}) from None


# ---------------------------------------------------------------- what a viewer sees


async def _hidden_rounds(hub: Hub, loaded: Loaded, state: Tournament, viewer: str | None) -> set[int]:
    """The rounds whose results ``viewer`` may not see yet: a sport ulti round still running (its tables'
    results tell its deals' scores), as the duplicate events' policy says; any other round's are open."""
    hidden: set[int] = set()
    ordinary_results()  # the rounds of ordinary tables (and a tournament with no round yet) are open
    for number, round_ in enumerate(state.rounds, start=1):
        duplicate_id = loaded.seated_event(number).get("event")
        if duplicate_id is None:
            continue
        if round_.complete:
            continue
        sight = duplicate_sight(await duplicate_states(hub, await duplicate_row(hub, str(duplicate_id))), viewer)
        if sight.deals is not None:
            hidden.add(number)
    return hidden


def _shown_state(loaded: Loaded, hidden: set[int]) -> Tournament:
    """The state without the results of the ``hidden`` rounds."""
    return replay([b for b in loaded.bodies
                   if not (b.get("type") in ("result_recorded", "result_corrected") and b.get("round") in hidden)])


def _settings_shown(state: Tournament, loaded: Loaded) -> dict[str, object]:
    """The settings; the seed (which fixes a sport ulti round's cards and the first draw) once it is over."""
    shown = state.settings.to_json()
    if status_of(state, loaded) not in ("finished", "published"):
        shown["seed"] = None
    return shown


@dataclass(frozen=True)
class Seen:
    """A tournament as one viewer may see it: its log, its state, the rounds whose results are hidden
    from the viewer, and the state without those results (``shown``)."""

    loaded: Loaded
    state: Tournament
    viewer: str | None
    hidden: set[int]
    shown: Tournament


async def _seen(request: Request, tournament_id: str) -> Seen:
    """The tournament ``tournament_id`` as the request's viewer may see it."""
    check_id(tournament_id, "tournament id")
    loaded = await _directors(request).load(tournament_id)
    state = loaded.state()
    viewer = await viewer_of(request)
    hidden = await _hidden_rounds(_hub(request), loaded, state, viewer)
    return Seen(loaded, state, viewer, hidden, _shown_state(loaded, hidden) if hidden else state)


class YouInTournament(TypedDict):
    """The viewer's own line on the tournament page: number, status, table, and an arena's wait."""

    player: int
    status: str
    table: TableInRound | None
    waiting: NotRequired[bool]


class TournamentView(TypedDict):
    """``GET /api/tournaments/{id}``: everything the tournament page shows (docs/protocol/tournaments.md).

    The rounds, players and standings are ``ulti.tournaments``' record JSON (docs/record.md)."""

    id: str
    name: str
    host: str
    host_name: str
    is_host: bool
    level: str | None
    break_seconds: int | None
    status: str
    paused: bool
    settings: Mapping[str, object]
    players: Sequence[Mapping[str, object]]
    rounds: Sequence[Mapping[str, object]]
    round: int
    next_round_at: int | None
    tie_breaks: Sequence[Mapping[str, str]]
    standings: Sequence[Mapping[str, object]]
    you: YouInTournament | None
    record: str | None
    corrections: list[ResultCorrected]
    arena: NotRequired[ArenaView]
    team_standings: NotRequired[Sequence[Mapping[str, object]]]


class TournamentMade(TypedDict):
    """``POST /api/tournaments``: the new tournament's id."""

    tournament_id: str


class PlayerNumber(TypedDict):
    """A registration: the player's number (None if the log did not take it)."""

    player: int | None


def tournament_view(seen: Seen, tournament_id: str) -> TournamentView:
    """The tournament page's data: settings, players, schedule, the current round's tables, standings."""
    loaded, state, viewer, hidden, shown = seen.loaded, seen.state, seen.viewer, seen.hidden, seen.shown
    created = loaded.created
    status = status_of(state, loaded)
    rounds = rounds_json(shown, {})
    for number, entry in enumerate(rounds, start=1):
        ids = loaded.table_ids(number)
        entry["hidden"] = number in hidden
        for table, table_id in zip(entry["tables"], ids, strict=True):
            table["table_id"] = table_id
            table["names"] = [None if p is None else state.players[p].name for p in table["seats"]]
    ended = loaded.round_ended_at()
    # an arena: its end time, and who waits for a table (the page's "waiting for a table")
    arena = arena_view(loaded, state, int(time.time() * 1000)) if state.settings.format == "arena" else None
    next_at = None
    if status == "running" and ended is not None and not state.paused and state.settings.format != "arena":
        next_at = ended + int(created.get("break_seconds", 0) * 1000)
    you: YouInTournament | None = None
    if viewer is not None:
        mine = loaded.number_of(viewer)
        if mine is not None:
            you = {"player": mine, "status": state.players[mine].status, "table": table_of(loaded, state, viewer)}
            if arena is not None:
                you["waiting"] = status == "running" and mine in arena["waiting"]
    out: TournamentView = {
        "id": tournament_id, "name": created.get("name"), "host": created.get("host"),
        "host_name": created.get("host_name"), "is_host": viewer is not None and viewer == created.get("host"),
        "level": created.get("level"), "break_seconds": created.get("break_seconds"),
        "status": status, "paused": state.paused, "settings": _settings_shown(state, loaded),
        "players": [p.to_json(n) for n, p in enumerate(state.players)],
        "rounds": rounds, "round": len(state.rounds), "next_round_at": next_at,
        "tie_breaks": TIE_BREAKS, "standings": standings(shown), "you": you,
        "record": f"/api/tournaments/{tournament_id}/record" if status in ("finished", "published") else None,
        "corrections": [b for b in loaded.corrections() if b.get("round") not in hidden],
    }
    if arena is not None:
        out["arena"] = arena
    if state.settings.format == "teams":
        out["team_standings"] = team_standings(shown)
    return out


# ---------------------------------------------------------------- routes


@router.post("/api/tournaments", response_model=dict[str, object])
@shows_no_table("creates a tournament: answers its id")
async def create_tournament(request: Request) -> TournamentMade:
    """Create a tournament (the caller is its host, the director)."""
    who = await sessions.identity_of(request)
    body: CreateBody = await _body(request, CreateBody)
    hub = _hub(request)
    await hub.refuse_bot_account(who.player_id)
    if body.level not in BOT_LEVELS:
        raise CommandError("bad_request", f"level: must be one of {', '.join(BOT_LEVELS)}", params={"field": "level"})
    if body.rated and who.kind != "account":
        raise CommandError("account_required", "only accounts host rated tournaments: register or log in")
    if body.start is not None:
        _check_start(body.start)
    hub.throttle.new_table(who.player_id)
    if body.format == "arena" and body.minutes is None:
        raise CommandError("bad_request", "minutes: an arena needs its length in minutes", params={"field": "minutes"})
    values = body.model_dump(exclude={"name", "level", "break_seconds", "invited", "bot_wait_seconds"})
    if not body.four_tables:
        del values["four_tables"]  # the settings write it only when chosen (docs/record.md)
    # secret like a table's seed: it draws round 1 and deals every sport ulti round; shown once it is over
    values["seed"] = random.SystemRandom().getrandbits(47)
    try:
        settings_from_json(values)
    except ValueError as exc:
        field = str(exc).split(" ", 1)[0].removeprefix("settings.")
        raise CommandError("bad_request", str(exc), params={"field": field}) from None
    tournament_id = new_id()
    created = created_event(who.player_id, who.name, body.name, values, body.level, body.break_seconds,
                            body.invited)
    if body.format == "arena":
        created["bot_wait_seconds"] = body.bot_wait_seconds
    await _store(request).add_tournament(
        TournamentRow(tournament_id, who.player_id, who.name, body.name, "registering", int(time.time() * 1000)),
        created,
    )
    return {"tournament_id": tournament_id}


def _check_start(start: str) -> None:
    """A start time is ISO 8601 with its zone (``start_timestamp``: the director compares it with the clock)."""
    if start_timestamp(start) is None:
        raise CommandError("bad_request", "start: must be an ISO 8601 time with its zone, such as "
                           "2026-12-05T18:00:00+01:00", params={"field": "start"})


@router.get("/api/tournaments")
@shows_no_table("the tournament list: names, hosts and statuses")
async def list_tournaments(request: Request) -> Response:
    """The newest tournaments (the lobby links to them)."""
    rows = await _store(request).tournaments(limit=50)
    return _json({"tournaments": [
        {"id": r.tournament_id, "name": r.name, "host_name": r.host_name, "status": r.status,
         "created_at": r.created_at}
        for r in rows
    ]})


@router.get("/api/tournaments/{tournament_id}")
@shows_tables
async def get_tournament(request: Request, tournament_id: str) -> Response:
    """Everything the tournament page shows, as far as the viewer may see it."""
    return _json(tournament_view(await _seen(request, tournament_id), tournament_id))


@router.get("/api/tournaments/{tournament_id}/standings")
@shows_tables
async def get_standings(request: Request, tournament_id: str) -> Response:
    """The standings with their tie-breaks (the results of a running sport ulti round left out)."""
    seen = await _seen(request, tournament_id)
    return _json({"status": status_of(seen.state, seen.loaded), "round": len(seen.state.rounds),
                  "tie_breaks": TIE_BREAKS, "standings": standings(seen.shown)})


@router.get("/api/tournaments/{tournament_id}/players/{number}")
@shows_tables
async def player_results(request: Request, tournament_id: str, number: int) -> Response:
    """One player's rounds: table, opponents, points at the table and in the standings."""
    seen = await _seen(request, tournament_id)
    loaded, state, hidden, shown = seen.loaded, seen.state, seen.hidden, seen.shown
    if not 0 <= number < len(state.players):
        raise CommandError("not_found", f"player {number} is not registered in this tournament")
    line = next(row for row in standings(shown) if row["player"] == number)
    results = []
    for r, round_ in enumerate(shown.rounds, start=1):
        for t, (players, table_id) in enumerate(zip(round_.tables, loaded.table_ids(r), strict=True), start=1):
            if number in players:
                seat = list(players).index(number)
                result = round_.results.get(t)
                results.append({
                    "round": r, "table": t, "table_id": table_id, "seat": seat,
                    "opponents": [None if p is None else state.players[p].name for p in players if p != number],
                    "table_points": None if result is None else result.points[seat],
                    "points": line["rounds"][r - 1], "hidden": r in hidden,
                })
    return _json({"player": state.players[number].to_json(number), "line": line, "rounds": results})


@router.get("/api/tournaments/{tournament_id}/record")
@shows_tables
async def tournament_record(request: Request, tournament_id: str) -> Response:
    """The ``ulti-tournament/1`` record (docs/record.md), once every round has its results."""
    check_id(tournament_id, "tournament id")
    hub = _hub(request)
    loaded = await _directors(request).load(tournament_id)
    state = loaded.state()
    if status_of(state, loaded) not in ("finished", "published"):
        raise CommandError("tournament_not_over", NOT_OVER)
    ordinary_results()  # every round is over: every table is finished, so every one is open
    matches = {}
    for number, round_ in enumerate(state.rounds, start=1):
        for t, table_id in enumerate(loaded.table_ids(number), start=1):
            # a corrected result keeps its match: the record checks the match against what it scored
            if t in round_.results:
                matches[table_id] = tablerecords.match_record((await hub.source(table_id)).state)
    return _json(build_tournament_record(tournament_id, loaded.bodies, matches))


def _registration(loaded: Loaded, state: Tournament, player_id: str, name: str, bot: bool, body: RegisterBody,
                  rating: float | None) -> Registered | None:
    created = loaded.created
    if loaded.number_of(player_id) is not None:
        return None  # registered already: asking again changes nothing
    entry = state.settings.entry
    if entry == "invited" and name not in created.get("invited", []) and player_id != created.get("host"):
        raise CommandError("not_invited", "this tournament is by invitation: the host has not invited you")
    if bot and entry != "bots":
        raise CommandError("bots_not_allowed", "this tournament admits no bot accounts")
    event: Registered = {"type": "registered", "name": name, "account": player_id, "bot": bot, "rating": rating}
    if body.team is not None:
        event["team"] = body.team
    if body.letter is not None:
        event["letter"] = body.letter
    return event


async def _rating(store: PlayerReads, player_id: str) -> float | None:
    """The player's rating's ``mu`` (a first round drawn by rating reads it), None for the unrated."""
    found = await store.skill_of(player_id)
    return None if found is None else round(found.mu, 3)


@router.post("/api/tournaments/{tournament_id}/register", response_model=dict[str, object])
@shows_no_table("registers the caller")
async def register(request: Request, tournament_id: str) -> PlayerNumber:
    """Register for the tournament (before it starts, or later where the host allows late entry)."""
    check_id(tournament_id, "tournament id")
    who = await sessions.identity_of(request)
    body: RegisterBody = await _body(request, RegisterBody)
    hub = _hub(request)
    await hub.refuse_bot_account(who.player_id)
    directors = _directors(request)
    loaded = await directors.load(tournament_id)
    if loaded.state().settings.rated and who.kind != "account":
        raise CommandError("account_required", "a rated tournament admits accounts only: register or log in")
    rating = await _rating(_store(request), who.player_id)
    loaded = await directors.append(
        tournament_id, lambda ld, st: _registration(ld, st, who.player_id, who.name, False, body, rating)
    )
    return {"player": loaded.number_of(who.player_id)}


@router.post("/api/bot/tournaments/{tournament_id}/register", response_model=dict[str, object])
@shows_no_table("registers the token's bot account")
async def register_bot(request: Request, tournament_id: str) -> PlayerNumber:
    """A bot account registers through the bot API (a tournament open to bots); it is told of its tables
    on its event stream (``tournament_table``, then ``match_started``) and plays them like any table."""
    check_id(tournament_id, "tournament id")
    who = await sessions.api_identity(request, (BOT_PLAY,))
    if not who.bot:
        raise CommandError("not_bot_account", "only a bot account plays through the API: upgrade it first")
    body: RegisterBody = await _body(request, RegisterBody)
    rating = await _rating(_store(request), who.player_id)
    loaded = await _directors(request).append(
        tournament_id, lambda ld, st: _registration(ld, st, who.player_id, who.name, True, body, rating)
    )
    return {"player": loaded.number_of(who.player_id)}


async def _own_number(request: Request, directors: Directors, tournament_id: str) -> tuple[int, str]:
    who = await sessions.identity_of(request)
    number = (await directors.load(tournament_id)).number_of(who.player_id)
    if number is None:
        raise CommandError("not_registered", "you are not registered in this tournament")
    return number, who.player_id


@router.post("/api/tournaments/{tournament_id}/checkin", response_model=dict[str, object])
@shows_no_table("checks the caller in")
async def check_in(request: Request, tournament_id: str) -> Done:
    """Check in before the start (players who registered and did not check in are left out of round 1
    as soon as anyone has checked in)."""
    check_id(tournament_id, "tournament id")
    directors = _directors(request)
    number, _ = await _own_number(request, directors, tournament_id)

    def make(_loaded: Loaded, state: Tournament) -> PlayerEvent | None:
        if state.players[number].status == "checked_in":
            return None
        return {"type": "checked_in", "player": number}

    await directors.append(tournament_id, make)
    return {"ok": True}


@router.post("/api/tournaments/{tournament_id}/withdraw", response_model=dict[str, object])
@shows_no_table("withdraws the caller")
async def withdraw(request: Request, tournament_id: str) -> Done:
    """Withdraw: a bot plays the seat of the table under way to its end; no later round seats the player."""
    check_id(tournament_id, "tournament id")
    directors = _directors(request)
    number, player_id = await _own_number(request, directors, tournament_id)
    await directors.append(tournament_id, withdrawal(number, "withdrew"))
    await directors.bot_takes_seat(tournament_id, player_id)
    return {"ok": True}


@router.post("/api/tournaments/{tournament_id}/desk", response_model=dict[str, object])
@shows_no_table("the director's desk: changes the tournament")
async def desk(request: Request, tournament_id: str) -> Done:
    """The host's desk: start, pause, resume, add or remove a player, replace one by a bot, correct a
    result (with a reason), publish. Each is an event of the log."""
    check_id(tournament_id, "tournament id")
    who = await sessions.identity_of(request)
    body: DeskBody = await _body(request, DeskBody)
    directors = _directors(request)
    loaded = await directors.load(tournament_id)
    if loaded.created.get("host") != who.player_id:
        raise CommandError("not_host", "only the tournament's host uses the director's desk")
    state = loaded.state()
    action = body.action
    if action == "start":
        if state.rounds:
            raise CommandError("tournament_rule", "the tournament has started already")
        if state.paused:
            raise CommandError("tournament_rule", "the tournament is paused: resume it first")
        if not any(p.status != "withdrawn" for p in state.players):
            raise CommandError("tournament_rule", "nobody is registered: there is nobody to seat")
        await directors.start(tournament_id)
    elif action in ("pause", "resume", "publish"):
        if action == "publish" and status_of(state, loaded) != "finished":
            raise CommandError("tournament_rule", "publish: the last round has tables without a result")
        kind = {"pause": "paused", "resume": "resumed", "publish": "published"}[action]
        await directors.append(tournament_id, lambda _l, _s: {"type": kind})  # it stores a new status too
    elif action == "add":
        name = _need(body.name, "name")
        account = await _store(request).account_by_key(name_key(name))
        if account is None:
            raise CommandError("not_found", f"name: no account is called {name!r}", params={"field": "name"})
        player_id, shown = account.player_id, account.name
        await directors.append(tournament_id, lambda ld, st: _registration(ld, st, player_id, shown, False,
                                                                           RegisterBody(), None))
    elif action == "add_bots":
        count = _need(body.count, "count")
        for _ in range(count):
            await directors.append(tournament_id, _built_in_bot)
    elif action in ("remove", "replace"):
        number = _player(state, body.player)
        seated = loaded.account_of(number)
        if action == "remove":
            await directors.append(tournament_id, withdrawal(number, "removed by the host"))
        else:
            await directors.append(tournament_id, lambda _l, _s: {"type": "replaced_by_bot", "player": number})
        if seated is not None:
            await directors.bot_takes_seat(tournament_id, seated)
    else:  # correct
        reason = _need(body.reason, "reason")
        if body.deals is None:
            _need(body.points, "points")  # points, deals' scores, or both: what is left out is kept
        round_number, table = _need(body.round, "round"), _need(body.table, "table")
        await directors.append(tournament_id, lambda _l, st: correction_event(
            st, round_number, table, reason, body.points, body.deals))
    return {"ok": True}


def _built_in_bot(loaded: Loaded, state: Tournament) -> Registered:
    """A built-in bot as a player (no account): the tournament's bots play its seats, and it has a line
    in the standings like anyone. It needs no check-in: it is there whenever the tournament starts."""
    number = loaded.built_in_bots() + 1
    return {"type": "registered", "name": f"Bot {number}", "account": None, "bot": True}


def _need(value: Any, field: str) -> Any:
    if value is None:
        raise CommandError("bad_request", f"{field}: this action needs it", params={"field": field})
    return value


def _player(state: Tournament, number: int | None) -> int:
    if number is None:
        raise CommandError("bad_request", "player: this action needs it", params={"field": "player"})
    if number >= len(state.players):
        raise CommandError("bad_request", f"player: {number} is not registered", params={"field": "player"})
    return number

