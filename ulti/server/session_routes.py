"""Who the caller is: a new guest session, the session's own name and rating (docs/protocol/http.md §4.1).

Accounts have their own routes (``account_routes.py``); a guest's session is a signed token
(``auth.py``), resolved like an account's by ``sessions.identity_of``.
"""

from __future__ import annotations

from typing import Annotated, NotRequired, Protocol, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ulti.accounts.names import name_key as account_name_key
from ulti.accounts.names import name_skeleton
from ulti.accounts.ratings import NEWCOMER, is_provisional, shown_rating
from ulti.server import auth, sessions
from ulti.server.bodies import body_as, checked, field_refusal, hub_of, store_of
from ulti.server.errors import CommandError
from ulti.server.inputs import clean_name
from ulti.server.visibility import shows_no_table
from ulti.store.ports import AccountBook, PlayerBook, PlayerReads

router = APIRouter()


class SessionBody(BaseModel):
    """``POST /api/session``: the guest's name, checked as every player's name is (``inputs.clean_name``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    # validated even when absent: a missing name is refused by clean_name's own words
    name: Annotated[str, BeforeValidator(checked(clean_name))] = Field(default=None, validate_default=True)


class SessionStore(AccountBook, PlayerBook, PlayerReads, Protocol):
    """The store's part these routes use: whether a name is an account's, a new guest, a player's rating."""


def _store(request: Request) -> SessionStore:
    return store_of(request)


@router.post("/api/session")
@shows_no_table("a new guest session")
async def new_session(request: Request) -> JSONResponse:
    name = (await body_as(request, SessionBody, field_refusal("bad_name", {}))).name
    hub_of(request).throttle.new_session(request.client.host if request.client else "?")
    store = _store(request)
    if await store.account_by_key(account_name_key(name)) or await store.account_by_skeleton(name_skeleton(name)):
        # a guest must not pass for an account's owner (player pages, leaderboard, ratings)
        raise CommandError("name_registered", f"an account named {name!r} exists: log in, or play under another name")
    player_id = auth.new_id()
    await store.add_player(player_id, name)
    token = auth.sign(request.app.state.secret, player_id)
    response = JSONResponse({"token": token, "player": {"id": player_id, "name": name}})
    response.set_cookie(auth.COOKIE, token, httponly=True, samesite="lax", max_age=365 * 86400)
    return response


class SessionRating(TypedDict):
    """An account's rating as shown, whether still provisional, and its rated matches."""

    value: int
    provisional: bool
    matches: int


class Me(TypedDict):
    """``GET /api/me``: the session's player, and an account's rating."""

    id: str
    name: str
    kind: str  # guest or account
    rating: NotRequired[SessionRating]


class PlayerName(TypedDict):
    """A player by id and name."""

    id: str
    name: str


class WhoAmI(TypedDict):
    """``GET /api/whoami``: the session's player, None without a valid session."""

    player: PlayerName | None


@router.get("/api/me", response_model=dict[str, object])
@shows_no_table("the session's own name and rating")
async def me(request: Request) -> Me:
    who = await sessions.identity_of(request)
    me: Me = {"id": who.player_id, "name": who.name, "kind": who.kind}
    if who.kind == "account":
        # an account that has played no rated match shows a newcomer's rating
        stored = await _store(request).skill_of(who.player_id)
        mu, played = (NEWCOMER.mu, 0) if stored is None else (stored.mu, stored.rated_matches)
        me["rating"] = {"value": shown_rating(mu), "provisional": is_provisional(played), "matches": played}
    return me


@router.get("/api/whoami", response_model=dict[str, object])
@shows_no_table("the session's own name")
async def whoami(request: Request) -> WhoAmI:
    """The session's player, or null without a valid session: a page asks it on a first visit
    without getting a 401 (which browsers log as a console error)."""
    try:
        who = await sessions.identity_of(request)
    except CommandError:
        return {"player": None}
    return {"player": {"id": who.player_id, "name": who.name}}
