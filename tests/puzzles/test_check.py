"""``check`` verifies every puzzle again, exactly, and catches a tampered one."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ulti.cli import main
from ulti.puzzles.check import check_puzzle
from ulti.puzzles.shipped import load
from ulti.puzzles.themes import THEMES


def test_example_puzzles_check_sound(examples: list[dict[str, Any]]) -> None:
    for puzzle in examples:
        assert check_puzzle(puzzle) == [], puzzle["id"]


def test_check_catches_a_tampered_answer(examples: list[dict[str, Any]]) -> None:
    puzzle = copy.deepcopy(examples[0])
    move = puzzle["moves"][0]
    other = next(c for c in move["classes"] if c != move["answer"])
    move["answer"] = other
    assert check_puzzle(puzzle) == ["moves: differs when solved again"]


def test_check_catches_a_tampered_value(examples: list[dict[str, Any]]) -> None:
    puzzle = copy.deepcopy(examples[0])
    code = next(iter(puzzle["moves"][0]["values"]))
    puzzle["moves"][0]["values"][code] += 1.0
    assert check_puzzle(puzzle) == ["moves: differs when solved again"]


def test_check_catches_a_tampered_position(examples: list[dict[str, Any]]) -> None:
    puzzle = copy.deepcopy(examples[0])
    puzzle["secret"]["record"]["actions"].pop()
    assert check_puzzle(puzzle) == ["id: not the digest of its secret record"]
    puzzle = copy.deepcopy(examples[0])
    puzzle["view"]["won"] = [0, 0, 0]
    assert "view: differs when solved again" in check_puzzle(puzzle)


def test_check_command_exits_1_naming_the_tampered_puzzle(
    examples: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sound = tmp_path / "sound.jsonl"
    sound.write_text("".join(json.dumps(p) + "\n" for p in examples[:3]))
    assert main(["puzzles", "check", str(sound)]) == 0
    bad = copy.deepcopy(examples[1])
    bad["themes"] = ["durchmars"]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(p) + "\n" for p in [examples[0], bad, examples[2]]))
    capsys.readouterr()
    assert main(["puzzles", "check", str(tampered)]) == 1
    out = capsys.readouterr().out
    assert out == f"{bad['id']}: themes: differs when solved again\n"


def test_shipped_set_checks_sound_and_holds_every_theme() -> None:
    puzzles = load()
    assert 100 <= len(puzzles) <= 5000
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        assert check_puzzle(puzzle) == [], puzzle["id"]
    themes = Counter(t for p in puzzles for t in p["themes"])
    assert set(themes) == set(THEMES), themes
    # the bots seldom bid a durchmars: these come from self-play kept to durchmars contracts
    assert themes["durchmars"] >= 10, themes
