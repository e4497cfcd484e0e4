"""The searching bots' speed (``make bench``): seconds per card decision and per auction decision, one core.

A fixed set of positions (fixed seeds): deals played by heuristic bots, every view in which a seat had
to play a card (the kontra steps are timed as card decisions, being decided at the same time) and
every auction view (discard and bid, take or pass). Every level that searches (``ulti.bots.levels``: the
ladder's rungs, the strong bot, the expert bot), then the expert without its reading of the unseen talon
(``read_talon=False``: what the reading costs, as the ratio of the two in this run), at their default
settings (a fixed number of worlds per decision; the time budgets are only safety stops, whose count is
printed) decide each once. Printed: median, p95 and max CPU seconds;
the card figures also for decisions with a real choice (at least two legal cards).

Then the declarer's opening lead in each contract family (``--leads`` declarer-friendly deals per
family: ``ulti.lab.positions.friendly_deals``), the strong bot on the same views with the same seeds, in
CPU seconds of this process (one core; on a shared machine the fair measure):

- **default settings**: the bot as it plays (32 worlds, the safety stop checked between worlds);
- **fixed work**: all 32 worlds whatever the time (the safety stop out of reach), so that the figure is
  the search's speed alone. These are the figures the targets are for (median <= 0.15 s, p95 <= 0.6 s
  per family).

In fixed work the bot also runs as the reference (``CardPlay.lazy = False``: every class of legal cards
solved exactly in every world), on the same views with the same seeds: printed are its figures, how many
of the bot's choices equal the reference's (all of them: the lazy ``CardTable`` proves the same choice),
and the work per decision (medians): worlds solved, (class, world) values solved exactly, and one-step
"is this class better here?" searches, against the reference's exact solves. A summary of the fixed-work
figures against the targets ends the run.

``--against COMMIT`` instead times the current bots against the bots of an earlier commit in the same
run: the tree of ``COMMIT`` is exported from git and its solver built (``benchmarks.git_tree``), and the
views of ``--deals`` heuristic deals are decided by ``strong`` and ``expert`` of each tree in turn, in
subprocesses (``benchmarks/decision_times.py``), ``--rounds`` times, the order alternating. Printed per
level and kind of decision (card decisions with two or more legal cards, auction decisions): the median
CPU seconds of each side over all rounds, and the ratio now / then; and how many actions agree (all of
them where the bots decide alike). Then the CPU seconds per deal per bot, per level and phase (auction:
bids, talon, trump, give-up; cards: kontra and card play; the whole deal): a deal's views are every seat's
decisions, each taken by the level's bot, so a deal's sum over 3 is what one bot of a table spends on it;
medians over the deals of every round that have the phase. A clone without the commit says so and skips
the comparison.

``--level NAME`` (repeatable) instead times only the named levels or laboratory configurations
(``ulti.lab.configs``, e.g. ``expert-v1``) on the same views, in the order given, with no leads.

    python -m benchmarks.bot_bench [--deals N] [--seed S] [--leads L]   # default 20 deals, 40 leads
    python -m benchmarks.bot_bench --against fca854b [--deals 6] [--rounds 4]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from benchmarks.cores import pin_to_one_core
from benchmarks.git_tree import ROOT, MissingCommit, tree_at
from ulti.bots.expert import expert_bot
from ulti.bots.levels import LEVELS, bot_for_level
from ulti.bots.solver import clear_table
from ulti.bots.strong import SearchBot, strong_bot
from ulti.bots.strong.play import CardWork
from ulti.engine.actions import Action
from ulti.engine.deal import Phase
from ulti.engine.view import SeatView
from ulti.lab.configs import bot_for
from ulti.lab.positions import lead_views, positions

TARGET_CARD_MEDIAN = 0.3
TARGET_CARD_P95 = 1.5
TARGET_AUCTION_MEDIAN = 1.0
TARGET_AUCTION_P95 = 3.0
TARGET_LEAD_MEDIAN = 0.15
TARGET_LEAD_P95 = 0.6
LEAD_CODES = ["M-S", "M-SU", "M-40", "M-20", "M-40UD", "H-S", "H-SU", "N-B", "N-D"]


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


def lead_times(views: list[SeatView], make: Callable[[random.Random], SearchBot]) -> LeadRun:
    """CPU seconds of each decision (a fresh bot per view, seeded by its index; the search's table
    emptied first, untimed, so that no decision reuses what an earlier run of the same view stored)."""
    run = LeadRun([], [], [])
    for i, view in enumerate(views):
        bot = make(random.Random(i))
        clear_table()
        start = time.process_time()
        action = bot.act(view)
        run.times.append(time.process_time() - start)
        run.actions.append(action)
        table = bot.play.last_table
        run.work.append(None if table is None else table.work())
    return run


def lead_report(code: str, mode: str, run: LeadRun) -> bool:
    """Print a family's lead figures; whether they meet the targets."""
    median, high = run.figures()
    ok = median <= TARGET_LEAD_MEDIAN and high <= TARGET_LEAD_P95
    print(f"  {code:7s} {mode:16s} median {median:6.3f} s  p95 {high:6.3f} s  {'ok' if ok else 'OVER TARGET'}")
    return ok


