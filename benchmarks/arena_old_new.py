"""``ulti arena`` of the strong bot against the strong bot as it was before the DDS-style solver.

The old bot (``benchmarks.baseline.old_bot``: the old card decision on the old compiled search) is
registered as the arena-only level ``strong-old`` in this process (and the worker processes it
forks); the product's levels (``ulti.bots.levels``) are not changed. Every other argument goes to ``ulti arena``:

    python -m benchmarks.arena_old_new --deals 200 --seed 7 --workers 2 --records ''

prints A = strong (new) and B = strong-old with A's 95% interval.
"""

from __future__ import annotations

import sys

from benchmarks.baseline import old_solver
from benchmarks.baseline.old_bot import OLD_LEVEL, register
from ulti.cli import main as cli_main


def main(argv: list[str]) -> int:
    """Run ``ulti arena --a strong --b strong-old`` with ``argv`` added."""
    old_solver()  # compile before forking workers
    register()
    return cli_main(["arena", "--a", "strong", "--b", OLD_LEVEL, *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
