"""Signed guest sessions: a token names a player id and carries an HMAC of it."""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: a session token is a 16-hex-digit id, a dot and 40 hex digits
MAX_TOKEN = 128
#: the cookie that carries a guest token or an account's session token
COOKIE = "ulti_session"


def new_secret() -> str:
    """A fresh random secret for signing sessions."""
    return secrets.token_hex(32)


def new_id() -> str:
    """A fresh random id for a player or table."""
    return secrets.token_hex(8)


def sign(secret: str, player_id: str) -> str:
    """The session token of ``player_id``."""
    mac = hmac.new(secret.encode(), player_id.encode(), hashlib.sha256).hexdigest()[:40]
    return f"{player_id}.{mac}"


def verify(secret: str, token: str | None) -> str | None:
    """The player id a token names if its signature is right, else None."""
    # Bounded and ASCII before any work: a 10 KiB or non-ASCII token is simply not a session.
    if not token or len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 1:
        return None
    player_id, _ = token.split(".")
    if hmac.compare_digest(sign(secret, player_id), token):
        return player_id
    return None
