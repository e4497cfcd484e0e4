"""Verifying a puzzle again, exactly: its position, every move's verdict and values, its lines and themes.

``check_puzzle`` rebuilds the puzzle from its ``secret`` record (the deal up to the position) with its
own seed and as many moves as it holds (``cut.build``): the worlds are drawn from the same seeded
generator and every world and the true deal are solved exactly, so a sound puzzle is rebuilt field for
field. The rating is not compared (attempts move it).
"""

from __future__ import annotations

from typing import Any

from ulti.engine.errors import UltiError
from ulti.engine.record import deal_from_record
from ulti.puzzles.cut import FORMAT, build, puzzle_id
from ulti.puzzles.judge import judge

#: The fields a rebuilt puzzle must repeat exactly.
CHECKED = ("id", "seat", "view", "moves", "continuation", "themes", "phase")


def check_puzzle(puzzle: object) -> list[str]:
    """What is wrong with ``puzzle`` (an ``ulti-puzzle/1`` object); empty when it is sound."""
    if not isinstance(puzzle, dict) or puzzle.get("format") != FORMAT:
        return [f"format must be {FORMAT!r}"]
    try:
        secret = puzzle["secret"]
        deal = deal_from_record(secret["record"])
        seed = str(puzzle["seed"])
        moves = puzzle["moves"]
        worlds = int(moves[0]["worlds"])
    except (KeyError, TypeError, ValueError, IndexError, UltiError) as exc:
        return [f"unreadable: {exc}"]
    if puzzle_id(secret) != puzzle.get("id"):
        return ["id: not the digest of its secret record"]
    verdict = judge(deal, seed, 0, worlds)
    if not verdict.ok:
        return [f"move 1: {verdict.reason}"]
    rebuilt = build(deal, verdict, seed, worlds, max_moves=len(moves))
    return [f"{name}: differs when solved again" for name in CHECKED if rebuilt[name] != puzzle.get(name)]


def public(puzzle: dict[str, Any]) -> dict[str, Any]:
    """The puzzle as a client before its first move may have it: without the secret record, the answers,
    the values and the lines (revealed move by move)."""
    return {key: puzzle[key] for key in ("format", "id", "seat", "view", "themes", "phase", "rating")}
