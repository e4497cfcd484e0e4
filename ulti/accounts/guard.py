"""The login guard: password checks are counted per name and per client address, and refused past a limit.

Rates of the ``limits`` library counted in moving windows in this process's memory (behind several processes each
keeps its own count: a guesser gets at most that many times the allowance).

An attempt is counted *before* its password is checked: counting only after a failure would let a
guesser send a thousand checks at once, all passing the limit before the first one failed. A success
then clears its name's count, so the owner who mistyped a few times is not kept waiting, and the name
limit counts, in effect, failures in a row. The address count is never cleared: a guesser who knows
one password gains nothing by using it. The count is kept for a name whether or not an account has
it, so the guard's answers tell nobody which names exist.

A *known device* (a browser holding a device cookie of the account, ``devices.py``) is judged by
its own count only (OWASP's device cookie pattern): guesses from elsewhere fill the name's count
and lock out unknown devices, never the owner's browser. A known device that fails too often
itself is no longer trusted while its count is full: its attempts are then counted and refused
per name and address like any other.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from limits import RateLimitItem, parse_many

from ulti.accounts.errors import AccountError
from ulti.movingwindows import MovingWindows

#: checks a name may have since its last success: a few slips a minute, a bounded number an hour
PER_NAME = "5/minute;20/hour"
#: checks one address may make over all names (a household or an office shares an address)
PER_ADDRESS = "30/minute;300/hour"
#: checks a known device may make since its last success before it is trusted no more
PER_DEVICE = "5/minute;20/hour"


@dataclass
class LoginGuard:
    """Counts password checks per name and per address; refuses one over either limit, saying when to retry."""

    per_name: str = PER_NAME
    per_address: str = PER_ADDRESS
    per_device: str = PER_DEVICE
    _limiter: MovingWindows = field(default_factory=MovingWindows)  # no timer thread (ulti/movingwindows.py)
    _name_items: list[RateLimitItem] = field(init=False)
    _address_items: list[RateLimitItem] = field(init=False)
    _device_items: list[RateLimitItem] = field(init=False)

    def __post_init__(self) -> None:
        """Parse the configured rates once."""
        self._name_items = parse_many(self.per_name)
        self._address_items = parse_many(self.per_address)
        self._device_items = parse_many(self.per_device)

    def attempt(self, name_key: str, address: str, device: str | None = None) -> str | None:
        """Count a password check for ``name_key`` from ``address``, or raise ``too_many_failures`` (429).

        ``device``: the id of a known device of the account (a genuine device cookie), if any. While
        its own count has room the check is counted against it alone and its id is returned; the
        caller passes that id to ``succeeded``. Otherwise (None returned) the check was counted per
        name and per address. The refusal's ``retry_after`` is the seconds until the
        longest-waiting full window has room.
        """
        if device is not None and all(self._limiter.test(item, "login-device", device) for item in self._device_items):
            for item in self._device_items:
                self._limiter.hit(item, "login-device", device)
            return device
        waits = [
            self._wait(item, kind, key)
            for items, kind, key in (
                (self._name_items, "login-name", name_key),
                (self._address_items, "login-address", address),
            )
            for item in items
            if not self._limiter.test(item, kind, key)
        ]
        if waits:
            wait = max(waits)
            raise AccountError(
                "too_many_failures",
                f"too many password attempts for this name or from your address: try again in {wait} s",
                429,
                retry_after=wait,
            )
        for item in self._name_items:
            self._limiter.hit(item, "login-name", name_key)
        for item in self._address_items:
            self._limiter.hit(item, "login-address", address)
        return None

    def succeeded(self, name_key: str, device: str | None = None) -> None:
        """The right password was given: the count the check went to starts again.

        ``device`` is what ``attempt`` returned: a known device's success clears its own count only,
        so the owner's login never gives a guesser elsewhere a fresh allowance for the name.
        """
        if device is not None:
            for item in self._device_items:
                self._limiter.clear(item, "login-device", device)
            return
        for item in self._name_items:
            self._limiter.clear(item, "login-name", name_key)

    def _wait(self, item: RateLimitItem, kind: str, key: str) -> int:
        reset = self._limiter.get_window_stats(item, kind, key).reset_time
        return max(1, math.ceil(reset - time.time()))
