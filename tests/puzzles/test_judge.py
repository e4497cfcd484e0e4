"""Which decisions are puzzles: forced and obvious answers rejected, the example puzzles judged again.

The hand-made position of each theme is in test_hand_made.py."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ulti.bots.heuristic import HeuristicBot
from ulti.engine.cards import card_str
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase
from ulti.engine.record import deal_from_record
from ulti.puzzles.cut import build
from ulti.puzzles.judge import FORCED, judge
from ulti.puzzles.themes import THEMES


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _positions(record: dict[str, Any]) -> list[Deal]:
    """The deal before every recorded card of ``record``."""
    full = deal_from_record(record)
    replay = Deal(full.dealt, full.dealer)
    out = []
    for action in full.history:
        if replay.phase is Phase.PLAY:
            out.append(replay.copy())
        replay.apply(action)
    return out


def test_a_forced_card_is_rejected(records_path: Path) -> None:
    last = _positions(_records(records_path)[0])[-1]  # the last card of the deal: one legal card
    assert last.legal_card_mask().bit_count() == 1
    assert judge(last, "t", 0).reason == FORCED


def test_several_legal_cards_of_one_class_are_forced(records_path: Path) -> None:
    found = 0
    for record in _records(records_path):
        for deal in _positions(record):
            if deal.legal_card_mask().bit_count() > 1:
                verdict = judge(deal, "t", 0)
                if verdict.reason == FORCED:
                    assert len(verdict.classes) == 1
                    found += 1
    assert found


def test_no_puzzle_answer_is_forced_or_the_heuristic_bots_card(examples: list[dict[str, Any]]) -> None:
    for puzzle in examples:
        deal = deal_from_record(puzzle["secret"]["record"])
        view = deal.seat_view(puzzle["seat"])
        assert view.choices is not None
        card = HeuristicBot(random.Random(0)).choose_card(view, view.choices)
        first = puzzle["moves"][0]
        assert len(first["classes"]) >= 2
        assert all(len(move["classes"]) >= 2 for move in puzzle["moves"])
        assert card_str(card) not in first["answer"]


def test_each_example_puzzle_is_judged_and_classed_again(examples: list[dict[str, Any]]) -> None:
    covered: set[str] = set()
    for puzzle in examples:
        deal = deal_from_record(puzzle["secret"]["record"])
        verdict = judge(deal, puzzle["seed"], 0)
        assert verdict.ok, puzzle["id"]
        rebuilt = build(deal, verdict, puzzle["seed"])
        assert rebuilt["themes"] == puzzle["themes"]
        covered.update(rebuilt["themes"])
    assert covered == set(THEMES)
