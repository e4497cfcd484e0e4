"""Personal API tokens: made at random, shown once, stored only as a hash, limited to scopes.

A token is ``ulti_`` and 43 URL-safe characters (256 random bits). Its prefix tells it apart from an
account's session token (``acct_``) and a guest token (``<id>.<mac>``) before any store read. The
store keeps the SHA-256 of it, as for sessions (``tokens.py``): a random 256-bit secret needs no slow
hash, and a copy of the database names no live token.

Scopes (docs/bot-api.md): ``bot:play`` lets a bot account join seats, act and chat; ``table:read``
only reads (the account's event stream and table streams). Tokens are for programs: they open the
bot API's routes only, never the web page's (sessions.py refuses them there).

A resolved token is cached for a few seconds, so that a bot's every act does not cost a database
read; revoking a token drops it from this process's cache at once (and, through the server, from
the other processes'), and the cache's time bounds how long any missed drop could last.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Protocol

from ulti.accounts.errors import AccountError
from ulti.accounts.tokens import has_token_shape, random_token, token_key
from ulti.store.ports import TokenInfo, TokenOwner

PREFIX = "ulti_"
BOT_PLAY = "bot:play"
TABLE_READ = "table:read"
SCOPES = (BOT_PLAY, TABLE_READ)
#: tokens one account may hold at once (a token per program or machine is plenty)
MAX_TOKENS = 20
MAX_TOKEN_NAME = 64
#: seconds a resolved token is trusted without reading the store again
CACHE_SECONDS = 5.0
#: a token's "last used" time is written at most this often (seconds): not one write per act
LAST_USED_EVERY = 60.0


def new_api_token() -> str:
    """A fresh API token."""
    return random_token(PREFIX)


def is_api_token(token: str | None) -> bool:
    """Whether ``token`` has an API token's shape (checked before any store read).

    >>> is_api_token(new_api_token()), is_api_token("acct_" + "a" * 43), is_api_token(None)
    (True, False, False)
    """
    return has_token_shape(token, PREFIX)


def check_scopes(value: object) -> tuple[str, ...]:
    """The scopes of a token request: a non-empty list of known scopes, each once, in ``SCOPES`` order.

    >>> check_scopes(["table:read", "bot:play"])
    ('bot:play', 'table:read')
    """
    if not isinstance(value, list) or not value or not all(isinstance(s, str) for s in value):
        raise AccountError("bad_request", f"scopes must be a non-empty list of: {', '.join(SCOPES)}", 400)
    unknown = [s for s in value if s not in SCOPES]
    if unknown:
        raise AccountError("bad_request", f"unknown scope {unknown[0]!r}; scopes: {', '.join(SCOPES)}", 400)
    return tuple(s for s in SCOPES if s in value)


def check_token_name(value: object) -> str:
    """A token's label: 1 to ``MAX_TOKEN_NAME`` printable characters, spaces collapsed."""
    if not isinstance(value, str):
        raise AccountError("bad_request", "name must be a string", 400)
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_TOKEN_NAME or not name.isprintable():
        raise AccountError("bad_request", f"name must be 1 to {MAX_TOKEN_NAME} printable characters", 400)
    return name


class ApiTokenStoreLike(Protocol):
    """The store's part this module needs (``ulti.store.apitokens.ApiTokenStore``)."""

    async def add_api_token(
        self, token_id: str, player_id: str, name: str, scopes: tuple[str, ...], key: str, limit: int
    ) -> bool:
        """Store a token unless the account holds ``limit`` already; whether it was stored."""
        ...

    async def api_tokens_of(self, player_id: str) -> list[TokenInfo]:
        """The account's tokens, oldest first."""
        ...

    async def delete_api_token(self, player_id: str, token_id: str) -> bool:
        """Delete one of the account's tokens; whether it existed."""
        ...

    async def api_token_owner(self, key: str) -> TokenOwner | None:
        """Who the token stored under ``key`` belongs to, or None."""
        ...

    async def touch_api_token(self, token_id: str) -> None:
        """Note that the token was just used."""
        ...


@dataclass
class ApiTokens:
    """Making, listing, revoking and resolving tokens over a store, with a short cache of resolutions."""

    store: ApiTokenStoreLike
    cache_seconds: float = CACHE_SECONDS
    _cache: dict[str, tuple[float, TokenOwner]] = field(default_factory=dict)
    _touched: dict[str, float] = field(default_factory=dict)

    async def create(self, player_id: str, name: object, scopes: object) -> tuple[str, str]:
        """A new token for ``player_id``: ``(token id, token)``; the token is never shown again."""
        label, chosen = check_token_name(name), check_scopes(scopes)
        token = new_api_token()
        token_id = secrets.token_hex(8)
        if not await self.store.add_api_token(token_id, player_id, label, chosen, token_key(token), MAX_TOKENS):
            raise AccountError("too_many_tokens", f"an account holds at most {MAX_TOKENS} tokens: revoke one", 409)
        return token_id, token

    async def listed(self, player_id: str) -> list[TokenInfo]:
        """The account's tokens (names, scopes, when made and last used)."""
        return await self.store.api_tokens_of(player_id)

    async def revoke(self, player_id: str, token_id: str) -> bool:
        """Delete one of the account's tokens (and forget it here); whether it existed."""
        gone = await self.store.delete_api_token(player_id, token_id)
        self.forget(token_id)
        return gone

    def forget(self, token_id: str) -> None:
        """Drop a revoked token from the cache (also told by other processes)."""
        for key in [k for k, (_, owner) in self._cache.items() if owner.token_id == token_id]:
            del self._cache[key]

    def forget_account(self, player_id: str) -> None:
        """Drop an account's tokens from the cache (it became a bot, or it was deleted)."""
        for key in [k for k, (_, owner) in self._cache.items() if owner.player_id == player_id]:
            del self._cache[key]

    async def resolve(self, token: str | None) -> TokenOwner | None:
        """Who a live token belongs to, or None (no store read for a string of the wrong shape)."""
        if not is_api_token(token):
            return None
        assert token is not None
        key = token_key(token)
        now = time.monotonic()
        cached = self._cache.get(key)
        if cached is not None and now - cached[0] < self.cache_seconds:
            owner: TokenOwner | None = cached[1]
        else:
            owner = await self.store.api_token_owner(key)
            if owner is None:
                self._cache.pop(key, None)
                return None
            if len(self._cache) > 10000:
                self._cache.clear()  # a bound, not a policy: the next requests read the store again
            self._cache[key] = (now, owner)
        assert owner is not None
        if now - self._touched.get(owner.token_id, -LAST_USED_EVERY) >= LAST_USED_EVERY:
            self._touched[owner.token_id] = now
            await self.store.touch_api_token(owner.token_id)
        return owner
