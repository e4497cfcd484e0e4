"""Shared test fixtures: where ../shared lives."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The folder of example records (../shared/examples)."""
    assert EXAMPLES.is_dir(), f"missing {EXAMPLES}"
    return EXAMPLES
