"""How much long work (deal analyses, what-if lines, hints) one account and one address may ask for.

Every request to a long-work route (an analysis, its status, the match's accuracy, a what-if line,
a hint), answered from memory or not, first counts against a request rate per account and per address
(``requests_per_player``, ``requests_per_address``): the routes' own cost on the event loop stays
bounded however fast an attacker polls. Then each kind has two bounds, both per account and per client
address: how many may be pending at once
(an analysis from its queueing to its end, a what-if line or a hint while it is computed) and how many
may be started in a moving hour. A request over either is refused with ``work_quota`` (HTTP 429) and
``retry_after`` (seconds) before anything is queued or computed. Work whose result already exists (a
stored analysis, a remembered what-if answer) costs nothing and is never refused.

Like the other quotas (``throttle.py``) the counts live in this process's memory: behind N processes a
client may reach N times a quota at worst.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from limits import parse_many

from ulti.movingwindows import MovingWindows
from ulti.server.errors import CommandError

#: the kinds of long work a client can ask for, as the quotas' field names spell them
KINDS = ("analysis", "whatif", "hint")
#: seconds to wait when a kind's pending work is at its bound (about how long one such piece takes)
PENDING_RETRY = {"analysis": 20, "whatif": 2, "hint": 2}
WHAT = {"analysis": "deal analyses", "whatif": "what-if lines", "hint": "hints", "request": "requests for long work"}


@dataclass
class WorkQuotas:
    """The bounds on long work (``Settings.work``); ``pending`` counts at once, ``per`` a moving window."""

    #: deals one account may have queued or in analysis at once (a 12-deal match's accuracy fits)
    analysis_pending_per_player: int = 12
    analysis_pending_per_address: int = 24
    #: deal analyses one account (address) may queue an hour
    analysis_per_player: str = "48/hour"
    analysis_per_address: str = "96/hour"
    whatif_pending_per_player: int = 2
    whatif_pending_per_address: int = 4
    #: a person exploring a deal asks a line every few seconds; a burst of 20 then waits
    whatif_per_player: str = "20/minute;600/hour"
    whatif_per_address: str = "40/minute;1200/hour"
    hint_pending_per_player: int = 1
    hint_pending_per_address: int = 4
    hint_per_player: str = "300/hour"
    hint_per_address: str = "600/hour"
    #: requests to the long-work routes (analyses and their status, what-if lines, hints), answered from
    #: memory or not: the replay page polls a deal's analysis every 0.7 s and the match's every 1.5 s
    #: (about 130 a minute) and a person exploring what-ifs adds a few; a household behind one address
    #: may have several such pages open
    requests_per_player: str = "5/second;200/minute"
    requests_per_address: str = "10/second;400/minute"
    #: what-if answers and hints remembered for identical questions (least recently used forgotten)
    memo_entries: int = 512

    def pending(self, kind: str, who: str) -> int:
        """The bound on ``kind`` pending at once for ``who`` (``player`` or ``address``)."""
        value: int = getattr(self, f"{kind}_pending_per_{who}")
        return value

    def rate(self, kind: str, who: str) -> str:
        """The moving-window bounds on ``kind`` for ``who`` (``player`` or ``address``), e.g. ``"48/hour"`` or
        ``"20/minute;600/hour"`` (each must hold)."""
        value: str = getattr(self, f"{kind}_per_{who}")
        return value


def quota_error(kind: str, rule: str, wait: int) -> CommandError:
    """The refusal of work over a quota: ``work_quota`` naming the bound, with ``retry_after``."""
    return CommandError(
        "work_quota",
        f"too many {WHAT[kind]} asked for ({rule}): try again in {wait} s",
        params={"retry_after": wait, "kind": kind},
    )


class WorkLimiter:
    """The counters behind ``WorkQuotas`` for this process."""

    def __init__(self, quotas: WorkQuotas) -> None:
        """Empty counters for ``quotas``."""
        self.quotas = quotas
        self._limiter = MovingWindows()  # no timer thread on the event loop (ulti/movingwindows.py)
        self._running: Counter[tuple[str, str, str]] = Counter()  # (kind, who, key) -> pieces being computed
        self._jobs: dict[tuple[str, str], set[tuple[str, int]]] = {}  # (who, key) -> analyses queued by it

    def request(self, who: str, key: str) -> None:
        """Count one request to a long-work route by ``key`` (``who``: ``player`` or ``address``); refused
        (``work_quota``, ``retry_after``) over a rate, uncounted then. The routes count the address before
        resolving the session (a refusal then costs no store read), the player after."""
        rates = parse_many(getattr(self.quotas, f"requests_per_{who}"))
        for item in rates:
            if not self._limiter.test(item, "request", who, key):
                wait = _wait(self._limiter.get_window_stats(item, "request", who, key).reset_time)
                raise quota_error("request", f"at most {item} per {_WHO[who]}", wait)
        for item in rates:
            self._limiter.hit(item, "request", who, key)

    # ---------------------------------------------------------------- analyses (stored jobs)

    def analysis_room(self, player_id: str, address: str) -> int:
        """How many more deal analyses ``player_id`` at ``address`` may queue now (0: none)."""
        room = None
        for who, key in (("player", player_id), ("address", address)):
            pending = self.quotas.pending("analysis", who) - len(self._jobs.get((who, key), ()))
            left = min(self._limiter.get_window_stats(item, "analysis", who, key).remaining
                       for item in parse_many(self.quotas.rate("analysis", who)))
            bound = max(0, min(pending, left))
            room = bound if room is None else min(room, bound)
        return room or 0

    def analysis_refusal(self, player_id: str, address: str) -> CommandError:
        """Why ``analysis_room`` is 0: the bound that is full, and when to try again."""
        for who, key in (("player", player_id), ("address", address)):
            if len(self._jobs.get((who, key), ())) >= self.quotas.pending("analysis", who):
                bound = self.quotas.pending("analysis", who)
                return quota_error("analysis", f"at most {bound} pending per {_WHO[who]}", PENDING_RETRY["analysis"])
        for who, key in (("player", player_id), ("address", address)):
            for item in parse_many(self.quotas.rate("analysis", who)):
                stats = self._limiter.get_window_stats(item, "analysis", who, key)
                if stats.remaining <= 0:
                    return quota_error("analysis", f"at most {item} per {_WHO[who]}", _wait(stats.reset_time))
        return quota_error("analysis", "none may be queued now", PENDING_RETRY["analysis"])

    def pending_analyses(self, player_id: str, address: str) -> set[tuple[str, int]]:
        """The (table, deal) analyses counted as pending for ``player_id`` or ``address``."""
        return self._jobs.get(("player", player_id), set()) | self._jobs.get(("address", address), set())

    def analyses_queued(self, player_id: str, address: str, jobs: list[tuple[str, int]]) -> None:
        """``jobs`` (checked against ``analysis_room``) were queued by ``player_id`` at ``address``."""
        if not jobs:
            return
        for who, key in (("player", player_id), ("address", address)):
            for item in parse_many(self.quotas.rate("analysis", who)):
                self._limiter.hit(item, "analysis", who, key, cost=len(jobs))
            self._jobs.setdefault((who, key), set()).update(jobs)

    def analysis_ended(self, job: tuple[str, int]) -> None:
        """A deal's analysis is done or failed: it no longer counts against whoever queued it."""
        for owner in [k for k, jobs in self._jobs.items() if job in jobs]:
            self._jobs[owner].discard(job)
            if not self._jobs[owner]:
                del self._jobs[owner]

    # ---------------------------------------------------------------- what-if lines and hints (computed at once)

    @contextmanager
    def computing(self, kind: str, player_id: str, address: str) -> Iterator[None]:
        """Count one ``kind`` computed for ``player_id`` at ``address`` while the block runs; refused over a bound."""
        whos = (("player", player_id), ("address", address))
        for who, key in whos:
            bound = self.quotas.pending(kind, who)
            if self._running[(kind, who, key)] >= bound:
                raise quota_error(kind, f"at most {bound} at once per {_WHO[who]}", PENDING_RETRY[kind])
        for who, key in whos:
            for item in parse_many(self.quotas.rate(kind, who)):
                if not self._limiter.test(item, kind, who, key):
                    raise quota_error(kind, f"at most {item} per {_WHO[who]}", _wait(
                        self._limiter.get_window_stats(item, kind, who, key).reset_time))
        for who, key in whos:
            for item in parse_many(self.quotas.rate(kind, who)):
                self._limiter.hit(item, kind, who, key)
            self._running[(kind, who, key)] += 1
        try:
            yield
        finally:
            for who, key in whos:
                self._running[(kind, who, key)] -= 1
                if self._running[(kind, who, key)] <= 0:
                    del self._running[(kind, who, key)]


_WHO = {"player": "account", "address": "address"}


def _wait(reset_time: float) -> int:
    return max(1, math.ceil(reset_time - time.time()))
