"""The kontra calibration (``ulti.lab.kontra_calibration``): each kontra decision of a deal found, valued by
a searching judge, and settled by the part's result as played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.lab.kontra_calibration import calibrate, played_deals, report
from ulti.lab.played_deals import played_by_level, played_from_records, recorded_deals

CHAIN = Path(__file__).resolve().parents[1] / "data" / "examples" / "02-ulti-kontra-chain.json"


@pytest.fixture
def records(tmp_path: Path) -> str:
    """The example deal whose ulti is raised to rekontra, as an arena's records file."""
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(json.loads(CHAIN.read_text())) + "\n")
    return str(path)


def test_each_kontra_decision_is_settled_by_the_parts_result(records: str) -> None:
    *_, final = played_from_records(records)  # one deal, yielded before each action: the same object
    assert final.result is not None  # played to its end
    won = {p.part: p.won for p in final.result.parts}
    steps, chains = calibrate(recorded_deals(records), "strong-fast", seed=1)
    # the record: defender 0 says kontra on the ulti, the declarer (1) rekontra, nobody szubkontra
    said = {(s.step, s.seat, s.part) for s in steps if s.said}
    assert said == {("kontra", 0, Part.ULTI), ("rekontra", 1, Part.ULTI)}
    assert {s.step for s in steps} == {"kontra", "rekontra", "szubkontra"}
    for s in steps:
        declarer_side = s.seat == final.result.declarer
        assert s.realised == (1.0 if won[s.part] == declarer_side else -1.0), s
    # what a said step brought with the chain after it: the kontra was answered (x2 -> x4)
    kontra = next(s for s in steps if s.said and s.step == "kontra")
    assert kontra.with_chain == 3 * kontra.realised
    rekontra = next(s for s in steps if s.said and s.step == "rekontra")
    assert rekontra.with_chain == rekontra.realised  # nobody answered it: the step alone
    assert chains == {2: 1}  # one deal, its chain at x4
    assert {s.deal for s in steps} == {1}  # numbered: a said step's answer is found in its own deal
    table = report(steps, chains)
    assert "rekontra / ulti" in table and "x4 1" in table


def test_a_judge_that_does_not_search_is_refused(records: str) -> None:
    with pytest.raises(ValueError, match="not a searching bot"):
        calibrate(recorded_deals(records), "heuristic", seed=1)


def test_deals_played_and_judged_in_workers_give_the_steps_of_one_run_through_them() -> None:
    # each deal is dealt and played alone, as the run's one stream of hands and its bots' seeds make it
    alone = played_deals("strong-fast", 3, seed=7)
    run: list[Deal] = []
    for deal in played_by_level("strong-fast", 3, seed=7):  # each deal yielded (one object) before each action
        if not run or run[-1] is not deal:
            run.append(deal)
    assert [list(deal.history) for deal in run] == [actions for _, actions in alone]
    for (start, actions), deal in zip(alone, run, strict=True):
        replayed = start.copy()
        for action in actions:
            replayed.apply(action)
        assert replayed.result == deal.result and replayed.result is not None
    serial = calibrate(alone, "strong-fast", seed=7)
    parallel = calibrate(played_deals("strong-fast", 3, seed=7, workers=2), "strong-fast", seed=7, workers=2)
    assert serial == parallel and serial[0]
