"""The account routes: register, log in, log out, change the password, delete (docs/protocol/accounts.md §3.1).

Thin: the account logic is ``ulti.accounts``; this module decodes the request, checks where it came
from, sets or clears the cookie and words refusals in the API's error shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ulti.accounts import AccountError, Session, devices
from ulti.accounts.passwords import check_password_rules
from ulti.server import auth
from ulti.server.account_erasure import ErasingStore, erase_player, unfinished_tables
from ulti.server.bodies import checked, field_refusal, parse, refuse, store_of
from ulti.server.errors import CommandError, WireError
from ulti.server.httpguard import same_origin
from ulti.server.hub import Hub
from ulti.server.inputs import clean_name, decode_json
from ulti.server.sessions import Identity, accounts_of, api_tokens_of, identity_of, resolve, sockets_of, token_of
from ulti.server.visibility import shows_no_table

router = APIRouter()


def _text(code: str, field_name: str) -> Callable[[object], str]:
    """A validator for a field that must be a string (any string: the account service judges it further)."""

    def validator(value: object) -> str:
        if not isinstance(value, str):
            raise refuse(code, f"{field_name} must be a string")
        return value

    return validator


_BODY = ConfigDict(extra="ignore", frozen=True)  # unknown fields are ignored, as they always were


def _asked() -> Any:
    """A field validated even when it is absent, so that a missing one is refused in its check's own words."""
    return Field(default=None, validate_default=True)


AccountName = Annotated[str, BeforeValidator(checked(clean_name))]  # a guest's name's rules
NewPassword = Annotated[str, BeforeValidator(checked(check_password_rules))]
NewPasswordField = Annotated[str, BeforeValidator(checked(lambda v: check_password_rules(v, "new_password")))]
NameText = Annotated[str, BeforeValidator(_text("bad_name", "name"))]
PasswordText = Annotated[str, BeforeValidator(_text("bad_password", "password"))]


class RegisterBody(BaseModel):
    """``POST /api/account/register``: the account's name (a player's name's rules) and its password."""

    model_config = _BODY
    name: AccountName = _asked()
    password: NewPassword = _asked()


class LoginBody(BaseModel):
    """``POST /api/account/login``: a name and a password (no rule but being text: an account that
    cannot exist is simply not found, and answered as any wrong login)."""

    model_config = _BODY
    name: NameText = _asked()
    password: PasswordText = _asked()


class PasswordChangeBody(BaseModel):
    """``POST /api/account/password``: the new password (the rules of any password) and the current one."""

    model_config = _BODY
    new_password: NewPasswordField = _asked()
    current_password: PasswordText = _asked()


class PasswordBody(BaseModel):
    """``DELETE /api/account``: the password, asked again."""

    model_config = _BODY
    password: PasswordText = _asked()