def _median_work(run: LeadRun, field: str) -> float:
    values = [getattr(w, field) for w in run.work if w is not None]
    return statistics.median(values) if values else 0.0


def reference_report(code: str, new: LeadRun, reference: LeadRun) -> None:
    """Print the reference (every class exactly in every world), the choices both make, and the work."""
    rm, rp = reference.figures()
    same = sum(a == b for a, b in zip(new.actions, reference.actions, strict=True))
    print(f"  {code:7s} {'reference':16s} (every class in every world) median {rm:6.3f} s p95 {rp:6.3f} s;"
          f" same choice as the bot {same}/{len(new.actions)};"
          f" per decision (medians): worlds {_median_work(new, 'worlds'):.0f},"
          f" exact solves {_median_work(new, 'exact'):.0f} + probes {_median_work(new, 'probes'):.0f}"
          f" (reference: {_median_work(reference, 'exact'):.0f} exact solves)")


def decision_report(name: str, bot: SearchBot, views: list[SeatView], args: argparse.Namespace) -> list[float]:
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



def searching_level(name: str, rng: random.Random) -> SearchBot:
    """The bot of level ``name``, a searching one (``decision_report`` reads its safety stops)."""
    bot = bot_for_level(name, rng)
    assert isinstance(bot, SearchBot)
    return bot


