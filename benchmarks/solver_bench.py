"""Double-dummy solver speed (``make bench``): full 10-trick solves from the start of play, one core.

Deal sets (fixed seeds), ``--deals`` per family:

- **uniform**: random deals; the declarer is the seat (and, for minor-suit bids, the trump suit) that
  suits the bid best;
- **declarer-friendly**: the declarer's 12 cards are dealt until they make a hand the strong bot would
  bid the contract with (after its best discard: the bid among its plausible bids, and a declarer
  likelihood of at least one half; for a betli, low cards); the defenders share the other 20.

Printed per family and set: median, p95 and nodes per solve for the value (``best_cards=False``) and
for the best card (``best_cards=True``) against the targets; then the whole contract's value
(``Objective.CONTRACT``), what each technique of the search saves in nodes, and the peak memory of a
solving process. The search's table is emptied (untimed) before
every solve: each figure is a cold solve. Times are CPU time of this process (pinned to one core): on a
machine shared with other work that is the fair measure of one core.

    python -m benchmarks.solver_bench [--deals N] [--seed S]   # default 200 deals per family
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import ulti.bots.solver._dd as dd
from benchmarks.cores import pin_to_one_core
from ulti.bots.solver import Objective, Position, clear_table, solve, table_bytes
from ulti.engine.cards import ACE, KING, QUEEN, SEVEN, TEN, CardSet, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE, Bid
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import counting_marriages, marriages_of
from ulti.lab.positions import friendly_deals

TARGET_VALUE_MEDIAN_MS = 0.5
TARGET_BEST_MEDIAN_MS = 1.0


def _suit(hand: CardSet, suit: int) -> list[int]:
    return [c & 7 for c in iter_cards(hand) if c >> 3 == suit]


def _trump_strength(hand: CardSet, suit: int) -> int:
    trumps = _suit(hand, suit)
    aces_tens = sum(1 for c in iter_cards(hand) if c & 7 in (ACE, TEN))
    return 3 * len(trumps) + aces_tens


def _has_pair(hand: CardSet, suit: int) -> bool:
    return hand >> (suit * 8 + KING) & 1 == 1 and hand >> (suit * 8 + QUEEN) & 1 == 1


def choose(code: str, hands: list[CardSet]) -> tuple[int, int] | None:
    """(declarer, trump) that suit ``code`` best in ``hands``, or None when no seat fits."""
    bid = BIDS_BY_CODE[code]
    options: list[tuple[int, int, int]] = []  # (score, seat, trump)
    for seat, hand in enumerate(hands):
        if not bid.has_trumps:
            high = sum(c & 7 for c in iter_cards(hand))
            options.append((-high if code == "N-B" else high, seat, NO_TRUMP))
            continue
        suits = (3,) if bid.is_hearts else (0, 1, 2)
        for suit in suits:
            if "U" in code[2:] and not hand >> (suit * 8 + SEVEN) & 1:
                continue
            if "40" in code and not _has_pair(hand, suit):
                continue
            if "20" in code and not any(_has_pair(hand, s) for s in range(4) if s != suit):
                continue
            options.append((_trump_strength(hand, suit), seat, suit))
    if not options:
        return None
    _, seat, trump = max(options)
    return seat, trump


def deals(code: str, n: int, seed: int) -> list[Position]:
    """``n`` start-of-play positions for ``code``, uniform set (fixed seed)."""
    rng = random.Random(f"{seed}-{code}")
    bid = BIDS_BY_CODE[code]
    out: list[Position] = []
    while len(out) < n:
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[i * 10 : (i + 1) * 10]) for i in range(3)]
        talon = (1 << cards[30]) | (1 << cards[31])
        chosen = choose(code, hands)
        if chosen is None:
            continue
        declarer, trump = chosen
        out.append(Position.start(hands, declarer, bid, trump, talon))
    return out


def simple_game_threshold(position: Position) -> Objective:
    """The Simple game as a points objective: the declarer's total that beats the defenders'
    (when both sides take a trick): more than half of 90 plus all counting marriages."""
    bid: Bid = position.bid
    marriages = [
        counting_marriages(bid, s == position.declarer, *marriages_of(position.start_hands[s], position.trump))
        for s in range(3)
    ]
    total = 90 + sum(marriages)
    return Objective.points((total + 10) // 2, marriages[position.declarer])


ObjectiveOf = Callable[[Position], Objective]

# (label, bid code, objective for a position)
WIN_LOSE: list[tuple[str, str, ObjectiveOf]] = [
    ("simple game (M-S, points)", "M-S", simple_game_threshold),
    ("ulti (M-SU)", "M-SU", lambda p: Objective.ULTI),
    ("betli (N-B)", "N-B", lambda p: Objective.BETLI),
    ("durchmars (N-D)", "N-D", lambda p: Objective.DURCHMARS),
    ("durchmars (M-40UD)", "M-40UD", lambda p: Objective.DURCHMARS),
]
CONTRACT_CODES = ["M-S", "M-SU", "M-40", "M-20", "M-40UD", "H-S", "H-SU", "N-B", "N-D"]
SETS: dict[str, Callable[[str, int, int], list[Position]]] = {"uniform": deals, "friendly": friendly_deals}


def measure(positions: list[Position], objective_of: ObjectiveOf, best: bool) -> tuple[list[float], float]:
    """Milliseconds per solve (each a cold solve) and mean nodes per solve."""
    times = []
    nodes = 0
    for position in positions:
        objective = objective_of(position)
        clear_table()
        start = time.process_time()
        result = solve(position, objective, best_cards=best)
        times.append((time.process_time() - start) * 1000)
        nodes += result.nodes
    return times, nodes / len(positions)


def stats(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def figure(label: str, positions: list[Position], objective_of: ObjectiveOf, best: bool, target: float | None) -> bool:
    """Print the figures on ``positions``; whether the median meets ``target`` (ms)."""
    times, nodes = measure(positions, objective_of, best)
    median, high = stats(times)
    ok = target is None or median <= target
    verdict = "" if target is None else ("  ok" if ok else f"  OVER {target} ms")
    print(f"  {label:44s} {median:7.3f} / {high:7.3f} ms {nodes:8.0f} n{verdict}")
    return ok


def technique_nodes(positions: list[Position], objective_of: ObjectiveOf, best: bool) -> Iterator[tuple[str, float]]:
    """Mean nodes per solve with the search's defaults, then with each technique switched over in turn
    (killer moves are off by default: measured here, they cost nodes)."""
    for name, change in (("defaults", {}), ("absolute keys", {"relative": False}), ("killers on", {"killers": True}),
                         ("no lead ordering", {"lead_order": False}), ("no sure outcomes", {"sure": False})):
        dd.set_options(**change)
        try:
            _, nodes = measure(positions, objective_of, best)
        finally:
            dd.set_options()
        yield name, nodes


_MEMORY_PROBE = """
import sys
from benchmarks.solver_bench import deals
from ulti.bots.solver import Objective, solve
def peak():  # the high-water mark of this process's resident memory, KiB (a fresh count after exec)
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM"))
positions = deals("M-S", 20, 1)
before = peak()
for p in positions:
    solve(p, Objective.CONTRACT)
