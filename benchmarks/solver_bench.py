"""Double-dummy solver speed (``make bench``): full 10-trick solves from the start of play, one core.

For each contract family, a fixed set of random deals (fixed seeds) with a plausible contract: the
declarer is the seat (and, for minor-suit bids, the trump suit) that suits the bid best. Printed
per family: median, p95 and max milliseconds per solve and nodes per second, for the win/lose
objectives and for the whole contract's value (``Objective.CONTRACT``), value only
(``best_cards=False``), and the contract value with the best cards too.

    python -m benchmarks.solver_bench [--deals N]   # default 200 deals per family
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from ulti.bots.solver import Objective, Position, solve
from ulti.engine.cards import ACE, KING, QUEEN, SEVEN, TEN, CardSet, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE, Bid
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import counting_marriages, marriages_of

TARGET_WIN_LOSE_MEDIAN_MS = 1.0
TARGET_CONTRACT_MEDIAN_MS = 10.0
TARGET_CONTRACT_P95_MS = 50.0


def pin_to_one_core() -> None:
    """Run on one core so that figures compare across machines of this kind."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


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
    """``n`` start-of-play positions for ``code`` (fixed seed)."""
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


# (label, bid code, objective for a position); win/lose first, then whole-contract values
WIN_LOSE: list[tuple[str, str, Callable[[Position], Objective]]] = [
    ("ulti (M-SU)", "M-SU", lambda p: Objective.ULTI),
    ("betli (N-B)", "N-B", lambda p: Objective.BETLI),
    ("simple game (M-S, points)", "M-S", simple_game_threshold),
    ("durchmars (N-D)", "N-D", lambda p: Objective.DURCHMARS),
    ("durchmars (M-40UD)", "M-40UD", lambda p: Objective.DURCHMARS),
]
CONTRACT_CODES = ["M-S", "M-SU", "M-40", "M-20", "M-40UD", "H-S", "H-SU", "N-B", "N-D"]


def measure(positions: list[Position], objective_of: Callable[[Position], Objective], best: bool) -> tuple[
    list[float], int, float
]:
    times = []
    nodes = 0
    for position in positions:
        objective = objective_of(position)
        start = time.perf_counter()
        result = solve(position, objective, best_cards=best)
        times.append((time.perf_counter() - start) * 1000)
        nodes += result.nodes
    return times, nodes, sum(times) / 1000


def report(label: str, times: list[float], nodes: int, seconds: float) -> tuple[float, float]:
    per_solve = nodes / len(times)
    times = sorted(times)
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    rate = nodes / seconds / 1e6 if seconds else 0.0
    print(f"  {label:34s} median {median:7.3f} ms  p95 {p95:7.3f} ms  max {times[-1]:8.3f} ms  {rate:5.1f} M nodes/s"
          f"  {per_solve:9.0f} nodes/solve")
    return median, p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="deals per contract family (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pin_to_one_core()
    solve(deals("M-S", 1, 0)[0], Objective.CONTRACT)  # allocate the transposition table
    print(f"Solver: full 10-trick solves from trick 1, {args.deals} deals per family, one core")
    print(f"Win/lose objectives (value only; target median <= {TARGET_WIN_LOSE_MEDIAN_MS} ms):")
    for label, code, objective_of in WIN_LOSE:
        positions = deals(code, args.deals, args.seed)
        report(label, *measure(positions, objective_of, best=False))
    print(
        f"Whole-contract value (Objective.CONTRACT, value only; target median <= {TARGET_CONTRACT_MEDIAN_MS} ms,"
        f" p95 <= {TARGET_CONTRACT_P95_MS} ms):"
    )
    all_times: list[float] = []
    all_nodes, all_seconds = 0, 0.0
    for code in CONTRACT_CODES:
        positions = deals(code, args.deals, args.seed)
        times, nodes, seconds = measure(positions, lambda p: Objective.CONTRACT, best=False)
        report(code, times, nodes, seconds)
        all_times += times
        all_nodes += nodes
        all_seconds += seconds
    report("all contracts", all_times, all_nodes, all_seconds)
    print("Whole-contract value with the set of best cards (best_cards=True):")
    for code in ("M-S", "M-SU", "H-SU"):
        positions = deals(code, args.deals, args.seed)
        report(code, *measure(positions, lambda p: Objective.CONTRACT, best=True))


if __name__ == "__main__":
    main()
