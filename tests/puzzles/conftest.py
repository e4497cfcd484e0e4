"""Fixtures of the puzzle tests: the example puzzles of tests/data/puzzles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DATA
from ulti.puzzles.shipped import load

#: Puzzles cut by ``ulti puzzles generate`` from the records below, at least one of each theme. The records
#: are heuristic bots' deals (``ulti arena --records``); the last is a deal whose auction was set by hand
#: (seat 0 declares an ulti durchmars, the others pass) and played by heuristic bots, as the bots never
#: bid a durchmars themselves.
EXAMPLES = DATA / "puzzles" / "examples.jsonl"
#: Deal records (ulti-deal/1, JSON lines) the generator cuts puzzles from, for the command's tests.
RECORDS = DATA / "puzzles" / "records.jsonl"


@pytest.fixture(scope="session")
def examples() -> list[dict[str, Any]]:
    """The example puzzles."""
    return load(EXAMPLES)


@pytest.fixture(scope="session")
def records_path() -> Path:
    """The example records file."""
    return RECORDS
