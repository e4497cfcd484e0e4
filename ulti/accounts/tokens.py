"""Session tokens of accounts: random, shown to the client once, stored only as a hash.

A token is ``acct_`` and 43 URL-safe characters (256 random bits). It has no dot, so it can never be
mistaken for a signed guest token (``<player_id>.<mac>``). The store keeps the SHA-256 of it: a copy
of the database names no live session. A plain hash is enough here (no salt, no slow hash) because
the token is random and long, unlike a password.
"""

from __future__ import annotations

import hashlib
import secrets

PREFIX = "acct_"


def new_token() -> str:
    """A fresh session token (a new one at every login: a session id is never chosen by the client)."""
    return random_token(PREFIX)


def random_token(prefix: str) -> str:
    """``prefix`` and 43 URL-safe characters (256 random bits): a session or an API token."""
    return prefix + secrets.token_urlsafe(32)


def has_token_shape(token: str | None, prefix: str) -> bool:
    """Whether ``token`` is ``prefix`` and 43 URL-safe characters (checked before any store read)."""
    return (
        token is not None
        and len(token) == len(prefix) + 43
        and token.startswith(prefix)
        and token.isascii()
        and all(c.isalnum() or c in "-_" for c in token)
    )


def is_session_token(token: str | None) -> bool:
    """Whether ``token`` has a session token's shape (checked before any store read)."""
    return has_token_shape(token, PREFIX)


def token_key(token: str) -> str:
    """The key a token (session or API) is stored under: the hex SHA-256 of it."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()
