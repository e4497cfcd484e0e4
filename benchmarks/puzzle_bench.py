"""Puzzle cutting speed (``make bench``), one core: puzzles generated per CPU-minute from self-play records,
and the share of card decisions kept as puzzles.

Records: deals played by heuristic bots from fixed seeds (the bots' own play, as the shipped set is cut
from; each deal played once). Each record is cut as ``ulti puzzles generate`` cuts it (``cut_record``);
the figures are CPU time (``time.process_time``), so a shared machine's load moves them little.

    python -m benchmarks.puzzle_bench [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from benchmarks.cores import pin_to_one_core
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.selfplay import play_deal
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_to_record
from ulti.puzzles.cut import CutStats, cut_record


def self_play_records(deals: int, seed: int) -> list[dict[str, object]]:
    """``deals`` records of heuristic bots' play from ``seed``."""
    rng = random.Random(seed)
    out = []
    for k in range(deals):
        deal = Deal(deal_hands(rng, dealer=k % 3), dealer=k % 3)
        play_deal(deal, [HeuristicBot(random.Random(seed * 1000 + k * 3 + s)) for s in range(3)])
        out.append(deal_to_record(deal))
    return out


def main() -> None:
    """Print puzzles per CPU-minute and the share of positions kept."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    pin_to_one_core()
    records = self_play_records(args.deals, args.seed)
    stats = CutStats()
    puzzles = 0
    start = time.process_time()
    for record in records:
        puzzles += len(cut_record(record, stats=stats))
    cpu = time.process_time() - start
    share = 100.0 * stats.kept / stats.positions if stats.positions else 0.0
    print(f"puzzles: {len(records)} self-play deals, {stats.positions} card decisions judged, {puzzles} puzzles"
          f" ({share:.2f}% of positions kept) in {cpu:.1f} s CPU")
    print(f"puzzles: {60.0 * puzzles / cpu:.1f} puzzles per CPU-minute,"
          f" {len(records) / cpu:.1f} records per CPU-second")
    for reason, n in stats.reasons.most_common():
        print(f"  {n:7d}  {reason}")


if __name__ == "__main__":
    main()
