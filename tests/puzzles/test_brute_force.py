"""On puzzles of four tricks or fewer, a search over every card order agrees with the solution."""

from __future__ import annotations

from typing import Any

from tests.puzzles.brute import brute_values, play_codes
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record
from ulti.puzzles.judge import MIN_GAP
from ulti.puzzles.shipped import load

#: Shipped puzzles searched exhaustively besides the examples (the first ones with four tricks or fewer).
SHIPPED_SAMPLE = 25


def _short(puzzle: dict[str, Any]) -> bool:
    return 10 - sum(int(n) for n in puzzle["view"]["won"]) <= 4


def _agrees(puzzle: dict[str, Any]) -> None:
    deal: Deal = deal_from_record(puzzle["secret"]["record"])
    for number, move in enumerate(puzzle["moves"], 1):
        exact = brute_values(deal)
        assert exact == move["open_values"], f"{puzzle['id']} move {number}: values differ from every card order's"
        best = max(exact.values())
        winners = {code for code, value in exact.items() if value == best}
        assert winners == set(move["answer"]), f"{puzzle['id']} move {number}: another card is as good"
        assert all(value <= best - MIN_GAP for code, value in exact.items() if code not in winners)
        play_codes(deal, [move["answer"][0], *move["replies"]])


def test_brute_force_agrees_with_example_puzzles_of_four_tricks_or_fewer(examples: list[dict[str, Any]]) -> None:
    short = [p for p in examples if _short(p)]
    assert short
    for puzzle in short:
        _agrees(puzzle)


def test_brute_force_agrees_with_shipped_puzzles_of_four_tricks_or_fewer() -> None:
    short = [p for p in load() if _short(p)][:SHIPPED_SAMPLE]
    assert len(short) == SHIPPED_SAMPLE
    for puzzle in short:
        _agrees(puzzle)