#: every fault of these bodies is a validator's own refusal (``refuse``); anything else is bad_request's
ACCOUNT_REFUSAL = field_refusal("bad_request", {})


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _refusal(request: Request, exc: AccountError) -> JSONResponse:
    """``exc`` in the API's error shape; a refusal that lifts by itself says when (body and Retry-After)."""
    _hub(request).metrics.refused_code(exc.code)
    error: WireError = {"code": exc.code, "message": exc.message}
    headers = {}
    if exc.retry_after is not None:
        error["args"] = {"retry_after": exc.retry_after}
        headers["retry-after"] = str(exc.retry_after)
    return JSONResponse({"error": error}, status_code=exc.status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    body = decode_json(await request.body(), _hub(request).settings.max_body_bytes, "request body")
    if not isinstance(body, dict):
        raise CommandError("bad_request", "the request body must be a JSON object")
    return body


def _check_origin(request: Request) -> None:
    """A browser's request from another site is refused even without a cookie.

    The request guard checks the origin of cookie-authenticated changes; a login or a registration
    may come with no cookie yet, and another site must not log a visitor into an account of its own.
    """
    origin = request.headers.get("origin")
    allowed = _hub(request).settings.allowed_origins
    if origin is not None and not same_origin(origin, request.headers.get("host"), allowed):
        raise CommandError("bad_origin", "a request authenticated by the session cookie must come from this site")


async def _account(request: Request) -> Identity:
    who = await identity_of(request)
    if who.kind != "account":
        raise CommandError("not_account", "you are a guest: register first (POST /api/account/register)")
    return who


def _opened(request: Request, session: Session) -> JSONResponse:
    """The answer to a login or registration: the token in the body and in the cookie."""
    response = JSONResponse(
        {
            "token": session.token,
            "player": {"id": session.player_id, "name": session.name, "kind": "account"},
            "expires_at": round(session.expires_at, 3),
        }
    )
    response.set_cookie(
        auth.COOKIE,
        session.token,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        max_age=accounts_of(request.app).session_seconds,
    )
    if session.device is not None:
        # the device cookie (docs/protocol/accounts.md §3.1): sent back on account routes only, unreadable by scripts
        response.set_cookie(
            devices.COOKIE,
            session.device,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=devices.MAX_AGE,
            path="/api/account",
        )
    return response


def _device(request: Request) -> str | None:
    """The device cookie the client sent, if any (checked by the account logic)."""
    return request.cookies.get(devices.COOKIE)


def _ended(payload: Mapping[str, object]) -> JSONResponse:
    response = JSONResponse(payload)
    response.delete_cookie(auth.COOKIE, httponly=True, samesite="lax")
    return response


@router.post("/api/account/register")
@shows_no_table("creates an account")
async def register(request: Request) -> JSONResponse:
    """Make an account and log in; from a guest session the guest's player id (and matches) is kept."""
    _check_origin(request)
    body = parse(RegisterBody, await _body(request), ACCOUNT_REFUSAL)  # a name has a guest's name's rules
    who = await resolve(request.app, token_of(request))
    if who is not None and who.kind == "account":
        raise CommandError("already_account", "you are logged in to an account: log out first")
    _hub(request).throttle.new_session(_address(request))
    player_id = who.player_id if who is not None else auth.new_id()
    try:
        session = await accounts_of(request.app).register(body.name, body.password, player_id, new_player=who is None)
    except AccountError as exc:
        return _refusal(request, exc)
    return _opened(request, session)


@router.post("/api/account/login")
@shows_no_table("a session")
async def login(request: Request) -> JSONResponse:
    """Log in by name and password: a new session (never the one the client brought) and its cookie."""
    _check_origin(request)
    body = parse(LoginBody, await _body(request), ACCOUNT_REFUSAL)
    accounts = accounts_of(request.app)
    previous = token_of(request)
    before = await resolve(request.app, previous)
    try:
        session = await accounts.login(body.name, body.password, _address(request), _device(request))
    except AccountError as exc:
        return _refusal(request, exc)
    if before is not None and before.kind == "account" and previous is not None:
        # the account session the client came with ends: a login never keeps an old session id
        await accounts.logout(previous)
        sockets_of(request.app).end(before.player_id, before.session_key)
    return _opened(request, session)


@router.post("/api/account/logout")
@shows_no_table("ends a session")
async def logout(request: Request) -> JSONResponse:
    """End this session (an account's is ended in the store; a guest's cookie is only cleared)."""
    who = await identity_of(request)
    token = token_of(request)
    ended = False
    if who.kind == "account" and token is not None:
        ended = await accounts_of(request.app).logout(token)
        sockets_of(request.app).end(who.player_id, who.session_key)
    return _ended({"ok": True, "ended": ended})


@router.post("/api/account/password")
@shows_no_table("changes the password")
async def change_password(request: Request) -> JSONResponse:
    """Change the password: every session of the account ends, and this client gets a new one."""
    who = await _account(request)
    body = parse(PasswordChangeBody, await _body(request), ACCOUNT_REFUSAL)
    try:
        session, revoked = await accounts_of(request.app).change_password(
            who.player_id, body.current_password, body.new_password, _address(request), _device(request),
        )
    except AccountError as exc:
        return _refusal(request, exc)
    sockets_of(request.app).end(who.player_id)
    _tokens_revoked(request, revoked)
    return _opened(request, session)


def _tokens_revoked(request: Request, token_ids: list[str]) -> None:
    """The API tokens ``token_ids`` were deleted: end their streams and drop them from every process's cache."""
    api = getattr(request.app.state, "bot_api", None)
    for token_id in token_ids:
        api_tokens_of(request.app).forget(token_id)
        if api is not None:
            api.forget(token_id)
            api.announce({"kind": "revoked", "token": token_id})


@router.delete("/api/account")
@shows_no_table("deletes the account")
async def delete_account(request: Request) -> JSONResponse:
    """Delete the account (password asked again): its name leaves the records, its sessions end."""
    who = await _account(request)
    body = parse(PasswordBody, await _body(request), ACCOUNT_REFUSAL)
    accounts = accounts_of(request.app)
    try:
        await accounts.confirm_password(who.player_id, body.password, _address(request), _device(request))
    except AccountError as exc:
        return _refusal(request, exc)
    hub = _hub(request)
    store: ErasingStore = store_of(request)
    busy = await unfinished_tables(store, who.player_id)
    if busy:
        # Its name is in those tables' live state too: they are erased once the tables are over.
        minutes = round(hub.settings.expire_unstarted_seconds / 60)
        raise CommandError(
            "account_busy",
            f"you sat at {len(busy)} table(s) still open or playing: finish the match, or wait until a table"
            f" you left is over (an unstarted table expires {minutes} minutes after its last change)",
            params={"tables": busy},
        )
    renamed = await erase_player(hub, store, who.player_id)
    await accounts.delete(who.player_id)
    sockets_of(request.app).end(who.player_id)
    return _ended({"ok": True, "tables_renamed": renamed})
