"""Moving-window rate counting on the event loop, with no thread: every rate limit's counter.

The rates themselves are the ``limits`` library's (``"20/minute;600/hour"``, parsed by
``limits.parse_many``), and this class answers as its ``MovingWindowRateLimiter`` does (``test``,
``hit``, ``get_window_stats``). Its in-memory storage, though, starts a ``threading.Timer`` every 10 ms
while counts change, and the thread's start blocks the caller until the new thread runs: on the event
loop of a busy server that wait lands on other tables' acknowledgements. Here each key
keeps the times of its hits in a deque pruned when the key is read, and keys whose hits have all
expired are dropped every ``SWEEP_EVERY`` hits, so memory stays bounded by the active keys.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from limits import RateLimitItem

#: hits between two sweeps of keys with no live hit
SWEEP_EVERY = 4096


class WindowStats(NamedTuple):
    """When the oldest counted hit leaves the window (epoch seconds), and how many hits are left now."""

    reset_time: float
    remaining: int


class MovingWindows:
    """Hits per (rate, key) in a moving window of the rate's length."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        """No hit yet; ``clock`` tells the time in epoch seconds (a test's clock moves by hand)."""
        self._clock = clock
        self._hits: dict[str, tuple[int, deque[float]]] = {}  # the rate's key -> (its window in s, hit times)
        self._since_sweep = 0

    def _live(self, item: RateLimitItem, keys: tuple[str, ...]) -> deque[float] | None:
        """The key's hits still inside ``item``'s window (older ones dropped), or None if there are none."""
        entry = self._hits.get(item.key_for(*keys))
        if entry is None:
            return None
        hits = entry[1]
        horizon = self._clock() - item.get_expiry()
        while hits and hits[0] <= horizon:
            hits.popleft()
        return hits

    def test(self, item: RateLimitItem, *keys: str, cost: int = 1) -> bool:
        """Whether ``cost`` more hits fit in ``item`` for ``keys`` now."""
        hits = self._live(item, keys)
        return (0 if hits is None else len(hits)) + cost <= item.amount

    def hit(self, item: RateLimitItem, *keys: str, cost: int = 1) -> None:
        """Count ``cost`` hits now (whether they fit is ``test``'s to say)."""
        hits = self._live(item, keys)
        if hits is None:
            hits = deque()
            self._hits[item.key_for(*keys)] = (item.get_expiry(), hits)
        now = self._clock()
        hits.extend([now] * cost)
        self._since_sweep += cost
        if self._since_sweep >= SWEEP_EVERY:
            self._sweep()

    def clear(self, item: RateLimitItem, *keys: str) -> None:
        """Forget every hit of ``keys`` in ``item`` (a login that succeeded clears its failures)."""
        self._hits.pop(item.key_for(*keys), None)

    def get_window_stats(self, item: RateLimitItem, *keys: str) -> WindowStats:
        """When the window frees a hit again and how many are left now."""
        hits = self._live(item, keys)
        if not hits:
            return WindowStats(self._clock(), item.amount)
        return WindowStats(hits[0] + item.get_expiry(), max(0, item.amount - len(hits)))

    def _sweep(self) -> None:
        # a key's deque is pruned only when it is read: drop the keys whose newest hit has left its window
        self._since_sweep = 0
        now = self._clock()
        for key in [k for k, (window, hits) in self._hits.items() if not hits or hits[-1] <= now - window]:
            del self._hits[key]
