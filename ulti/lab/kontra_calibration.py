"""Kontra steps against their outcome: how well a searching bot's value of a kontra step foretells what the
step brings once the deal is played out (the calibration the bots' kontra judgement is measured by).

Deals are played by ``--level`` bots (auction, kontra chain and cards) or replayed from an arena's records
(``--records``). At every kontra decision along them (a defender before its first card, either side in
the chain after trick 1), a fresh bot of ``--judge`` (default: the level itself) values each part it may
raise there: the gain it predicts for the deciding seat (its ``step_gain`` part over its worlds, each
solved double-dummy) and the part's stake (its value at its multiplier before the step). When the deal
ends, the part's result gives the step's **realised** value: what the step adds to the seat's side with
the part's outcome as played, the rest of the chain as it stands (+1 stake won, -1 lost). All in stakes.

Printed per step and contract family (and per part): decisions, the share the judge would raise and the
share the players did, the mean predicted and realised values and their difference (the bias, with its 95%
interval: above zero, the bot thinks its raises better than they are); for the steps the players said,
what they brought alone (with its 95% interval) and with the chain that followed (a raise answered is
doubled again: a step that pays has both above zero); a calibration table by predicted value; and how far
the deals' chains went. ``--dump FILE`` also writes every step, one JSON object a line (what
``ulti.lab.step_fit`` fits the expert's calibrated step values to).

    python -m ulti.lab.kontra_calibration [--level strong] [--judge LEVEL] [--deals N] [--seed S]
                                          [--records FILE] [--dump FILE] [--workers W]

The deals are played, then judged, each deal alone (``--workers`` processes): every bot and judge draws
from a seed of its deal and decision, so the figures do not depend on the number of workers.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from itertools import accumulate
from typing import Any

from ulti.bots.families import family
from ulti.bots.interface import seat_and_choices
from ulti.bots.sampling import analyse
from ulti.bots.strong import SearchBot
from ulti.bots.strong.play import StepEstimate
from ulti.engine.actions import Action, Kind
from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.lab.arena import summarise
from ulti.lab.configs import bot_for
from ulti.lab.played_deals import add_deal_options, dealt, mapped, play_out, recorded_deals

#: the calibration table's rows: predicted value in stakes from each bound up to the next
BUCKETS = (-1.0, -0.5, 0.0, 0.25, 0.5, 0.75)


@dataclass(frozen=True)
class Step:
    """One part of one kontra decision, valued by the judge and settled by the deal's result."""

    seat: int
    part: Part
    step: str
    family: str
    predicted: float  # the judge's gain for the seat, in stakes
    realised: float  # what the step adds with the part's outcome as played, in stakes
    judged_raise: bool  # whether the judge raises it
    said: bool  # whether the player at the table raised it
    with_chain: float  # what the step brought with the chain that followed it, in stakes (said steps)
    deal: int = 0  # the deal's number along the run (a step's answer is a later step of the same deal)


@dataclass
class _Asked:
    """A decision valued, waiting for its deal to end: where in the deal's history it was taken."""

    at: int
    estimates: list[StepEstimate]


def make_judge(level: str, seed: str) -> SearchBot:
    """A bot of ``level`` drawing from ``seed``; it must search (only a searching bot values a kontra step)."""
    judge = bot_for(level, random.Random(seed))
    if not isinstance(judge, SearchBot):
        raise ValueError(f"--judge {level!r} is not a searching bot: it values no kontra step")
    return judge


