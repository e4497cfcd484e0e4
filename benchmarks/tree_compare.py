"""Engine speed of two source trees, old against new, in alternating runs (medians of per-pair ratios).

``python -m benchmarks.tree_compare OLD_TREE NEW_TREE [--pairs 6]`` runs, in a fresh subprocess per tree
and per pair (the trees' ``ulti`` packages cannot share a process), three figures on one core: complete
random deals/s through ``Deal.apply``, complete deals with each decision taken from a freshly built seat
view, and ``Deal.view`` calls/s (three seats and a spectator after every action, only the calls timed).
Each pair alternates which tree runs first, so a busy machine weighs on both alike. An old tree is a
checkout of an earlier commit (``git worktree add /tmp/old 3aac296``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

WORKLOADS = r'''
import os, random, time
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
from ulti.bots.random_bot import RandomBot, random_legal_action
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands

def complete(n, seed=2):
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while not deal.is_over:
            deal.apply(random_legal_action(deal, rng))
    return n / (time.perf_counter() - start)

def with_views(n, seed=2):
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + s)) for s in range(3)]
    start = time.perf_counter()
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while not deal.is_over:
            seat = deal.to_move
            view = deal.seat_view(seat) if hasattr(deal, "seat_view") else deal.view(seat)
            deal.apply(bots[seat].act(view))
    return n / (time.perf_counter() - start)

def wire(n, seed=5):
    rng = random.Random(seed)
    views, spent = 0, 0.0
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while True:
            start = time.perf_counter()
            for viewer in (None, 0, 1, 2):
                deal.view(viewer)
            spent += time.perf_counter() - start
            views += 4
            if deal.is_over:
                break
            deal.apply(random_legal_action(deal, rng))
    return views / spent

print(*(max(fn(n) for _ in range(3)) for fn, n in ((complete, 300), (with_views, 120), (wire, 80))))
'''

FIGURES = ("complete deals/s", "deals/s, a view per decision", "Deal.view calls/s")


def run(tree: str) -> list[float]:
    """The three figures of ``tree`` (best of three short runs each)."""
    out = subprocess.run(
        [sys.executable, "-c", WORKLOADS], cwd="/", env={"PYTHONPATH": tree}, capture_output=True, text=True,
        check=True,
    )
    return [float(x) for x in out.stdout.split()]


def main() -> None:
    """Print each pair's figures and the median new/old ratio of each figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--pairs", type=int, default=6)
    args = parser.parse_args()
    ratios: list[list[float]] = [[] for _ in FIGURES]
    for pair in range(args.pairs):
        order = ("old", "new") if pair % 2 == 0 else ("new", "old")
        got = {name: run(args.old if name == "old" else args.new) for name in order}
        for i in range(len(FIGURES)):
            ratios[i].append(got["new"][i] / got["old"][i])
        print(f"pair {pair}: old {[round(x) for x in got['old']]}  new {[round(x) for x in got['new']]}", flush=True)
    for name, values in zip(FIGURES, ratios, strict=True):
        spread = ", ".join(f"{r:.2f}" for r in values)
        print(f"{name:30s} new/old median {statistics.median(values):.3f}  ({spread})")


if __name__ == "__main__":
    main()