print(before, peak())
"""


def peak_memory_kib() -> tuple[int, int]:
    """A fresh process's peak resident memory before and after 20 whole-contract solves (KiB)."""
    out = subprocess.run([sys.executable, "-c", _MEMORY_PROBE], check=True, capture_output=True, text=True)
    before, after = out.stdout.split()[-2:]
    return int(before), int(after)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="deals per family and set (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pin_to_one_core()
    solve(deals("M-S", 1, 0)[0], Objective.CONTRACT)  # warm, untimed
    print(f"Solver: full 10-trick solves from trick 1, {args.deals} deals per family and set, one core"
          " (median / p95, mean nodes per solve)")
    sets = {name: {code: make(code, args.deals, args.seed) for code in {c for _, c, _ in WIN_LOSE}}
            for name, make in SETS.items()}
    misses = 0
    for best, target in ((False, TARGET_VALUE_MEDIAN_MS), (True, TARGET_BEST_MEDIAN_MS)):
        what = "best card (best_cards=True)" if best else "value (best_cards=False)"
        print(f"Win/lose objectives, {what}; target median <= {target} ms:")
        for name in SETS:
            for label, code, objective_of in WIN_LOSE:
                misses += not figure(f"{label}, {name}", sets[name][code], objective_of, best, target)
    print("Whole-contract value (Objective.CONTRACT), uniform set, value only, then with the best cards:")
    for best in (False, True):
        for code in CONTRACT_CODES if not best else ["M-S", "M-SU", "H-SU", "N-B"]:
            positions = deals(code, args.deals, args.seed)
            figure(f"{code}{' best card' if best else ''}", positions, lambda p: Objective.CONTRACT, best, None)
    print("What each technique saves (mean nodes per solve, value and best card):")
    for label, code, objective_of, set_name in (
        ("simple game (M-S, points)", "M-S", simple_game_threshold, "uniform"),
        ("ulti (M-SU)", "M-SU", lambda p: Objective.ULTI, "uniform"),
        ("betli (N-B)", "N-B", lambda p: Objective.BETLI, "friendly"),
        ("contract M-S", "M-S", lambda p: Objective.CONTRACT, "uniform"),
    ):
        positions = sets[set_name].get(code) or deals(code, args.deals, args.seed)
        figures = "  ".join(f"{name} {nodes:,.0f}" for name, nodes in technique_nodes(positions, objective_of, True))
        print(f"  {label + ', ' + set_name:40s} {figures}")
    print(f"Transposition table: {table_bytes() / 2**20:.0f} MiB now (grows by need from 2 MiB to at most 8 MiB)")
    before, after = peak_memory_kib()
    print(f"Peak memory of a process solving 20 whole contracts: {after / 1024:.1f} MiB"
          f" (+{(after - before) / 1024:.1f} MiB for solving)")
    print(f"Targets: {'all solver medians met' if not misses else f'{misses} solver medians over target'}")


if __name__ == "__main__":
    main()
