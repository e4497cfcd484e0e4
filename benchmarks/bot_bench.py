"""Strong bot speed (``make bench``): seconds per card decision and per auction decision, one core.

A fixed set of positions (fixed seeds): deals played by heuristic bots, every view in which a seat had
to play a card (the kontra steps are timed as card decisions, being decided at the same time) and
every auction view (discard and bid, take or pass). The strong bot at its default settings decides
each once. Printed: median, p95 and max seconds; the card figures also for decisions with a real
choice (at least two legal cards).

    python -m benchmarks.bot_bench [--deals N] [--seed S]   # default 20 deals
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.strong import StrongBot
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.view import SeatView

TARGET_CARD_MEDIAN = 0.3
TARGET_CARD_P95 = 1.5
TARGET_AUCTION_MEDIAN = 1.0
TARGET_AUCTION_P95 = 3.0


def pin_to_one_core() -> None:
    """Run on one core so that figures compare across machines of this kind."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def positions(deals: int, seed: int) -> list[SeatView]:
    """Every view of ``deals`` heuristic deals in which the seat on turn had a decision."""
    rng = random.Random(seed)
    views = []
    for number in range(deals):
        dealer = number % 3
        deal = Deal(deal_hands(rng, dealer), dealer)
        bots = [HeuristicBot(random.Random(f"{seed}:{number}:{s}")) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_move
            view = deal.seat_view(seat)
            views.append(view)
            deal.apply(bots[seat].act(view))
    return views


def report(label: str, times: list[float], median_target: float, p95_target: float) -> None:
    if not times:
        print(f"  {label:40s} (none)")
        return
    times = sorted(times)
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    verdict = "ok" if median <= median_target and p95 <= p95_target else "OVER TARGET"
    print(f"  {label:40s} n={len(times):4d}  median {median:6.3f} s  p95 {p95:6.3f} s  max {times[-1]:6.3f} s"
          f"  (target median <= {median_target} s, p95 <= {p95_target} s: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="heuristic deals whose positions are timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pin_to_one_core()
    views = positions(args.deals, args.seed)
    bot = StrongBot(random.Random(args.seed))
    card_all: list[float] = []
    card_choice: list[float] = []
    auction: list[float] = []
    other: list[float] = []
    for view in views:
        start = time.perf_counter()
        bot.act(view)
        elapsed = time.perf_counter() - start
        choices = view.choices
        if view.phase is Phase.AUCTION:
            auction.append(elapsed)
        elif view.phase is Phase.PLAY:
            card_all.append(elapsed)
            if choices is not None and choices.cards.bit_count() >= 2:
                card_choice.append(elapsed)
        else:
            other.append(elapsed)
    print(f"Strong bot (default settings), {args.deals} heuristic deals (seed {args.seed}), one core")
    report("card decisions (all)", card_all, TARGET_CARD_MEDIAN, TARGET_CARD_P95)
    report("card decisions (two or more legal cards)", card_choice, TARGET_CARD_MEDIAN, TARGET_CARD_P95)
    report("auction decisions (talon, discard, bid)", auction, TARGET_AUCTION_MEDIAN, TARGET_AUCTION_P95)
    report("trump / give-up decisions", other, TARGET_AUCTION_MEDIAN, TARGET_AUCTION_P95)


if __name__ == "__main__":
    main()
