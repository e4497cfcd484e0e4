"""Password rules and hashing: Argon2id through argon2-cffi, run off the event loop.

Cost (chosen with ``benchmarks/account_bench.py`` on the project's 2-core machine): two passes over
32 MiB, one lane (t=2, m=32768 KiB, p=1). One verification took 45-50 ms on an idle core and 70-90 ms
while the other core and the memory bus were busy with test runs: inside the 30-100 ms aimed at, slow
and memory-hard enough that every guess at a stolen hash costs that much, fast enough that a login is
not felt. (t=3 measured 70-120 ms, too close to the top when the machine is busy.) One lane because
the server answers many requests at once: more lanes make one hash use more cores, not less work.

A password is never logged, stored or put in an error message; only its Argon2id hash is kept.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ulti.accounts.errors import AccountError

MIN_PASSWORD = 8
#: long enough for any passphrase; bounded so that a client cannot make the server hash megabytes
MAX_PASSWORD = 256

TIME_COST = 2
MEMORY_KIB = 32768
LANES = 1


def check_password_rules(value: object, field_name: str = "password") -> str:
    """The password if it is a string of ``MIN_PASSWORD`` to ``MAX_PASSWORD`` characters, else a clear refusal."""
    if not isinstance(value, str):
        raise AccountError("bad_password", f"{field_name} must be a string", 400)
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise AccountError(
            "bad_password", f"{field_name} must be {MIN_PASSWORD} to {MAX_PASSWORD} characters", 400
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise AccountError("bad_password", f"{field_name} is not valid Unicode text", 400) from None
    return value


@dataclass
class PasswordHashing:
    """Argon2id hashing with one set of costs, at most ``concurrency`` hashes at a time, in threads.

    The hashes run in worker threads (argon2-cffi releases the interpreter lock while it hashes), so
    the event loop keeps serving the tables; the semaphore keeps a burst of logins from starting
    more hashes than there are cores, which would only make every one of them slower.
    """

    time_cost: int = TIME_COST
    memory_kib: int = MEMORY_KIB
    lanes: int = LANES
    concurrency: int = 2
    _hasher: PasswordHasher = field(init=False)
    _slots: asyncio.Semaphore | None = field(init=False, default=None)
    _dummy: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        """Build the hasher for these costs."""
        self._hasher = PasswordHasher(
            time_cost=self.time_cost, memory_cost=self.memory_kib, parallelism=self.lanes, type=Type.ID
        )

    def hash_now(self, password: str) -> str:
        """The Argon2id hash of ``password`` (blocking: for threads and tests)."""
        return self._hasher.hash(password)

    def verify_now(self, stored: str, password: str) -> bool:
        """Whether ``password`` matches the hash ``stored`` (blocking)."""
        try:
            return self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other costs than today's (then it is replaced at login)."""
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True

    async def hash(self, password: str) -> str:
        """The hash of ``password``, made in a worker thread."""
        async with self._slot():
            return await asyncio.to_thread(self.hash_now, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash (an unknown name), False.

        An unknown name is checked against a dummy hash of the same costs, so that the answer takes
        as long as for a known name with a wrong password: the time tells nobody which names exist.
        """
        async with self._slot():
            if stored is None:
                if self._dummy is None:
                    # hashing costs what verifying does: the first unknown name is answered as fast too
                    self._dummy = await asyncio.to_thread(self.hash_now, password)
                else:
                    await asyncio.to_thread(self.verify_now, self._dummy, password)
                return False
            return await asyncio.to_thread(self.verify_now, stored, password)

    def _slot(self) -> asyncio.Semaphore:
        # made on first use, inside the running loop (a semaphore belongs to one loop)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        return self._slots
