"""Shared test fixtures: where the test data lives (inside the repository: it stands alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
#: Example records with their results, refused records with their messages, perft counts (docs/record.md).
EXAMPLES = DATA / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The folder of example records (tests/data/examples)."""
    assert EXAMPLES.is_dir(), f"missing {EXAMPLES}"
    return EXAMPLES
