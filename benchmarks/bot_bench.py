"""Strong and expert bot speed (``make bench``): seconds per card decision and per auction decision, one core.

A fixed set of positions (fixed seeds): deals played by heuristic bots, every view in which a seat had
to play a card (the kontra steps are timed as card decisions, being decided at the same time) and
every auction view (discard and bid, take or pass). The strong bot, then the expert bot, then the expert
without its reading of the unseen talon (``read_talon=False``: what the reading costs, as the ratio of the
two in this run), at their default settings (a fixed number of worlds per decision; the time budgets are
only safety stops, whose count is printed) decide each once. Printed: median, p95 and max CPU seconds;
the card figures also for decisions with a real choice (at least two legal cards).

Then the declarer's opening lead in each contract family (``--leads`` declarer-friendly deals per
family: ``ulti.lab.positions.friendly_deals``), the strong bot against the old strong bot
(``benchmarks.baseline.old_bot``: the old card decision on the old search) on the same views with the
same seeds, in CPU seconds of this process (one core; on a shared machine the fair measure):

- **default settings**: the bots as they play (32 worlds, the safety stop checked between worlds);
- **fixed work**: all 32 worlds whatever the time (the safety stop out of reach), so that old and new
  do the same work and the figure is the search's speed alone. These are the figures the targets are
  for (issue 13: median <= 0.15 s, p95 <= 0.6 s per family).

In fixed work the new bot also runs as the reference (``lazy_cards = False``: every class of legal cards
solved exactly in every world, the card decision before the lazy ``CardTable``), on the same views with
the same seeds: printed are its figures, how many of the new bot's choices equal the reference's (all
of them: the lazy table proves the same choice), and the work per decision (medians): worlds solved,
(class, world) values solved exactly, and one-step "is this class better here?" searches, against the
reference's exact solves. A summary of the fixed-work figures against the targets ends the run.

    python -m benchmarks.bot_bench [--deals N] [--seed S] [--leads L]   # default 20 deals, 40 leads
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from benchmarks.baseline import old_solver
from benchmarks.baseline.old_bot import OldStrongBot
from ulti.bots.expert import ExpertBot
from ulti.bots.solver import clear_table
from ulti.bots.strong import StrongBot
from ulti.bots.strong.play import CardWork
from ulti.engine.actions import Action
from ulti.engine.deal import Phase
from ulti.engine.view import SeatView
from ulti.lab.positions import lead_views, positions

TARGET_CARD_MEDIAN = 0.3
TARGET_CARD_P95 = 1.5
TARGET_AUCTION_MEDIAN = 1.0
TARGET_AUCTION_P95 = 3.0
TARGET_LEAD_MEDIAN = 0.15
TARGET_LEAD_P95 = 0.6
LEAD_CODES = ["M-S", "M-SU", "M-40", "M-20", "M-40UD", "H-S", "H-SU", "N-B", "N-D"]


def pin_to_one_core() -> None:
    """Run on one core so that figures compare across machines of this kind."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def p95(times: list[float]) -> float:
    """The 95th percentile of ``times``: the value below which 95% of them lie."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def report(label: str, times: list[float], median_target: float, p95_target: float) -> None:
    if not times:
        print(f"  {label:40s} (none)")
        return
    median, high = statistics.median(times), p95(times)
    verdict = "ok" if median <= median_target and high <= p95_target else "OVER TARGET"
    print(f"  {label:40s} n={len(times):4d}  median {median:6.3f} s  p95 {high:6.3f} s  max {max(times):6.3f} s"
          f"  (target median <= {median_target} s, p95 <= {p95_target} s: {verdict})")


@dataclass
class LeadRun:
    """One bot's decisions on a family's lead views: CPU seconds, actions, and each decision's work."""

    times: list[float]
    actions: list[Action]
    work: list[CardWork | None]

    def figures(self) -> tuple[float, float]:
        """Median and p95 of the times."""
        return statistics.median(self.times), p95(self.times)


def lead_times(views: list[SeatView], make: Callable[[random.Random], StrongBot]) -> LeadRun:
    """CPU seconds of each decision (a fresh bot per view, seeded by its index; the new search's table
    emptied first, untimed, so that no decision reuses what an earlier run of the same view stored)."""
    run = LeadRun([], [], [])
    for i, view in enumerate(views):
        bot = make(random.Random(i))
        clear_table()
        start = time.process_time()
        action = bot.act(view)
        run.times.append(time.process_time() - start)
        run.actions.append(action)
        table = bot.last_card_table
        run.work.append(None if table is None else table.work())
    return run


def lead_report(code: str, mode: str, old: LeadRun, new: LeadRun) -> bool:
    """Print old and new; whether the new figures meet the targets."""
    om, op = old.figures()
    nm, np_ = new.figures()
    ok = nm <= TARGET_LEAD_MEDIAN and np_ <= TARGET_LEAD_P95
    print(f"  {code:7s} {mode:16s} old median {om:6.3f} s p95 {op:6.3f} s   new median {nm:6.3f} s p95 {np_:6.3f} s"
          f"   old/new median x{om / max(nm, 1e-6):5.1f}  {'ok' if ok else 'OVER TARGET'}")
    return ok


