"""The duplicate arena: fair seatings, valid records, and the heuristic bot beating the random one."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ulti.bots.arena import play_set, run_arena, seatings, summarise
from ulti.engine.record import score_record


def test_duplicate_seatings_give_each_bot_each_seat_equally() -> None:
    rows = seatings()
    assert len(rows) == 6 and len(set(rows)) == 6
    for seat in range(3):
        assert Counter(row[seat] for row in rows) == {"A": 3, "B": 3}


def test_a_duplicate_set_replays_the_same_cards_and_its_records_score_to_the_results() -> None:
    result = play_set("heuristic", "random", seed=5, index=0)
    assert len(result.records) == 6
    assert len({json.dumps(r["hands"]) for r in result.records}) == 1
    assert len({r["dealer"] for r in result.records}) == 1
    totals_a = []
    for record, seating in zip(result.records, seatings(), strict=True):
        scores = score_record(record)["scores"]
        assert sum(scores) == 0
        totals_a.append(sum(s for s, who in zip(scores, seating, strict=True) if who == "A"))
    assert result.a_mean == sum(totals_a) / 6


def test_summary_interval() -> None:
    summary = summarise([1.0, 2.0, 3.0, 4.0])
    assert summary.mean == 2.5
    assert summary.low < 2.5 < summary.high
    assert summary.excludes_zero()
    assert not summarise([-1.0, 1.0, -2.0, 2.0]).excludes_zero()


def test_heuristic_beats_random_over_duplicate_deals() -> None:
    out = io.StringIO()
    summary = run_arena("heuristic", "random", sets=40, seed=3, workers=1, records_out=out)
    assert summary.mean > 0 and summary.excludes_zero()
    lines = out.getvalue().splitlines()
    assert len(lines) == 40 * 6


def test_ulti_arena_command(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "arena", "--a", "heuristic", "--b", "random", "--deals", "12",
         "--seed", "9", "--workers", "2", "--records", str(records)],
        capture_output=True, text=True, check=True,
    )
    assert "A = heuristic:" in proc.stdout and "95% interval" in proc.stdout
    assert "12/12" in proc.stderr
    lines = records.read_text().splitlines()
    assert len(lines) == 72
    scored = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "score", "--jsonl", str(records)], capture_output=True, text=True, check=True
    )
    assert all("error" not in json.loads(line) for line in scored.stdout.splitlines())
