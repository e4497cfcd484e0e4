"""The store's part for the bot API: personal API tokens (stored as hashes) and bot accounts.

A mixin of ``EventStore`` (one engine, one pool). As for sessions, nothing here knows what a token
looks like: the account logic (``ulti.accounts.apitokens``) hands over the token's hash as its key.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.models import accounts, api_tokens, bot_accounts, table_players


@dataclass(frozen=True)
class TokenOwner:
    """What a live token proves: its id, its account (id and name), its scopes, whether the account is a bot."""

    token_id: str
    player_id: str
    name: str
    scopes: tuple[str, ...]
    bot: bool


@dataclass(frozen=True)
class TokenInfo:
    """A token as its owner sees it listed (never the token itself, which is not stored)."""

    token_id: str
    name: str
    scopes: tuple[str, ...]
    created_at: int  # epoch milliseconds
    last_used_at: int | None




def _scopes(text: str) -> tuple[str, ...]:
    return tuple(s for s in text.split(" ") if s)


class ApiTokenStore:
    """API tokens and bot accounts over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def add_api_token(
        self, token_id: str, player_id: str, name: str, scopes: tuple[str, ...], key: str, limit: int
    ) -> bool:
        """Store a token of ``player_id`` unless the account holds ``limit`` tokens already; whether stored."""
        async with self.engine.begin() as conn:
            held = await conn.scalar(select(func.count()).where(api_tokens.c.player_id == player_id))
            if int(held or 0) >= limit:
                return False
            await conn.execute(
                insert(api_tokens).values(
                    id=token_id, player_id=player_id, name=name, scopes=" ".join(scopes), key=key,
                    created_at=now_ms(), last_used_at=None,
                )
            )
        return True

    async def api_tokens_of(self, player_id: str) -> list[TokenInfo]:
        """The tokens of ``player_id``, oldest first."""
        query = (
            select(api_tokens.c.id, api_tokens.c.name, api_tokens.c.scopes, api_tokens.c.created_at,
                   api_tokens.c.last_used_at)
            .where(api_tokens.c.player_id == player_id)
            .order_by(api_tokens.c.created_at, api_tokens.c.id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            TokenInfo(str(r[0]), str(r[1]), _scopes(str(r[2])), int(r[3]), None if r[4] is None else int(r[4]))
            for r in rows
        ]

    async def delete_api_token(self, player_id: str, token_id: str) -> bool:
        """Delete token ``token_id`` if it is one of ``player_id``'s; whether it was."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                delete(api_tokens).where(api_tokens.c.id == token_id, api_tokens.c.player_id == player_id)
            )
        return bool(result.rowcount)

    async def api_token_owner(self, key: str) -> TokenOwner | None:
        """Who the token stored under ``key`` belongs to (with the account's name and bot mark), or None."""
        query = (
            select(api_tokens.c.id, accounts.c.player_id, accounts.c.name, api_tokens.c.scopes,
                   bot_accounts.c.player_id)
            .join(accounts, accounts.c.player_id == api_tokens.c.player_id)
            .outerjoin(bot_accounts, bot_accounts.c.player_id == api_tokens.c.player_id)
            .where(api_tokens.c.key == key)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        return TokenOwner(str(row[0]), str(row[1]), str(row[2]), _scopes(str(row[3])), row[4] is not None)

    async def touch_api_token(self, token_id: str) -> None:
        """Note that token ``token_id`` was used now."""
        async with self.engine.begin() as conn:
            await conn.execute(update(api_tokens).where(api_tokens.c.id == token_id).values(last_used_at=now_ms()))

    async def api_token_exists(self, token_id: str) -> bool:
        """Whether token ``token_id`` is still stored (an open stream checks it now and then)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(api_tokens.c.id).where(api_tokens.c.id == token_id))).first()
        return row is not None

    # ---------------------------------------------------------------- bot accounts

    async def is_bot_account(self, player_id: str) -> bool:
        """Whether ``player_id`` is a bot account (it plays through the bot API only)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(bot_accounts.c.player_id).where(bot_accounts.c.player_id == player_id)))
            return row.first() is not None

    async def has_sat_at_a_table(self, player_id: str) -> bool:
        """Whether ``player_id`` ever took a seat (an account that has played cannot become a bot)."""
        query = select(table_players.c.table_id).where(table_players.c.player_id == player_id).limit(1)
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def set_bot_owner(self, bot_id: str, owner_id: str) -> None:
        """``owner_id`` owns the bot account ``bot_id`` from now on (it proved it holds one of its tokens)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(bot_accounts).where(bot_accounts.c.player_id == bot_id).values(owner_id=owner_id))

    async def set_bot_challenges(self, bot_id: str, accept: bool) -> None:
        """Whether the bot account ``bot_id`` offers itself to every host."""
        async with self.engine.begin() as conn:
            await conn.execute(update(bot_accounts).where(bot_accounts.c.player_id == bot_id).values(challenges=accept))

    async def bots_for_host(self, host_id: str) -> list[tuple[str, str, bool]]:
        """``(player_id, name, mine)`` of the bot accounts ``host_id`` owns and of those accepting challenges,
        the host's own first, then by name."""
        query = (
            select(bot_accounts.c.player_id, accounts.c.name, bot_accounts.c.owner_id)
            .join(accounts, accounts.c.player_id == bot_accounts.c.player_id)
            .where((bot_accounts.c.owner_id == host_id) | bot_accounts.c.challenges.is_(True))
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        bots = [(str(pid), str(name), owner == host_id) for pid, name, owner in rows]
        return sorted(bots, key=lambda b: (not b[2], b[1].casefold()))

    async def make_bot_account(self, player_id: str) -> None:
        """Mark the account of ``player_id`` as a bot account (again: nothing changes)."""
        async with self.engine.begin() as conn:
            known = await conn.execute(select(bot_accounts.c.player_id).where(bot_accounts.c.player_id == player_id))
            if known.first() is None:
                await conn.execute(insert(bot_accounts).values(player_id=player_id, upgraded_at=now_ms()))
