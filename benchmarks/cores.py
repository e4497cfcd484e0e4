"""The one-core pinning the speed benchmarks share (benchmarks only, never imported by ``ulti``)."""

from __future__ import annotations

import os


def pin_to_one_core() -> None:
    """Run on one core so that figures compare across machines of this kind (and CPU time is one core's)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
