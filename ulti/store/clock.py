"""The store's one clock: times are kept as epoch milliseconds (BigInteger columns)."""

from __future__ import annotations

import time


def now_ms() -> int:
    """The current time in epoch milliseconds."""
    return int(time.time() * 1000)