def versions_report(commit: str, args: argparse.Namespace) -> None:
    """Time ``strong`` and ``expert`` now and at ``commit`` on the same views, alternating, and print the
    medians and ratios (``--against``)."""
    try:
        old_tree = tree_at(commit)
    except MissingCommit as missing:
        print(f"Decision times against {commit}: skipped, {missing}")
        return
    levels = ("strong", "expert")
    views = positions(args.deals, args.seed)
    trees = {"then": old_tree, "now": ROOT}
    times: dict[tuple[str, str, str], list[float]] = {}
    by_round: dict[tuple[str, str, str, int], list[float]] = {}
    actions: dict[tuple[str, str], list[str]] = {}
    worker = ROOT / "benchmarks" / "decision_times.py"
    deal_of = deal_numbers(views)
    # per (side, level, phase, round, deal): the CPU seconds of the deal's decisions of that phase
    per_deal: dict[tuple[str, str, str, int, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        views_file = Path(tmp) / "views.json"
        views_file.write_text(json.dumps([view.to_json() for view in views]), encoding="utf-8")
        for round_ in range(args.rounds):
            for side in ("then", "now") if round_ % 2 == 0 else ("now", "then"):
                out = Path(tmp) / f"{side}-{round_}.json"
                command = [sys.executable, str(worker), str(views_file), str(out), "--seed", str(args.seed)]
                for level in levels:
                    command += ["--level", level]
                env = {**os.environ, "PYTHONPATH": str(trees[side])}
                subprocess.run(command, cwd=trees[side], env=env, check=True)
                for level, rows in json.loads(out.read_text(encoding="utf-8")).items():
                    for (kind, seconds, _), deal in zip(rows, deal_of, strict=True):
                        times.setdefault((side, level, kind), []).append(seconds)
                        by_round.setdefault((side, level, kind, round_), []).append(seconds)
                        phase = "cards" if kind in ("card", "forced") else "auction"
                        for key in ((side, level, phase, round_, deal), (side, level, "deal", round_, deal)):
                            per_deal[key] = per_deal.get(key, 0.0) + seconds
                    actions.setdefault((side, level), [action for _, _, action in rows])
    print(f"Decision times now and at {commit}, {args.deals} heuristic deals (seed {args.seed}), {len(views)} views,"
          f" {args.rounds} rounds alternating, one core, CPU seconds (medians over every round):")
    for level in levels:
        same = sum(a == b for a, b in zip(actions[("now", level)], actions[("then", level)], strict=True))
        print(f"  {level}: the same action on {same}/{len(views)} views")
        for kind, label in (("card", "card decisions (two or more legal cards)"), ("auction", "auction decisions")):
            now, then = times.get(("now", level, kind), []), times.get(("then", level, kind), [])
            if not now or not then:
                continue
            ratio = statistics.median(now) / statistics.median(then)
            verdict = "within 5%" if abs(ratio - 1) <= 0.05 else "MORE THAN 5% APART"
            medians = {(side, r): statistics.median(by_round[(side, level, kind, r)])
                       for side in trees for r in range(args.rounds)}
            per_round = [medians[("now", r)] / medians[("then", r)] for r in range(args.rounds)]
            rounds = " ".join(f"x{r:.3f}" for r in per_round)
            print(f"    {label:42s} n={len(now) // args.rounds:4d}  then {statistics.median(then):7.4f} s"
                  f"  now {statistics.median(now):7.4f} s  now/then x{ratio:.3f}  ({verdict}; per round {rounds})")
    deals = max(deal_of) + 1
    print(f"CPU seconds per deal per bot (a deal's decisions of every seat, the bot deciding each, over the 3 seats;"
          f" auction: bids, talon, trump, give-up; cards: kontra and card play), medians over {deals} deals x"
          f" {args.rounds} rounds (those with the phase), now and at {commit}:")
    for level in levels:
        for phase in ("auction", "cards", "deal"):
            sides = {
                # a deal without a phase (a deal passed out has no card play) is left out of its median
                side: [per_deal[(side, level, phase, r, d)] / 3 for r in range(args.rounds) for d in range(deals)
                       if (side, level, phase, r, d) in per_deal]
                for side in trees
            }
            before, after = statistics.median(sides["then"]), statistics.median(sides["now"])
            shown = f"x{after / before:.3f}" if before > 0 else "-"
            print(f"  {level:7s} {phase if phase != 'deal' else 'whole deal':10s} then {before:7.4f} s"
                  f"  now {after:7.4f} s  now/then {shown}")


def deal_numbers(views: list[SeatView]) -> list[int]:
    """The number of the deal each of ``views`` (``positions``: deal after deal) belongs to: a deal's log
    only grows, so a view whose log is shorter than the one before starts the next deal."""
    numbers: list[int] = []
    deal, last = 0, -1
    for view in views:
        if numbers and len(view.log) <= last:
            deal += 1
        numbers.append(deal)
        last = len(view.log)
    return numbers


def main() -> None:
    """Time the bots' decisions and the leads (or, with ``--against``, now against an earlier commit)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=None, help="heuristic deals whose positions are timed"
                        " (default 20; 6 with --against)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--leads", type=int, default=40, help="declarer-friendly deals per family for the leads")
    parser.add_argument("--against", default=None, help="a commit whose strong and expert bots are timed beside"
                        " today's")
    parser.add_argument("--rounds", type=int, default=4, help="with --against: alternating rounds of both sides")
    parser.add_argument("--level", action="append", default=None, metavar="NAME",
                        help="time only these levels or laboratory configurations (ulti.lab.configs), in the"
                             " order given, on the same views; no leads")
    args = parser.parse_args()
    pin_to_one_core()
    if args.level:
        args.deals = 20 if args.deals is None else args.deals
        views = positions(args.deals, args.seed)
        for name in args.level:
            bot = bot_for(name, random.Random(args.seed))
            assert isinstance(bot, SearchBot), f"{name} does not search: nothing to time"
            decision_report(name, bot, views, args)
        return
    if args.against is not None:
        args.deals = 6 if args.deals is None else args.deals
        versions_report(args.against, args)
        return
    args.deals = 20 if args.deals is None else args.deals
    views = positions(args.deals, args.seed)
    # every level that searches (the ladder's rungs, strong, expert), then the expert without its reading
    makers: list[tuple[str, Callable[[random.Random], SearchBot]]] = [
        (name.capitalize(), partial(searching_level, name)) for name, level in LEVELS.items() if level.searches
    ]
    makers.append(("Expert without the talon", partial(expert_bot, read_talon=False)))
    cards = {name: decision_report(name, make(random.Random(args.seed)), views, args) for name, make in makers}
    # what the expert's reading of the unseen talon costs, both sides timed in this run
    reading, blind = cards["Expert"], cards["Expert without the talon"]
    median_ratio = statistics.median(reading) / statistics.median(blind)
    print(f"Reading the talon, card decisions with a choice: median x{median_ratio:.2f},"
          f" p95 x{p95(reading) / p95(blind):.2f} (expert / expert without it, both timed in this run)")
    print(f"Declarer's opening lead, {args.leads} declarer-friendly deals per family, CPU seconds, the strong bot"
          f" (target median <= {TARGET_LEAD_MEDIAN} s, p95 <= {TARGET_LEAD_P95} s):")
    missed = 0
    fixed: dict[str, LeadRun] = {}
    for code in LEAD_CODES:
        views = lead_views(code, args.leads, args.seed)
        for mode, budget in (("default settings", None), ("fixed work", math.inf)):
            def make(rng: random.Random, budget: float | None = budget) -> SearchBot:
                return strong_bot(rng) if budget is None else strong_bot(rng, time_budget=budget)

            run = lead_times(views, make)
            missed += not lead_report(code, mode, run)
            if budget is not None:
                fixed[code] = run

                def make_reference(rng: random.Random) -> SearchBot:
                    bot = strong_bot(rng, time_budget=math.inf)
                    bot.play.lazy = False
                    return bot

                reference_report(code, run, lead_times(views, make_reference))
    print(f"Leads: {'every target met' if not missed else f'{missed} rows over target'}")
    print(f"What counts, the bot in fixed work (target median <= {TARGET_LEAD_MEDIAN} s,"
          f" p95 <= {TARGET_LEAD_P95} s):")
    for code, run in fixed.items():
        median, high = run.figures()
        ok = median <= TARGET_LEAD_MEDIAN and high <= TARGET_LEAD_P95
        print(f"  {code:7s} median {median:6.3f} s  p95 {high:6.3f} s  {'ok' if ok else 'OVER TARGET'}")


if __name__ == "__main__":
    main()
