"""The fit of the expert's calibrated kontra step values (``ulti.lab.step_fit``) from dumped steps."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ulti.bots.expert.step_values import POOLED, StepLine, StepValues
from ulti.engine.contracts import Part
from ulti.lab.kontra_calibration import Step, step_from_record, step_record
from ulti.lab.step_fit import answer_costs, check, fit, fit_lines, least_squares, read_steps, render


def _step(step: str, predicted: float, realised: float, deal: int = 0, said: bool = False, kind: str = "ulti",
          seat: int = 0) -> Step:
    return Step(seat, Part.ULTI, step, kind, predicted, realised, False, said, 0.0, deal)


#: A fixed record set: four kontra steps on a line (realised = -0.5 + 0.5 x), the first two said, the
#: second answered by a rekontra whose own line makes it pay; two rekontra steps.
RECORDS = [
    _step("kontra", 1.0, 0.0, deal=1, said=True),
    _step("kontra", 3.0, 1.0, deal=2, said=True),
    _step("kontra", -1.0, -1.0, deal=3),
    _step("kontra", 5.0, 2.0, deal=4),
    _step("rekontra", 0.5, 1.0, deal=2, seat=1),
    _step("rekontra", -0.5, -1.0, deal=1, seat=1),
]


def test_least_squares_finds_the_line_through_the_points() -> None:
    assert least_squares([0.0, 1.0, 2.0], [1.0, 3.0, 5.0]) == StepLine(1.0, 2.0)
    assert least_squares([1.0, 1.0], [0.0, 1.0]) == StepLine(0.5, 0.0)  # every x equal: the mean


def test_the_fit_reproduces_its_numbers_from_a_fixed_record_set(tmp_path: Path) -> None:
    path = tmp_path / "steps.jsonl"
    path.write_text("".join(json.dumps(step_record(s)) + "\n" for s in RECORDS))
    steps = read_steps([str(path)])
    assert steps == RECORDS  # the dump reads back as written
    values, counts = fit([steps], margin=0.0, min_steps=2)
    assert values.lines["kontra"]["ulti"] == StepLine(-0.5, 0.5)
    assert values.lines["kontra"][POOLED] == StepLine(-0.5, 0.5)
    assert values.lines["rekontra"]["ulti"] == StepLine(0.0, 2.0)
    assert counts["kontra"]["ulti"] == 4 and counts["rekontra"][POOLED] == 2
    # the kontra of deal 2 was answered (its rekontra's line gives +1.0 > 0) and the kontra's side won the
    # part: the answer gave it 2 stakes more (a cost of -2); deal 1's rekontra does not pay (-1.0): no
    # answer, no cost. The mean over the 2 kontras said:
    assert values.costs["kontra"] == -1.0
    assert values.costs["rekontra"] == 0.0  # nobody answered a rekontra
    text = render(values, counts)
    assert '"kontra": {' in text and "StepLine(-0.5, 0.5),  # 4 steps" in text
    assert '    "kontra": -1.0,' in text
    table = check(steps, values)
    assert "kontra / ulti" in table and "rekontra / all" in table


def test_a_family_with_too_few_steps_takes_its_steps_line_and_a_step_without_one_its_sides_last() -> None:
    steps = [_step("kontra", x, x / 2, deal=k, kind="simple") for k, x in enumerate([0.0, 1.0, 2.0])]
    steps.append(_step("kontra", 0.0, -1.0, deal=9, kind="betli"))
    lines = fit_lines(steps, min_steps=3)
    assert set(lines["kontra"]) == {"simple", POOLED}  # betli has 1 step: no line of its own
    values = StepValues({step: {k: f.line for k, f in by.items()} for step, by in lines.items()})
    assert values.line("kontra", "betli") == lines["kontra"][POOLED].line
    # a step without a line takes its side's step before it: a mordkontra the kontra's (no szubkontra)
    assert values.line("mordkontra", "betli") == values.line("kontra", "betli")
    assert values.alone("rekontra", "simple", 1.0) == -math.inf  # the declarer's side has no line at all
    assert not values.says("hirskontra", "simple", 1.0)


def test_an_answer_that_the_rule_would_not_say_costs_nothing() -> None:
    said = _step("kontra", 1.0, -1.0, deal=1, said=True)
    reply = _step("rekontra", -0.5, 1.0, deal=1, seat=1)
    paying = StepValues({"kontra": {POOLED: StepLine(0.0, 1.0)}, "rekontra": {POOLED: StepLine(0.0, 1.0)}})
    assert answer_costs([said, reply], paying)["kontra"] == 0.0
    eager = StepValues(paying.lines, margin=-1.0)  # every rekontra said
    assert answer_costs([said, reply], eager)["kontra"] == 2.0  # the kontra lost: answered, it lost 2 more


def test_a_dumped_step_reads_back_as_itself() -> None:
    step = _step("szubkontra", 0.25, -1.0, deal=7, said=True)
    assert step_from_record(json.loads(json.dumps(step_record(step)))) == step


@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_a_step_is_said_when_its_value_less_its_answer_cost_beats_the_margin(margin: float) -> None:
    values = StepValues({"kontra": {POOLED: StepLine(0.0, 1.0)}}, {"kontra": 0.25}, margin)
    assert values.value("kontra", "ulti", 1.0) == 0.75
    assert values.says("kontra", "ulti", 1.0) == (margin < 0.75)


def test_a_step_is_fitted_on_the_first_run_that_offers_it_often_enough() -> None:
    own = [_step("kontra", x, x, deal=k) for k, x in enumerate([0.0, 1.0])]
    deep = [_step("kontra", x, -1.0, deal=k) for k, x in enumerate([0.0, 1.0])]
    deep += [_step("szubkontra", x, x / 2, deal=k) for k, x in enumerate([0.0, 1.0])]
    values, counts = fit([own, deep], margin=0.0, min_steps=2)
    assert counts["szubkontra"][POOLED] == 2
    assert values.lines["kontra"][POOLED] == StepLine(0.0, 1.0)  # the own run's, not the deep run's
    assert values.lines["szubkontra"][POOLED] == StepLine(0.0, 0.5)  # only the deep run offers it
    assert list(values.lines) == ["kontra", "szubkontra"]  # in the chain's order