def judge_decision(deal: Deal, make_judge: Callable[[], SearchBot]) -> list[StepEstimate] | None:
    """The value of each part the seat on turn may raise now, by a judge ``make_judge`` makes (None: no
    kontra decision here)."""
    seat = deal.to_move
    if seat is None:  # the deal is over
        return None
    view = deal.seat_view(seat)
    _, ch = seat_and_choices(view)
    if ch.kontra is None:
        return None
    last = view.log[-1] if view.log else None
    if last is not None and last.seat == seat and last.action is Kind.KONTRA and ch.cards:
        return None  # declined already: the card that follows is the same decision (as the bot acts)
    estimates: list[StepEstimate] = []
    judge = make_judge()
    judge.play.on_step = estimates.append
    try:
        judge.play.kontra(view, analyse(view), ch)
    finally:
        judge.play.on_step = None
    return estimates


def settle(deal: Deal, asked: Iterable[_Asked], number: int = 0) -> Iterator[Step]:
    """The steps of a finished ``deal`` (the run's ``number``-th) decisions, each settled by the part's
    result."""
    result = deal.result
    if result is None or result.given_up:
        return
    outcome = {p.part: p for p in result.parts}
    kind = family(result.bid)
    for decision in asked:
        action = deal.history[decision.at]
        said_parts = (action.parts or ()) if action.kind is Kind.KONTRA else ()
        for est in decision.estimates:
            part = outcome.get(est.part)
            if part is None or est.stake <= 0 or not math.isfinite(est.gain):
                continue  # a step the judge's rule refuses outright (the expert's answer to a rekontra) has no value
            sign = 1 if est.seat == result.declarer else -1
            at_step = sign * part.per_defender * est.multiplier / part.multiplier  # the chain stopped before it
            said = est.part in said_parts
            yield Step(
                est.seat,
                est.part,
                est.step,
                kind,
                est.gain / est.stake,
                at_step / est.stake,
                est.raised,
                said,
                (sign * part.per_defender - at_step) / est.stake if said else 0.0,
                number,
            )


#: A deal of the run: as dealt (no action yet), and the actions it was played with to its end.
PlayedDeal = tuple[Deal, list[Action]]


def judge_deal(played: PlayedDeal, judge_level: str, seed: int, first: int) -> tuple[list[_Asked], Deal]:
    """Every kontra decision along one played deal valued by a fresh ``judge_level`` bot, and the deal at its
    end. ``first``: the run's number of the deal's first decision point (its judges' seeds count from it,
    one per action along the run, so a deal judged alone gets the judges a run through every deal gives it)."""
    start, actions = played
    deal = start.copy()
    asked: list[_Asked] = []
    for at, action in enumerate(actions):
        estimates = judge_decision(deal, partial(make_judge, judge_level, f"{seed}:judge:{first + at}"))
        if estimates:
            asked.append(_Asked(len(deal.history), estimates))
        deal.apply(action)
    return asked, deal


def calibrate(
    deals: Sequence[PlayedDeal], judge_level: str, seed: int, workers: int = 1
) -> tuple[list[Step], Counter[int]]:
    """Every kontra step along ``deals``, and the deals counted by the highest multiplier their chain
    reached; ``workers`` processes judge the deals (the same steps for any number of them)."""
    firsts = list(accumulate((len(actions) for _, actions in deals), initial=0))[:-1]
    judged = mapped(workers, judge_deal, deals, [judge_level] * len(deals), [seed] * len(deals), firsts)
    steps: list[Step] = []
    chains: Counter[int] = Counter()
    for number, (asked, deal) in enumerate(judged, start=1):
        if deal.is_over:
            steps.extend(settle(deal, asked, number))
            chains[max(deal.levels.values(), default=0)] += 1
    return steps, chains


def played_deals(level: str, deals: int, seed: int, workers: int = 1) -> list[PlayedDeal]:
    """``deals`` deals of a run from ``seed`` played by ``level`` bots, as ``played_by_level`` plays them,
    in ``workers`` processes."""
    numbers = range(deals)
    actions = mapped(workers, play_out, [level] * deals, [seed] * deals, numbers)
    return [(dealt(seed, number), played) for number, played in zip(numbers, actions, strict=True)]


