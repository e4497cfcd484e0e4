"""Device cookies (OWASP's "device cookie" pattern): a browser that has logged in to an account before.

After a successful login (or a registration, or a password change) the browser gets a cookie that
binds the account's player id to a fresh random device id, signed with an HMAC. A later login to
that account presenting it is a *known device*: the login guard judges it by that device's own
failures only, so failed guesses from elsewhere never lock its owner out (``guard.LoginGuard``).

Nothing is stored: the signature is the proof, and a device that fails too often is locked out by
the guard's counter of its id. The key is derived from the server's session secret (the one that
signs guest tokens, shared by every process) with a label of its own, so no device cookie's
signature is ever a guest token's and the two cannot be swapped.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: the cookie's name (the account routes set it; only they read it)
COOKIE = "ulti_device"
#: how long a browser stays a known device after its last successful login (seconds)
MAX_AGE = 365 * 86400
#: the longest cookie value looked at: a player id, a device id and a MAC, with room to spare
MAX_LENGTH = 160


class DeviceCookies:
    """Issues and checks device cookies with a key derived from the server's session secret."""

    def __init__(self, secret: str) -> None:
        """Device cookies signed with a key derived from ``secret``."""
        self._key = hmac.new(secret.encode(), b"ulti device cookie", hashlib.sha256).digest()

    def issue(self, player_id: str) -> str:
        """A new cookie value naming ``player_id`` and a fresh random device id."""
        device_id = secrets.token_urlsafe(16)
        return f"{player_id}.{device_id}.{self._mac(player_id, device_id)}"

    def device_of(self, value: str | None, player_id: str) -> str | None:
        """The device id of ``value`` if it is a genuine cookie of ``player_id``'s account, else None.

        Bounded and ASCII before any work: a long, foreign or forged value is simply no device.
        """
        if not value or len(value) > MAX_LENGTH or not value.isascii() or value.count(".") != 2:
            return None
        owner, device_id, mac = value.split(".")
        if owner != player_id or not device_id or not hmac.compare_digest(mac, self._mac(owner, device_id)):
            return None
        return device_id

    def _mac(self, player_id: str, device_id: str) -> str:
        return hmac.new(self._key, f"{player_id}.{device_id}".encode(), hashlib.sha256).hexdigest()[:40]