def _median_work(run: LeadRun, field: str) -> float:
    values = [getattr(w, field) for w in run.work if w is not None]
    return statistics.median(values) if values else 0.0


def reference_report(code: str, new: LeadRun, reference: LeadRun) -> None:
    """Print the reference (every class exactly in every world), the choices both make, and the work."""
    rm, rp = reference.figures()
    same = sum(a == b for a, b in zip(new.actions, reference.actions, strict=True))
    print(f"  {code:7s} {'reference':16s} (every class in every world) median {rm:6.3f} s p95 {rp:6.3f} s;"
          f" same choice as the new bot {same}/{len(new.actions)};"
          f" per decision (medians): worlds {_median_work(new, 'worlds'):.0f},"
          f" exact solves {_median_work(new, 'exact'):.0f} + probes {_median_work(new, 'probes'):.0f}"
          f" (reference: {_median_work(reference, 'exact'):.0f} exact solves)")


def decision_report(name: str, bot: StrongBot, views: list[SeatView], args: argparse.Namespace) -> list[float]:
    """Time ``bot``'s decision on every view and print the figures by kind of decision; the times of its card
    decisions with a choice."""
    card_all: list[float] = []
    card_choice: list[float] = []
    auction: list[float] = []
    other: list[float] = []
    for view in views:
        # CPU seconds of this process: on a shared machine the load does not inflate them
        start = time.process_time()
        bot.act(view)
        elapsed = time.process_time() - start
        choices = view.choices
        if view.phase is Phase.AUCTION:
            auction.append(elapsed)
        elif view.phase is Phase.PLAY:
            card_all.append(elapsed)
            if choices is not None and choices.cards.bit_count() >= 2:
                card_choice.append(elapsed)
        else:
            other.append(elapsed)
    print(f"{name} bot (default settings), {args.deals} heuristic deals (seed {args.seed}), one core,"
          f" safety stops {bot.safety_stops}")
    report("card decisions (all)", card_all, TARGET_CARD_MEDIAN, TARGET_CARD_P95)
    report("card decisions (two or more legal cards)", card_choice, TARGET_CARD_MEDIAN, TARGET_CARD_P95)
    report("auction decisions (talon, discard, bid)", auction, TARGET_AUCTION_MEDIAN, TARGET_AUCTION_P95)
    report("trump / give-up decisions", other, TARGET_AUCTION_MEDIAN, TARGET_AUCTION_P95)
    return card_choice



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="heuristic deals whose positions are timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--leads", type=int, default=40, help="declarer-friendly deals per family for the leads")
    args = parser.parse_args()
    pin_to_one_core()
    old_solver()  # compiled before any timing
    views = positions(args.deals, args.seed)
    cards = {
        name: decision_report(name, make(random.Random(args.seed)), views, args)
        for name, make in (
            ("Strong", StrongBot),
            ("Expert", ExpertBot),
            ("Expert without the talon", partial(ExpertBot, read_talon=False)),
        )
    }
    # what the expert's reading of the unseen talon costs, both sides timed in this run
    reading, blind = cards["Expert"], cards["Expert without the talon"]
    median_ratio = statistics.median(reading) / statistics.median(blind)
    print(f"Reading the talon, card decisions with a choice: median x{median_ratio:.2f},"
          f" p95 x{p95(reading) / p95(blind):.2f} (expert / expert without it, both timed in this run)")
    print(f"Declarer's opening lead, {args.leads} declarer-friendly deals per family, CPU seconds, old bot / new bot"
          f" (target new median <= {TARGET_LEAD_MEDIAN} s, p95 <= {TARGET_LEAD_P95} s):")
    missed = 0
    fixed: dict[str, LeadRun] = {}
    for code in LEAD_CODES:
        views = lead_views(code, args.leads, args.seed)
        for mode, budget in (("default settings", None), ("fixed work", math.inf)):
            def make_old(rng: random.Random, budget: float | None = budget) -> StrongBot:
                return OldStrongBot(rng) if budget is None else OldStrongBot(rng, time_budget=budget)

            def make_new(rng: random.Random, budget: float | None = budget) -> StrongBot:
                return StrongBot(rng) if budget is None else StrongBot(rng, time_budget=budget)

            new = lead_times(views, make_new)
            missed += not lead_report(code, mode, lead_times(views, make_old), new)
            if budget is not None:
                fixed[code] = new

                def make_reference(rng: random.Random) -> StrongBot:
                    bot = StrongBot(rng, time_budget=math.inf)
                    bot.lazy_cards = False
                    return bot

                reference_report(code, new, lead_times(views, make_reference))
    print(f"Leads: {'every target met' if not missed else f'{missed} rows over target'}")
    print(f"What counts, the new bot in fixed work (target median <= {TARGET_LEAD_MEDIAN} s,"
          f" p95 <= {TARGET_LEAD_P95} s):")
    for code, run in fixed.items():
        median, high = run.figures()
        ok = median <= TARGET_LEAD_MEDIAN and high <= TARGET_LEAD_P95
        print(f"  {code:7s} median {median:6.3f} s  p95 {high:6.3f} s  {'ok' if ok else 'OVER TARGET'}")


if __name__ == "__main__":
    main()