def _line(name: str, steps: list[Step]) -> str:
    n = len(steps)
    bias = summarise([s.predicted - s.realised for s in steps])
    said = [s for s in steps if s.said]
    alone = summarise([s.realised for s in said]) if said else None
    brought = f"{alone.mean:+.2f} [{alone.low:+.2f}, {alone.high:+.2f}]" if alone else "   -"
    chained = f"{statistics.fmean(s.with_chain for s in said):+.2f}" if said else "   -"
    return (
        f"  {name:24s} {n:5d} {100 * sum(s.judged_raise for s in steps) / n:6.0f}% {100 * len(said) / n:6.0f}%"
        f" {statistics.fmean(s.predicted for s in steps):+7.2f} {statistics.fmean(s.realised for s in steps):+7.2f}"
        f" {bias.mean:+6.2f} [{bias.low:+.2f}, {bias.high:+.2f}] {brought:>21s} {chained:>7s}"
    )


def report(steps: list[Step], chains: Counter[int]) -> str:
    """The printed tables (the module docstring)."""
    if not steps:
        return "no kontra decision along these deals"
    lines = [
        "  step / family             n  judge  table  predicted realised  bias [95%]        "
        "  said: alone [95%], with the chain after",
    ]
    groups: dict[tuple[str, str], list[Step]] = defaultdict(list)
    for s in steps:
        groups[(s.step, s.family)].append(s)
    for (step, kind), members in sorted(groups.items()):
        lines.append(_line(f"{step} / {kind}", members))
    for step in sorted({s.step for s in steps}):
        lines.append(_line(f"{step} / all", [s for s in steps if s.step == step]))
    for part in sorted({s.part for s in steps}, key=lambda p: p.value):
        lines.append(_line(f"part {part.value}", [s for s in steps if s.part is part]))
    lines.append(_line("all", steps))
    lines.append("  calibration (predicted in stakes: decisions, mean predicted, mean realised)")
    for low, high in zip(BUCKETS, [*BUCKETS[1:], None], strict=True):
        members = [s for s in steps if s.predicted >= low and (high is None or s.predicted < high)]
        if low == BUCKETS[0]:
            members += [s for s in steps if s.predicted < low]
        if members:
            top = f"{high:+.2f}" if high is not None else " ..."
            lines.append(
                f"    {low:+.2f} .. {top}  {len(members):5d}  {statistics.fmean(s.predicted for s in members):+.2f}"
                f"  {statistics.fmean(s.realised for s in members):+.2f}"
            )
    reached = ", ".join(f"x{2**level} {n}" for level, n in sorted(chains.items()))
    lines.append(f"  deals by the highest multiplier their chain reached: {reached}")
    return "\n".join(lines)


def step_record(step: Step) -> dict[str, object]:
    """``step`` as one JSON object (a line of ``--dump``)."""
    return {**asdict(step), "part": step.part.value}


def step_from_record(record: dict[str, Any]) -> Step:
    """The step a line of ``--dump`` holds."""
    return Step(**{**record, "part": Part(record["part"])})


def main() -> None:
    """Run from the command line (the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deal_options(parser, deals=30, level="strong")
    parser.add_argument("--judge", default="", help="the level whose kontra values are measured (default --level)")
    parser.add_argument("--dump", default="", help="also write every step to this file, one JSON object a line")
    parser.add_argument("--workers", type=int, default=1, help="processes playing and judging the deals")
    args = parser.parse_args()
    if args.records:
        deals, named = recorded_deals(args.records), args.records
    else:
        deals = played_deals(args.level, args.deals, args.seed, args.workers)
        named = f"{args.deals} deals played by {args.level} bots (seed {args.seed})"
    judge = args.judge or args.level
    steps, chains = calibrate(deals, judge, args.seed, args.workers)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(step_record(s)) + "\n" for s in steps)
    print(f"kontra steps of {judge} bots on {named}")
    print(report(steps, chains))


if __name__ == "__main__":
    main()
