"""Puzzle cutting speed (``make bench``), one core: puzzles generated per CPU-minute from self-play records,
and the share of card decisions kept as puzzles.

Records: deals played by heuristic bots from fixed seeds (the bots' own play, as the shipped set is cut
from; each deal played once). Each record is cut as ``ulti puzzles generate`` cuts it (``cut_record``);
the figures are CPU time (``time.process_time``), so a shared machine's load moves them little.

    python -m benchmarks.puzzle_bench [--deals N] [--seed S]

``--survey [FILE]`` prints instead what a set holds (the shipped set by default): its puzzles per theme,
phase, rating band and number of moves, and the share each bot level of ``--levels`` (heuristic and
strong by default) solves from the seat's view (``ulti.puzzles.survey``):

    python -m benchmarks.puzzle_bench --survey [FILE] [--levels heuristic,strong,expert]
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from pathlib import Path

from benchmarks.cores import pin_to_one_core
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.levels import bot_for_level
from ulti.bots.selfplay import play_deal
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_to_record
from ulti.puzzles.cut import CutStats, cut_record
from ulti.puzzles.shipped import SHIPPED, load
from ulti.puzzles.survey import BANDS, count, solved_share


def self_play_records(deals: int, seed: int) -> list[dict[str, object]]:
    """``deals`` records of heuristic bots' play from ``seed``."""
    rng = random.Random(seed)
    out = []
    for k in range(deals):
        deal = Deal(deal_hands(rng, dealer=k % 3), dealer=k % 3)
        play_deal(deal, [HeuristicBot(random.Random(seed * 1000 + k * 3 + s)) for s in range(3)])
        out.append(deal_to_record(deal))
    return out


def survey(path: Path, levels: list[str], seed: int) -> None:
    """Print the set's counts per theme, phase, rating band and moves, and the share each level solves."""
    puzzles = load(path)
    counts = count(puzzles)
    print(f"puzzle set {path.name}: {counts.total} puzzles")
    print("  per theme (a puzzle may have several):")
    for theme, n in counts.themes.most_common():
        print(f"    {n:5d}  {theme}")
    print("  per phase:  " + ", ".join(f"{name} {counts.phases[name]}" for name in ("early", "middle", "endgame")))
    print("  per rating band:  " + ", ".join(f"{name} {counts.bands[name]}" for name, _, _ in BANDS))
    print("  per number of moves:  " + ", ".join(f"{m}: {n}" for m, n in sorted(counts.moves.items())))
    for level in levels:
        start = time.process_time()
        solved, by_theme = solved_share(puzzles, functools.partial(bot_for_level, level), seed)
        cpu = time.process_time() - start
        themes = ", ".join(f"{t} {by_theme[t]}/{counts.themes[t]}" for t, _ in counts.themes.most_common())
        print(f"  {level} bot solves {solved}/{counts.total} ({100.0 * solved / counts.total:.1f}%) in {cpu:.1f} s CPU;"
              f" per theme: {themes}")


def main() -> None:
    """Print puzzles per CPU-minute and the share of positions kept (or, with ``--survey``, a set's survey)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--survey", nargs="?", const=str(SHIPPED), default=None, metavar="FILE",
                        help="survey a puzzle set (the shipped one without FILE) instead of timing the cut")
    parser.add_argument("--levels", default="heuristic,strong", help="the bot levels the survey tries")
    args = parser.parse_args()
    if args.survey is not None:
        survey(Path(args.survey), [name for name in args.levels.split(",") if name], args.seed)
        return
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
