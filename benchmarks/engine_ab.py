"""The engine of a git revision against the working tree's, alternated in one run (old against new).

    python -m benchmarks.engine_ab [REV] [--rounds N]

takes ``REV`` (default ``HEAD``) from git, built once (``benchmarks/git_tree.py``), and runs the same measurements of
``benchmarks.engine_bench`` in a fresh interpreter per round, old tree and new tree in turn (old, new,
new, old, ...), each pinned to one core. Alternating in one run puts both under the same load, which
is what a shared machine needs: a figure taken an hour apart says little. It prints each figure's
median over the rounds for both trees and new/old. The measurements use only the public ``Deal`` API,
so they run unchanged on both revisions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.git_tree import MissingCommit, tree_at

ROOT = Path(__file__).resolve().parent.parent

#: run in each tree: one round of each figure, printed as one JSON object
MEASURE = """
import json, time
from benchmarks import engine_bench as b
b.pin_to_one_core()
def rate(work):
    start = time.process_time()
    units = work()
    return units / (time.process_time() - start)
print(json.dumps({
    "card-play games/s": rate(lambda: b.card_play_games(1_500)),
    "complete deals/s": rate(lambda: b.complete_deals(300)),
    "complete deals/s, views": rate(lambda: b.complete_deals_with_views(100)),
    "wire views/s": b.wire_view_rate(60),
}))
"""


def measure(tree: Path) -> dict[str, float]:
    """One round of every figure with ``tree``'s ``ulti`` and benchmarks, in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", MEASURE], cwd=tree, env=env, check=True, capture_output=True, text=True
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    """Check ``REV`` out, alternate old and new ``--rounds`` times, print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD", help="the old revision (default HEAD)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds per tree (default 7)")
    args = parser.parse_args(argv)
    try:
        old = tree_at(args.rev)  # exported from git and built once (benchmarks/git_tree.py)
    except MissingCommit as exc:
        print(f"skipped: {exc}")
        return 0
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for i in range(args.rounds):
        order = [("old", old), ("new", ROOT)] if i % 2 == 0 else [("new", ROOT), ("old", old)]
        for name, tree in order:
            runs[name].append(measure(tree))
    print(f"old = {args.rev}, new = the working tree; medians of {args.rounds} alternated rounds, CPU time")
    for key in runs["new"][0]:
        before = statistics.median(r[key] for r in runs["old"])
        after = statistics.median(r[key] for r in runs["new"])
        print(f"{key:26} old {before:10,.0f}   new {after:10,.0f}   new/old {after / before:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
