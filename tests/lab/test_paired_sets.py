"""The paired comparison of two arena runs' records, set by set."""

from __future__ import annotations

import io
import re
from pathlib import Path

from ulti.lab.arena import run_report, run_sets
from ulti.lab.paired_sets import compare, play_outcomes, set_scores, step_groups


def _records(tmp_path: Path, name: str, a: str, b: str, sets: int, seed: int) -> str:
    out = io.StringIO()
    run_report(a, b, sets, seed, workers=1, records_out=out)
    path = tmp_path / name
    path.write_text(out.getvalue())
    return str(path)


def test_a_record_file_scores_each_set_as_the_arena_did(tmp_path: Path) -> None:
    path = _records(tmp_path, "run.jsonl", "heuristic", "random", 5, 3)
    scores = set_scores(path)
    results = list(run_sets("heuristic", "random", 5, 3, workers=1))
    assert [s.a_mean for s in scores] == [r.a_mean for r in results]
    assert [s.family for s in scores] == [r.family for r in results]


def test_a_run_against_itself_differs_nowhere_and_against_another_level_by_the_paired_sets(tmp_path: Path) -> None:
    old = set_scores(_records(tmp_path, "old.jsonl", "heuristic", "random", 6, 4))
    new = set_scores(_records(tmp_path, "new.jsonl", "random", "random", 6, 4))
    same = compare(old, old)["all"]
    assert same[2].mean == 0 and same[2].low == same[2].high == 0
    o, n, diff = compare(old, new)["all"]
    assert o.sets == n.sets == diff.sets == 6
    assert abs(diff.mean - (n.mean - o.mean)) < 1e-9
    assert n.mean != o.mean  # a random A plays the same deals otherwise than a heuristic A


def test_the_plays_that_differ_add_up_to_the_paired_difference_grouped_by_their_kontra_steps(tmp_path: Path) -> None:
    old_path = _records(tmp_path, "old.jsonl", "heuristic", "random", 6, 4)
    new_path = _records(tmp_path, "new.jsonl", "random", "random", 6, 4)
    old, new = play_outcomes(old_path), play_outcomes(new_path)
    assert len(old) == len(new) == 36
    groups = step_groups(old, new)
    overall = compare(set_scores(old_path), set_scores(new_path))["all"][2].mean
    assert groups and abs(sum(g.share for g in groups) - overall) < 1e-9
    assert [g.share for g in groups] == sorted(g.share for g in groups)  # the new run's worst losses first
    assert step_groups(old, old) == []
    # every play's steps name who said them (A or B, declarer or defender) and on which parts
    said = [step for play in old + new for step in play.steps]
    assert said and all(re.fullmatch(r"[AB] (declarer|defender): [a-z0-9-]+(\+[a-z0-9-]+)*", s) for s in said)
