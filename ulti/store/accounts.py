"""The store's part for accounts: accounts, their sessions, and erasing a deleted player's traces.

A mixin of ``EventStore`` (one engine, one connection pool). Nothing here knows what a password or a
token is: the account logic (``ulti.accounts``) hands over hashes and keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.models import account_sessions, accounts, api_tokens, bot_accounts, events, players


class NameTaken(Exception):
    """Another account has a name with the same key, or one that reads alike (the same skeleton)."""


class AlreadyAccount(Exception):
    """The player already has an account (or no longer exists)."""


@dataclass(frozen=True)
class StoredAccount:
    """An account as stored: its player id, name and password hash."""

    player_id: str
    name: str
    password_hash: str




class AccountStore:
    """Accounts and sessions over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def create_account(
        self, player_id: str, name: str, name_key: str, password_hash: str, *, new_player: bool, skeleton: str
    ) -> None:
        """Store an account for ``player_id`` (a new player, or an existing guest who keeps their id).

        Raises ``NameTaken`` if the name's key or its ``skeleton`` is taken, ``AlreadyAccount`` if the
        player has an account or an existing player is not there. The player's display name becomes
        ``name``. Both keys are under unique indexes: of two registrations racing, one fails.
        """
        now = now_ms()
        try:
            async with self.engine.begin() as conn:
                if new_player:
                    await conn.execute(insert(players).values(id=player_id, name=name, created_at=now))
                else:
                    owned = await conn.execute(select(accounts.c.player_id).where(accounts.c.player_id == player_id))
                    if owned.first() is not None:
                        raise AlreadyAccount(player_id)
                    renamed = await conn.execute(update(players).where(players.c.id == player_id).values(name=name))
                    if renamed.rowcount != 1:
                        raise AlreadyAccount(player_id)
                taken = await conn.execute(
                    select(accounts.c.player_id).where(
                        (accounts.c.name_key == name_key) | (accounts.c.name_skeleton == skeleton)
                    )
                )
                if taken.first() is not None:
                    raise NameTaken(name_key)
                await conn.execute(
                    insert(accounts).values(
                        player_id=player_id,
                        name=name,
                        name_key=name_key,
                        name_skeleton=skeleton,
                        password_hash=password_hash,
                        created_at=now,
                        password_changed_at=now,
                    )
                )
        except IntegrityError:
            # the unique index decides a race between two registrations of one name
            raise NameTaken(name_key) from None

    async def account_by_key(self, name_key: str) -> StoredAccount | None:
        """The account whose name has ``name_key``, or None."""
        return await self._account(accounts.c.name_key == name_key)

    async def account_by_skeleton(self, skeleton: str) -> StoredAccount | None:
        """The account whose name reads as one with this ``skeleton`` (``names.name_skeleton``), or None."""
        return await self._account(accounts.c.name_skeleton == skeleton)

    async def account_of(self, player_id: str) -> StoredAccount | None:
        """The account of ``player_id``, or None (a guest or an unknown player)."""
        return await self._account(accounts.c.player_id == player_id)

    async def _account(self, where: Any) -> StoredAccount | None:
        query = select(accounts.c.player_id, accounts.c.name, accounts.c.password_hash).where(where)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else StoredAccount(str(row[0]), str(row[1]), str(row[2]))

    async def set_password_hash(self, player_id: str, password_hash: str, *, end_sessions: bool) -> list[str]:
        """Replace the password hash; with ``end_sessions``, every session and API token of the account ends.

        Returns the ids of the API tokens deleted (for the caller to drop from caches and end their
        streams). They go in the same transaction as the hash: a stolen session that made a token
        cannot keep it past the owner's password change, not even for a crash between the two.
        """
        async with self.engine.begin() as conn:
            await conn.execute(
                update(accounts)
                .where(accounts.c.player_id == player_id)
                .values(password_hash=password_hash, password_changed_at=now_ms())
            )
            if not end_sessions:
                return []
            await conn.execute(delete(account_sessions).where(account_sessions.c.player_id == player_id))
            tokens = await conn.execute(select(api_tokens.c.id).where(api_tokens.c.player_id == player_id))
            revoked = sorted(str(row[0]) for row in tokens)
            await conn.execute(delete(api_tokens).where(api_tokens.c.player_id == player_id))
        return revoked

    async def add_session(self, key: str, player_id: str, expires_at_ms: int) -> None:
        """Store a session of ``player_id`` under ``key`` (the hash of its token)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(account_sessions).values(
                    key=key, player_id=player_id, created_at=now_ms(), expires_at=expires_at_ms
                )
            )

    async def session_player(self, key: str) -> tuple[str, str] | None:
        """``(player_id, name)`` of the live session stored under ``key``, or None (unknown, ended, expired)."""
        query = (
            select(accounts.c.player_id, accounts.c.name)
            .join(account_sessions, account_sessions.c.player_id == accounts.c.player_id)
            .where(and_(account_sessions.c.key == key, account_sessions.c.expires_at > now_ms()))
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (str(row[0]), str(row[1]))

    async def end_session(self, key: str) -> bool:
        """End the session stored under ``key``; whether there was one."""
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(account_sessions).where(account_sessions.c.key == key))
        return bool(result.rowcount)

    async def end_sessions_of(self, player_id: str) -> int:
        """End every session of ``player_id``; how many there were."""
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(account_sessions).where(account_sessions.c.player_id == player_id))
        return int(result.rowcount)

    async def prune_sessions(self) -> int:
        """Forget the expired sessions (they are refused anyway); how many went."""
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(account_sessions).where(account_sessions.c.expires_at <= now_ms()))
        return int(result.rowcount)

    async def delete_account(self, player_id: str) -> bool:
        """Delete the account of ``player_id``, its sessions and its player (its tables' rows stay)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(account_sessions).where(account_sessions.c.player_id == player_id))
            # the bot accounts it owned are nobody's now (they stay: each is an account of its own)
            await conn.execute(update(bot_accounts).where(bot_accounts.c.owner_id == player_id).values(owner_id=None))
            result = await conn.execute(delete(accounts).where(accounts.c.player_id == player_id))
            await conn.execute(delete(players).where(players.c.id == player_id))
        return bool(result.rowcount)

    async def player_identity(self, player_id: str) -> tuple[str, bool] | None:
        """``(name, has_account)`` of a player, or None if there is no such player."""
        query = (
            select(players.c.name, accounts.c.player_id)
            .outerjoin(accounts, accounts.c.player_id == players.c.id)
            .where(players.c.id == player_id)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (str(row[0]), row[1] is not None)

    async def replace_events(self, table_id: str, bodies: Mapping[int, Mapping[str, Any]]) -> None:
        """Overwrite stored events of ``table_id`` by number, in one transaction.

        For erasing a deleted player's name only: an event log is otherwise never rewritten.
        """
        if not bodies:
            return
        async with self.engine.begin() as conn:
            for seq, body in bodies.items():
                await conn.execute(
                    update(events)
                    .where(events.c.table_id == table_id, events.c.seq == seq)
                    .values(body=orjson.dumps(body).decode())
                )
