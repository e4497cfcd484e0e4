"""What a kontra step brings when the deal is played out: the expert's calibrated step values.

The double-dummy gain of raising a part one step (``standing_gain`` over the expert's worlds, in stakes of
the part before the step) foretells some steps badly: a defender's kontra on a betli or a durchmars and its
szubkontra win the part far less often played out than in worlds whose cards every seat sees, and a step
said invites the opponents' next step. ``STEP_LINES`` holds, per step and contract family (``POOLED``: every
family, for a family with too few steps), the straight line from that predicted gain to what such steps
realised when the expert's own card play settled them (+1 stake the seat's side won the part, -1 lost); a
step the data hardly offered takes the line of its side's step before it, and a side without a line never
raises (no data, no raise). ``ANSWER_COSTS`` holds, per step, what the opponents' answers (their next step,
said by this same rule) took from such steps on average: a raise answered is doubled again. A step is said
when its line's value less its answer cost beats ``STEP_MARGIN``.

The numbers are fitted by ``ulti.lab.step_fit`` (its docstring has the commands) to the steps of 300 deals
of ``expert-v1`` bots, seed 2718, valued by the ``expert-standing`` judge, and checked on seed 2719
(docs/lab-journal.md). Refit them after changing the expert's card play or worlds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ulti.bots.families import family
from ulti.bots.parts import standing_gain
from ulti.bots.sampling import Knowledge
from ulti.engine.contracts import KONTRA_STEP_NAMES, Part

#: The family key of a step's line over every family.
POOLED = ""


class StepLine(NamedTuple):
    """What a step realises, in stakes, as a line in its predicted gain: ``intercept + slope * predicted``."""

    intercept: float
    slope: float


#: Per step and contract family, the line from the predicted gain to the realised value (the module
#: docstring); fitted by ``python -m ulti.lab.step_fit``.
STEP_LINES: dict[str, dict[str, StepLine]] = {
    "kontra": {
        "": StepLine(-0.09, 0.752),  # 933 steps
        "betli": StepLine(-0.454, 0.614),  # 37 steps
        "durchmars": StepLine(-0.5, 0.776),  # 39 steps
        "simple": StepLine(-0.029, 0.699),  # 95 steps
        "ulti": StepLine(0.001, 0.857),  # 739 steps
    },
    "rekontra": {
        "": StepLine(-0.136, 0.766),  # 109 steps
        "betli": StepLine(0.265, 0.967),  # 35 steps
        "ulti": StepLine(-0.442, 0.692),  # 46 steps
    },
    "szubkontra": {
        "": StepLine(-0.5, -0.062),  # 36 steps
    },
}
#: Per step, what the answers to it took on average, in stakes (fitted with the lines).
ANSWER_COSTS: dict[str, float] = {
    "kontra": 0.303,
    "rekontra": 0.0,
    "szubkontra": 0.0,
    "hirskontra": 0.0,
    "mordkontra": 0.0,
    "fedáksári": 0.0,
}
#: What a step's calibrated value must beat, in stakes.
STEP_MARGIN = 0.0


@dataclass(frozen=True)
class StepValues:
    """Calibrated step values: lines per step and family, answer costs per step, and the margin."""

    lines: Mapping[str, Mapping[str, StepLine]]
    costs: Mapping[str, float] = field(default_factory=dict)
    margin: float = 0.0

    def line(self, step: str, kind: str) -> StepLine | None:
        """The line of ``step`` in contract family ``kind``: its family's, else its step's over every family;
        a step without a line takes the line of the same side's step before it (the chain alternates
        sides: a hirskontra the rekontra's), so a seat answers a chain it never reached in the data as it
        answers the last it did; None when no step of the side has one."""
        level = KONTRA_STEP_NAMES.index(step)
        while level > 0:
            by_family = self.lines.get(KONTRA_STEP_NAMES[level], {})
            line = by_family.get(kind) or by_family.get(POOLED)
            if line is not None:
                return line
            level -= 2
        return None

    def alone(self, step: str, kind: str, predicted: float) -> float:
        """What ``step`` realises on its own, in stakes, when its predicted gain is ``predicted`` (minus
        infinity without a line)."""
        line = self.line(step, kind)
        return -math.inf if line is None else line.intercept + line.slope * predicted

    def value(self, step: str, kind: str, predicted: float) -> float:
        """What ``step`` brings with its answer in view, in stakes: ``alone`` less its answer cost."""
        return self.alone(step, kind, predicted) - self.costs.get(step, 0.0)

    def says(self, step: str, kind: str, predicted: float) -> bool:
        """Whether the step is said: its value beats the margin."""
        return self.value(step, kind, predicted) > self.margin


#: The expert's fitted step values.
FITTED = StepValues(STEP_LINES, ANSWER_COSTS, STEP_MARGIN)


def step_of(multiplier: int) -> str:
    """The name of the step that raises a part standing at ``multiplier`` (1: kontra, 2: rekontra, ...).

    >>> step_of(1), step_of(4)
    ('kontra', 'szubkontra')
    """
    return KONTRA_STEP_NAMES[multiplier.bit_length()]


def calibrated_gain(know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
    """The expert's ``StepGain`` part: the seat's gain from raising ``part`` one step, in per_defender units,
    as the fitted values say it is played out (``FITTED.value`` of the plain gain in stakes, times the
    stake): minus infinity for a step without a line. The margin is the bot's settings'
    (``expert_settings`` sets them to ``STEP_MARGIN``)."""
    assert know.contract is not None
    multiplier = know.multipliers.get(part, 1)
    stake = know.contract.part_value(part) * multiplier
    predicted = standing_gain(know, part, base, raised) / stake
    return FITTED.value(step_of(multiplier), family(know.contract), predicted) * stake
