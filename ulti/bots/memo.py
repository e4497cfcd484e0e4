"""A bounded memo for the pure functions a bot's samplers call on every world they try.

A card decision's sampler weighs thousands of worlds, and most share the hand a weight reads (a chain's
step that swaps two cards of other locations leaves the declarer's hand as it was); the decisions of one
deal weigh the same hands again. A value remembered is the value computed, so remembering changes no
choice and draws nothing from any rng. The memo is emptied whole past its limit, to bound its memory (a
bot's process keeps its memos: 20,000 small entries, a few megabytes, hold several decisions' worth).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Values of a pure function remembered by key, at most about ``limit`` of them."""

    def __init__(self, limit: int = 20_000) -> None:
        """An empty memo holding at most about ``limit`` values."""
        self.limit = limit
        self.known: dict[K, V] = {}

    def find(self, key: K) -> V | None:
        """The value remembered for ``key`` (None: not remembered; a memo of values that are never None)."""
        return self.known.get(key)

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key``; the value."""
        known = self.known
        if len(known) >= self.limit:
            known.clear()
        if self.limit:  # a memo of limit 0 remembers nothing (the reference the tests compare with)
            known[key] = value
        return value

    def clear(self) -> None:
        """Forget every value."""
        self.known.clear()
