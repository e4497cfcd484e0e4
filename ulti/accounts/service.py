"""The account operations: register, log in and out, change the password, delete; and resolving a session.

Every refusal is an ``AccountError`` with a stable code. The HTTP layer (``ulti.server.account_routes``)
only decodes requests, sets the cookie and turns these errors into JSON.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field

from ulti.accounts.devices import DeviceCookies
from ulti.accounts.errors import AccountError
from ulti.accounts.guard import LoginGuard
from ulti.accounts.names import account_name, name_key, name_skeleton
from ulti.accounts.passwords import PasswordHashing, check_password_rules
from ulti.accounts.tokens import is_session_token, new_token, token_key
from ulti.store import AccountBook, AlreadyAccount, NameTaken, StoredAccount

#: how long a session lasts after its login (the cookie lasts as long)
SESSION_SECONDS = 30 * 86400
#: expired sessions are swept from the store once every this many logins
PRUNE_EVERY = 100
#: the one answer to a wrong name or a wrong password, whichever it was
BAD_CREDENTIALS = "wrong name or password"


@dataclass(frozen=True)
class Session:
    """A session just opened: its token (given to the client once), whose it is, and when it ends."""

    token: str
    player_id: str
    name: str
    expires_at: float  # epoch seconds
    #: a fresh device cookie for the client that opened it (None when no ``DeviceCookies`` are set up)
    device: str | None = None


@dataclass
class Accounts:
    """Account operations over a store, with one hashing cost, one login guard and the device cookies."""

    store: AccountBook
    hashing: PasswordHashing = field(default_factory=PasswordHashing)
    guard: LoginGuard = field(default_factory=LoginGuard)
    devices: DeviceCookies | None = None
    session_seconds: int = SESSION_SECONDS
    _opened: int = 0

    async def register(self, name: object, password: object, player_id: str, *, new_player: bool) -> Session:
        """Make an account named ``name`` for ``player_id`` and open its first session.

        ``new_player``: the id is new (a visitor without a session); otherwise it is a guest's, who
        keeps their id and with it their tables and past matches.
        """
        shown = account_name(name)
        key, skeleton = name_key(shown), name_skeleton(shown)
        secret = check_password_rules(password)
        # checked before hashing too, so that a taken name costs no Argon2 work (the store decides races)
        if await self.store.account_by_key(key) is not None or await self.store.account_by_skeleton(skeleton):
            raise _name_registered(shown)
        hashed = await self.hashing.hash(secret)
        try:
            await self.store.create_account(player_id, shown, key, hashed, new_player=new_player, skeleton=skeleton)
        except NameTaken:
            raise _name_registered(shown) from None
        except AlreadyAccount:
            raise AccountError("already_account", "this player already has an account: log in instead", 409) from None
        return await self._open(player_id, shown)

    async def login(self, name: object, password: object, address: str, device: str | None = None) -> Session:
        """Open a session for the account named ``name`` if ``password`` is its password.

        A wrong password and an unknown name get the same refusal after the same Argon2 work; each
        attempt counts against the name and the address (``LoginGuard``), or against the device
        alone when ``device`` is a genuine device cookie of that account.
        """
        if not isinstance(name, str):
            raise AccountError("bad_name", "name must be a string", 400)
        if not isinstance(password, str):
            raise AccountError("bad_password", "password must be a string", 400)
        # no length rule here: a name no account can have is simply not found (and answered the same)
        key = unicodedata.normalize("NFKC", " ".join(unicodedata.normalize("NFC", name).split())).casefold()[:128]
        if device is None:
            counted = self.guard.attempt(key, address)  # refused before any store read, as a flood's are
            account = await self.store.account_by_key(key)
        else:
            # read first: which count the attempt goes to depends on whose device cookie it brings
            account = await self.store.account_by_key(key)
            counted = self.guard.attempt(key, address, self._device(device, account.player_id if account else None))
        if not await self.hashing.verify(account.password_hash if account else None, password) or account is None:
            raise AccountError("bad_credentials", BAD_CREDENTIALS, 401)
        self.guard.succeeded(key, counted)
        if self.hashing.needs_rehash(account.password_hash):
            # the costs were raised since this hash was made: store one at today's costs
            await self.store.set_password_hash(
                account.player_id, await self.hashing.hash(password), end_sessions=False
            )
        return await self._open(account.player_id, account.name)

    async def logout(self, token: str) -> bool:
        """End the session of ``token``; whether it was live."""
        return is_session_token(token) and await self.store.end_session(token_key(token))

    async def change_password(
        self, player_id: str, current: object, new: object, address: str, device: str | None = None
    ) -> tuple[Session, list[str]]:
        """Replace the password after checking the current one: every session and API token ends.

        Returns the new session (this client's) and the ids of the API tokens revoked with the change.
        """
        fresh = check_password_rules(new, "new_password")
        account = await self.confirm_password(player_id, current, address, device)
        revoked = await self.store.set_password_hash(player_id, await self.hashing.hash(fresh), end_sessions=True)
        return await self._open(player_id, account.name), revoked

    async def confirm_password(
        self, player_id: str, password: object, address: str, device: str | None = None
    ) -> StoredAccount:
        """The account of ``player_id`` if ``password`` is its password (asked again before a change).

        Counted as a login is (``device``: the client's device cookie, if any).
        """
        if not isinstance(password, str):
            raise AccountError("bad_password", "password must be a string", 400)
        account = await self.store.account_of(player_id)
        if account is None:
            raise AccountError("not_account", "you are a guest: register first", 409)
        key = name_key(account.name)
        counted = self.guard.attempt(key, address, self._device(device, player_id))
        if not await self.hashing.verify(account.password_hash, password):
            raise AccountError("wrong_password", "the password is wrong", 403)
        self.guard.succeeded(key, counted)
        return account

    async def delete(self, player_id: str) -> bool:
        """Delete the account of ``player_id`` with its sessions; whether there was one."""
        return await self.store.delete_account(player_id)

    async def session_of(self, token: str | None) -> tuple[str, str] | None:
        """``(player_id, name)`` of the live session ``token`` names, or None (no store read for a non-token)."""
        if token is None or not is_session_token(token):
            return None
        return await self.store.session_player(token_key(token))

    def _device(self, cookie: str | None, player_id: str | None) -> str | None:
        """The device id of ``cookie`` if it is a genuine device cookie of ``player_id``'s account."""
        if self.devices is None or player_id is None:
            return None
        return self.devices.device_of(cookie, player_id)

    async def _open(self, player_id: str, name: str) -> Session:
        token = new_token()
        expires_at = time.time() + self.session_seconds
        await self.store.add_session(token_key(token), player_id, int(expires_at * 1000))
        self._opened += 1
        if self._opened % PRUNE_EVERY == 0:
            await self.store.prune_sessions()
        # every successful login issues a fresh device cookie (OWASP): the browser is a known device from now on
        device = self.devices.issue(player_id) if self.devices is not None else None
        return Session(token, player_id, name, expires_at, device)


def _name_registered(name: str) -> AccountError:
    return AccountError(
        "name_registered",
        f"an account named {name!r} or one that reads alike already exists (names ignore case and look-alike"
        " letters)",
        409,
    )
