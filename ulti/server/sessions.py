"""Who is asking: one resolver for every HTTP route and the WebSocket, for guests and accounts alike.

A token is either a signed guest token (``auth.sign``: valid as long as the secret, the player
being a guest) or an account's session token (``ulti.accounts.tokens``: valid while its stored
session lives). A guest token of a player who has since registered is refused: otherwise a copy of
it would outlive every logout and password change of the account.

A personal API token (``ulti.accounts.apitokens``, ``Authorization: Bearer ulti_…``) proves an
account too, but only on the bot API's routes and only for its scopes (``api_identity``): the web
page's routes and the WebSocket never accept one, so a program's token cannot change a password.

Also here: which open WebSockets each account session holds, so that ending a session (logout,
password change, deletion) closes its sockets in this process at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from fastapi import Request

from ulti.accounts import Accounts
from ulti.accounts.apitokens import ApiTokens, is_api_token
from ulti.accounts.devices import DeviceCookies
from ulti.accounts.tokens import is_session_token, token_key
from ulti.server import auth
from ulti.server.errors import CommandError
from ulti.server.hubcore import Connection
from ulti.store import AccountBook

_Part = TypeVar("_Part")

UNAUTHORIZED = "no valid session: POST /api/session with your name first"


@dataclass(frozen=True)
class Identity:
    """The player a request or a socket acts for, and how it proved it."""

    player_id: str
    name: str
    kind: Literal["guest", "account"]
    #: the stored key of the account session (None for a guest token)
    session_key: str | None = None
    #: an API token's id and scopes (None and empty for a session or a guest token)
    token_id: str | None = None
    scopes: tuple[str, ...] = ()
    #: the account is a bot account (known for API tokens only)
    bot: bool = False


@dataclass(eq=False)
class SessionSockets:
    """The open WebSockets of account sessions in this process, to close when their session ends."""

    _sockets: dict[Connection, Identity] = field(default_factory=dict)

    def add(self, conn: Connection, who: Identity) -> None:
        """``conn`` was opened by ``who``."""
        if who.kind == "account":
            self._sockets[conn] = who

    def discard(self, conn: Connection) -> None:
        """``conn`` closed."""
        self._sockets.pop(conn, None)

    def end(self, player_id: str, session_key: str | None = None) -> int:
        """Close the sockets of ``session_key`` (or of every session of ``player_id``); how many."""
        ended = [
            conn
            for conn, who in self._sockets.items()
            if who.player_id == player_id and (session_key is None or who.session_key == session_key)
        ]
        for conn in ended:
            self.discard(conn)
            conn.send({"type": "error", "id": None, "code": "session_ended",
                       "message": "your session ended (logged out, password changed or account deleted)"})
            conn.outbox.put_nowait(None)  # the writer closes the socket after the message above
        return len(ended)


def _app_part(app: Any, name: str, make: Callable[[], _Part]) -> _Part:
    """``app.state.<name>``, made by ``make()`` on first use (the app's store is ready by then)."""
    part: _Part | None = getattr(app.state, name, None)
    if part is None:
        part = make()
        setattr(app.state, name, part)
    return part


def accounts_of(app: Any) -> Accounts:
    """The app's account operations (made on first use over the app's store)."""
    return _app_part(app, "accounts", lambda: Accounts(app.state.store, devices=DeviceCookies(app.state.secret)))


def api_tokens_of(app: Any) -> ApiTokens:
    """The app's API token operations (made on first use over the app's store)."""
    return _app_part(app, "api_tokens", lambda: ApiTokens(app.state.store))


def sockets_of(app: Any) -> SessionSockets:
    """The app's registry of account sockets."""
    return _app_part(app, "session_sockets", SessionSockets)


def token_of(request: Request) -> str | None:
    """The token of an HTTP request: ``Authorization: Bearer`` wins over the cookie."""
    token = request.cookies.get(auth.COOKIE)
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        token = header[7:].strip()
    return token


async def resolve(app: Any, token: str | None) -> Identity | None:
    """The identity ``token`` proves, or None. A malformed or forged token costs no store read."""
    if token is None or is_api_token(token):
        return None  # an API token opens the bot API's routes only (api_identity)
    if is_session_token(token):
        found = await accounts_of(app).session_of(token)
        if found is None:
            return None
        return Identity(found[0], found[1], "account", token_key(token))
    player_id = auth.verify(app.state.secret, token)
    if player_id is None:
        return None
    store: AccountBook = app.state.store
    known = await store.player_identity(player_id)
    if known is None or known[1]:
        return None  # no such player, or one who has an account now: only its sessions count
    return Identity(player_id, known[0], "guest")


async def identity_of(request: Request) -> Identity:
    """The identity of an HTTP request, or ``401 unauthorized``."""
    who = await resolve(request.app, token_of(request))
    if who is None:
        raise CommandError("unauthorized", UNAUTHORIZED)
    return who


NO_API_TOKEN = "no valid API token: send 'Authorization: Bearer <token>' with a token from your account page"


async def api_identity(request: Request, scopes: tuple[str, ...]) -> Identity:
    """The account an API token in ``Authorization: Bearer`` proves, if it holds one of ``scopes``.

    ``401 unauthorized`` without a live token (a revoked one included: it is gone from the store),
    ``403 missing_scope`` with a token that holds none of ``scopes``. Only the header counts here:
    the session cookie never authenticates a bot API call.
    """
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else None
    owner = await api_tokens_of(request.app).resolve(token)
    if owner is None:
        raise CommandError("unauthorized", NO_API_TOKEN)
    if not any(scope in owner.scopes for scope in scopes):
        raise CommandError("missing_scope", f"this token lacks the scope {' or '.join(scopes)} (docs/bot-api.md)")
    return Identity(owner.player_id, owner.name, "account", None, owner.token_id, owner.scopes, owner.bot)
