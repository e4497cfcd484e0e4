"""Fits the expert's calibrated kontra step values (``ulti.bots.expert.step_values``) to played-out steps.

Its input is the steps ``ulti.lab.kontra_calibration --dump`` writes with the ``expert-standing`` judge: per
kontra decision and part, the judge's gain from raising the part as if the opponents let the raise stand
(``predicted``, in stakes of the part before the step) and what the step realised once the deal was played
out by the bots' own play (+1 stake the seat's side won the part, -1 lost). It fits, per step (kontra,
rekontra, ...) and contract family, the straight line that best foretells the realised value from the
predicted one (least squares); a family with fewer than ``MIN_STEPS`` steps takes the step's line over every
family, and a step with fewer than ``MIN_STEPS`` gets no line at all (the bot never says it: no data, no
raise). Several runs may be given, the preferred first: each step is fitted on the first that offers it
``MIN_STEPS`` times (the expert's own deals rarely reach szubkontra; the strong bot's chains go further).
Then, from the last step back to the first, each step's **answer cost**: what the answers the calibrated
rule itself would give (the next step on the same part, said where its own calibrated value beats the
margin) took from the steps said in that run, on average (a raise answered is doubled again).

``--check`` values the steps of another run's dump with the fitted numbers and prints, per step and family,
the calibrated value against the realised one (the bias, with its 95% interval): the check on a seed the
numbers were not fitted on.

    python -m ulti.lab.kontra_calibration --level expert-v1 --judge expert-standing --deals 300 \\
        --seed 2718 --dump expert.jsonl
    python -m ulti.lab.kontra_calibration --level strong --judge expert-standing --deals 150 \\
        --seed 2718 --dump strong.jsonl
    python -m ulti.lab.step_fit expert.jsonl strong.jsonl [--check other.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ulti.bots.expert.step_values import POOLED, STEP_MARGIN, StepLine, StepValues
from ulti.engine.contracts import KONTRA_STEP_NAMES
from ulti.lab.arena import summarise
from ulti.lab.kontra_calibration import Step, step_from_record

#: The fewest steps a line is fitted to (a family with fewer takes its step's line over every family).
MIN_STEPS = 30


@dataclass(frozen=True)
class Fitted:
    """A fitted line and the number of steps it was fitted to."""

    line: StepLine
    steps: int


def read_steps(paths: Iterable[str]) -> list[Step]:
    """The steps of ``--dump`` files."""
    steps: list[Step] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            steps.extend(step_from_record(json.loads(line)) for line in f if line.strip())
    return steps


def least_squares(xs: Sequence[float], ys: Sequence[float]) -> StepLine:
    """The line ``a + b x`` closest to the points in squares (a flat line at the mean if every x is equal)."""
    if len(set(xs)) < 2:  # no spread to fit a slope to (statistics would refuse it)
        return StepLine(statistics.fmean(ys), 0.0)
    slope, intercept = statistics.linear_regression(xs, ys)
    return StepLine(intercept, slope)


def fit_lines(steps: Sequence[Step], min_steps: int = MIN_STEPS) -> dict[str, dict[str, Fitted]]:
    """Per step and family (``POOLED``: every family), the line foretelling the realised value from the
    predicted one, where at least ``min_steps`` steps allow it."""
    groups: dict[tuple[str, str], list[Step]] = defaultdict(list)
    for s in steps:
        groups[(s.step, s.family)].append(s)
        groups[(s.step, POOLED)].append(s)
    lines: dict[str, dict[str, Fitted]] = defaultdict(dict)
    for (step, kind), members in sorted(groups.items()):
        if len(members) >= min_steps:
            line = least_squares([s.predicted for s in members], [s.realised for s in members])
            lines[step][kind] = Fitted(StepLine(round(line.intercept, 3), round(line.slope, 3)), len(members))
    return dict(lines)


def answer_cost(step: str, steps: Sequence[Step], values: StepValues) -> float:
    """What the calibrated rule's answers (``values``, the next step's cost included) took from the steps of
    kind ``step`` said in ``steps`` (one run's), on average, in stakes: the next step on the same part in the
    same deal, said by this rule, doubles the stake again; 0 without a said step."""
    level = KONTRA_STEP_NAMES.index(step)
    following = KONTRA_STEP_NAMES[level + 1] if level + 1 < len(KONTRA_STEP_NAMES) else ""
    replies: dict[tuple[int, str], list[Step]] = defaultdict(list)
    for s in steps:
        if s.step == following:
            replies[(s.deal, s.part.value)].append(s)
    taken = []
    for s in steps:
        if s.step == step and s.said:
            answered = any(values.says(r.step, r.family, r.predicted) for r in replies[(s.deal, s.part.value)])
            taken.append(-2 * s.realised if answered else 0.0)
    return round(statistics.fmean(taken), 3) if taken else 0.0


def answer_costs(steps: Sequence[Step], values: StepValues) -> dict[str, float]:
    """Per step, from the last back to the first, ``answer_cost`` over one run's ``steps`` (``values`` holds
    the lines; each cost found is used to value the answers to the step before)."""
    return answer_costs_of({step: steps for step in KONTRA_STEP_NAMES[1:]}, values)


def answer_costs_of(runs: Mapping[str, Sequence[Step]], values: StepValues) -> dict[str, float]:
    """Per step, from the last back to the first, ``answer_cost`` over the run ``runs`` names for it."""
    costs: dict[str, float] = {}
    for step in reversed(KONTRA_STEP_NAMES[1:]):
        costs[step] = answer_cost(step, runs.get(step, ()), values)
        values = StepValues(values.lines, {**values.costs, step: costs[step]}, values.margin)
    return costs


def fit(
    runs: Sequence[Sequence[Step]], margin: float, min_steps: int = MIN_STEPS
) -> tuple[StepValues, dict[str, dict[str, int]]]:
    """The calibrated step values the steps of ``runs`` support with ``margin``, and per step and family the
    steps each line was fitted to. Each step is fitted on the first run holding ``min_steps`` of it (the
    expert's own deals first; a step they rarely offer, on deals whose chains go further), and its answer
    cost found on that run."""
    lines: dict[str, dict[str, StepLine]] = {}
    counts: dict[str, dict[str, int]] = {}
    source: dict[str, Sequence[Step]] = {}
    for run in runs:
        for step, by_family in fit_lines(run, min_steps).items():
            if step not in lines and POOLED in by_family:
                lines[step] = {kind: f.line for kind, f in by_family.items()}
                counts[step] = {kind: f.steps for kind, f in by_family.items()}
                source[step] = run
    ordered = {step: lines[step] for step in KONTRA_STEP_NAMES if step in lines}
    costs = answer_costs_of(source, StepValues(ordered, {}, margin))
    return StepValues(ordered, costs, margin), counts


def render(values: StepValues, counts: dict[str, dict[str, int]]) -> str:
    """``values`` as the Python literals of ``ulti.bots.expert.step_values`` (with the steps each line was
    fitted to as comments)."""

    def quoted(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)

    out = ["STEP_LINES: dict[str, dict[str, StepLine]] = {"]
    for step, by_family in values.lines.items():
        out.append(f"    {quoted(step)}: {{")
        for kind, line in by_family.items():
            fitted = f"StepLine({line.intercept}, {line.slope}),  # {counts[step][kind]} steps"
            out.append(f"        {quoted(kind)}: {fitted}")
        out.append("    },")
    out.append("}")
    out.append("ANSWER_COSTS: dict[str, float] = {")
    out.extend(f"    {quoted(step)}: {values.costs[step]}," for step in KONTRA_STEP_NAMES[1:] if step in values.costs)
    out.append("}")
    return "\n".join(out)


def check(steps: Sequence[Step], values: StepValues) -> str:
    """Per step and family of ``steps``, the calibrated value (without the answer cost) against the
    realised: the mean of each and the bias with its 95% interval, for every step and for those the
    calibrated rule says."""
    groups: dict[tuple[str, str], list[Step]] = defaultdict(list)
    for s in steps:
        if values.line(s.step, s.family) is not None:
            groups[(s.step, s.family)].append(s)
            groups[(s.step, POOLED)].append(s)
    lines = ["  step / family             n  calibrated realised  bias [95%]         said  realised [95%]"]
    for (step, kind), members in sorted(groups.items()):
        value = [values.alone(s.step, s.family, s.predicted) for s in members]
        bias = summarise([v - s.realised for v, s in zip(value, members, strict=True)])
        said = [s.realised for s in members if values.says(s.step, s.family, s.predicted)]
        brought = summarise(said) if said else None
        shown = f"{len(said):5d}  {brought.mean:+.2f} [{brought.low:+.2f}, {brought.high:+.2f}]" if brought else "    0"
        name = f"{step} / {kind or 'all'}"
        realised = statistics.fmean(s.realised for s in members)
        lines.append(
            f"  {name:24s} {len(members):5d} {statistics.fmean(value):+9.2f} {realised:+8.2f}"
            f"  {bias.mean:+.2f} [{bias.low:+.2f}, {bias.high:+.2f}]  {shown}"
        )
    return "\n".join(lines)


def main() -> None:
    """Run from the command line (the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "dumps", nargs="+", help="the runs to fit (kontra_calibration --dump files), the preferred first"
    )
    parser.add_argument("--margin", type=float, default=None, help="the stakes a step must pay (default: today's)")
    parser.add_argument("--check", default="", help="a dump of another seed to check the fitted values on")
    args = parser.parse_args()
    runs = [read_steps([path]) for path in args.dumps]
    values, counts = fit(runs, STEP_MARGIN if args.margin is None else args.margin)
    print(render(values, counts))
    if args.check:
        print(f"checked on {args.check}:")
        print(check(read_steps([args.check]), values))


if __name__ == "__main__":
    main()
