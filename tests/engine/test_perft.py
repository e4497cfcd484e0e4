"""Legal-card generation reproduces every count of tests/data/examples/perft.json (depths 1 to 9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from ulti.engine.actions import Kind
from ulti.engine.deal import Deal, Phase
from ulti.engine.perft import perft
from ulti.engine.record import deal_from_record, deal_to_record

PERFT: list[dict[str, Any]] = json.loads((EXAMPLES / "perft.json").read_text())
CASES = [(i, depth) for i in range(len(PERFT)) for depth in range(1, 10)]


def start(index: int) -> Deal:
    """Deal ``index`` of perft.json at the start of play."""
    return deal_from_record(PERFT[index]["record"])


def test_perft_file_shape() -> None:
    assert len(PERFT) == 6
    for entry in PERFT:
        assert len(entry["perft"]) == 9
        deal = deal_from_record(entry["record"])
        assert deal.phase is Phase.PLAY
        assert deal.tricks == [] and deal.trick == []


@pytest.mark.parametrize(("index", "depth"), CASES, ids=[f"deal{i}-d{d}" for i, d in CASES])
def test_perft_count(index: int, depth: int) -> None:
    deal = start(index)
    record = deal_to_record(deal)
    assert perft(deal, depth) == PERFT[index]["perft"][depth - 1]
    assert deal_to_record(deal) == record  # perft leaves the position as it found it


def perft_via_apply(deal: Deal, depth: int) -> int:
    """Perft through the public API: ``legal_actions`` and ``apply`` on copies (no kontra)."""
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for action in deal.legal_actions():
        if action.kind is not Kind.PLAY:
            continue
        child = deal.copy()
        child.apply(action)
        total += perft_via_apply(child, depth - 1)
    return total


@pytest.mark.parametrize("index", range(6))
def test_perft_through_legal_actions_and_apply(index: int) -> None:
    """The same counts to depth 6 when every card goes through ``legal_actions`` and ``apply``."""
    deal = start(index)
    for depth in range(1, 7):
        assert perft_via_apply(deal, depth) == PERFT[index]["perft"][depth - 1]
