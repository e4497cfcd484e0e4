"""``python -m benchmarks.bot_bench --against COMMIT`` and its timing worker, run as commands (no test
imports ``benchmarks``): a commit the clone lacks is named and skipped, and the worker decides as the
level does."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from ulti.bots.levels import bot_for_level
from ulti.lab.positions import positions

ROOT = Path(__file__).resolve().parents[2]


def test_a_comparison_against_a_commit_the_clone_lacks_says_so_and_is_skipped() -> None:
    missing = "0" * 40
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bot_bench", "--against", missing],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert f"skipped, commit {missing} is not in this clone's history" in run.stdout
    assert "strong:" not in run.stdout  # nothing was timed


def test_the_timing_worker_takes_the_levels_actions_on_the_views_it_is_given(tmp_path: Path) -> None:
    views = positions(1, 4)[:12]
    views_file, out = tmp_path / "views.json", tmp_path / "out.json"
    views_file.write_text(json.dumps([view.to_json() for view in views]), encoding="utf-8")
    worker = ROOT / "benchmarks" / "decision_times.py"
    subprocess.run(
        [sys.executable, str(worker), str(views_file), str(out), "--level", "strong", "--seed", "3"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this tree's ulti, as the benchmark runs each tree's
        check=True,
        timeout=300,
    )
    rows = json.loads(out.read_text(encoding="utf-8"))["strong"]
    bot = bot_for_level("strong", random.Random(3))
    assert [action for _, _, action in rows] == [repr(bot.act(view)) for view in views]
    assert all(seconds >= 0 for _, seconds, _ in rows)
    assert {kind for kind, _, _ in rows} <= {"auction", "card", "forced", "other"}
    assert rows[0][0] == "auction"  # a deal's first decision
