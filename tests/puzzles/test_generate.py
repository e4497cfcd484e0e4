"""``ulti puzzles generate``: records in, puzzles out, a progress bar and a rate on standard error."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from ulti.cli import main
from ulti.puzzles.check import check_puzzle


def test_generate_cuts_sound_puzzles_with_progress_and_rate(
    records_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "puzzles.jsonl"
    assert main(["puzzles", "generate", "--from", str(records_path), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "records/s" in err and "[" in err and "kept as puzzles" in err
    puzzles = [json.loads(line) for line in out.read_text().splitlines()]
    assert puzzles and f"{len(puzzles)} distinct puzzles written" in err
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        assert puzzle["format"] == "ulti-puzzle/1"
        assert check_puzzle(puzzle) == []


def test_generate_limit_stops_after_that_many_puzzles(records_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl.gz"
    assert main(["puzzles", "generate", "--from", str(records_path), "--out", str(out), "--limit", "1"]) == 0
    with gzip.open(out, "rt") as f:
        assert len(f.read().splitlines()) == 1


def test_generate_reports_a_bad_record_by_line_and_goes_on(
    records_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text("{not json\n" + records_path.read_text())
    assert main(["puzzles", "generate", "--from", str(source), "--out", str(tmp_path / "p.jsonl")]) == 0
    assert "line 1:" in capsys.readouterr().err
