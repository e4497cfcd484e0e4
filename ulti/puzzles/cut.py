"""Cutting puzzles from deal records: every card decision of a record judged, puzzles built and lined up.

``cut_record(record)`` replays an ``ulti-deal/1`` record (finished or not) and judges the card decision
before each recorded card (``judge.judge``). A decision that is a puzzle move starts a puzzle: the
answer's first card is played, the other seats answer with the solver's cards (``line.replies``), and
while the player is on turn again and that decision is again a puzzle move (at most ``MAX_MOVES``
moves) the puzzle goes on. The puzzle object is ``ulti-puzzle/1`` (docs/record.md).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from ulti.engine.actions import Kind
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase
from ulti.engine.record import deal_from_record, deal_to_record
from ulti.puzzles.difficulty import initial_rating
from ulti.puzzles.judge import WORLDS, Verdict, judge
from ulti.puzzles.line import play, play_out, replies
from ulti.puzzles.themes import classify, phase_of

FORMAT = "ulti-puzzle/1"
#: The most moves of the player a puzzle asks for.
MAX_MOVES = 3


@dataclass
class CutStats:
    """What a cut saw: card decisions judged, puzzles kept, and why the others were not puzzles."""

    positions: int = 0
    kept: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, other: CutStats) -> None:
        """Count ``other``'s figures into these."""
        self.positions += other.positions
        self.kept += other.kept
        self.reasons.update(other.reasons)


def puzzle_id(secret: dict[str, Any]) -> str:
    """The puzzle's id: a digest of the deal record up to its position (the same position, the same id)."""
    text = json.dumps(secret, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _move_json(verdict: Verdict, answer_replies: list[str]) -> dict[str, Any]:
    return {
        "answer": list(verdict.answer),
        "classes": [list(c) for c in verdict.classes],
        "values": verdict.values,
        "open_values": verdict.open_values,
        "share": verdict.share,
        "gap": verdict.gap,
        "worlds": verdict.worlds,
        "replies": answer_replies,
    }


def _runner_up(verdict: Verdict) -> str:
    """The first card of the best class over the worlds other than the answer."""
    assert verdict.values is not None
    others = [k for k in range(len(verdict.classes)) if k != verdict.best]
    k = max(others, key=lambda i: verdict.values[verdict.classes[i][0]])  # type: ignore[index]
    return verdict.classes[k][0]


def build(deal: Deal, first: Verdict, seed: str, worlds: int = WORLDS, max_moves: int = MAX_MOVES) -> dict[str, Any]:
    """The puzzle starting at ``deal`` (unchanged) whose first move was judged ``first`` with ``seed``."""
    seat = first.seat
    secret = {"record": deal_to_record(deal)}
    work = deal.copy()
    moves: list[dict[str, Any]] = []
    verdict = first
    while True:
        play(work, parse_card(verdict.answer[0]))
        moves.append(_move_json(verdict, replies(work, seat)))
        if len(moves) >= max_moves or work.phase is not Phase.PLAY:
            break
        verdict = judge(work, seed, len(moves), worlds)
        if not verdict.ok:
            break
    continuation, _ = play_out(work.copy())
    themes = classify(deal, parse_card(first.answer[0]), parse_card(_runner_up(first)))
    return {
        "format": FORMAT,
        "id": puzzle_id(secret),
        "seat": seat,
        "view": deal.seat_view(seat).to_json(),
        "moves": moves,
        "continuation": continuation,
        "themes": themes,
        "phase": phase_of(len(deal.tricks)),
        "rating": initial_rating(len(moves), min(m["share"] for m in moves), len(first.classes)),
        "seed": seed,
        "secret": secret,
    }


def card_decisions(record: object) -> list[int]:
    """The history indices of the record's card decisions (the actions ``cut_record`` judges)."""
    full = deal_from_record(record)
    replay = Deal(full.dealt, full.dealer)
    out = []
    for index, action in enumerate(full.history):
        if action.kind is Kind.PLAY and replay.phase is Phase.PLAY:
            out.append(index)
        replay.apply(action)
    return out


def cut_record(
    record: object,
    worlds: int = WORLDS,
    max_moves: int = MAX_MOVES,
    stats: CutStats | None = None,
    at: Collection[int] | None = None,
) -> list[dict[str, Any]]:
    """Every puzzle of one deal record (see the module docstring); ``stats`` counts what was judged.

    ``at``: judge only the card decisions before these history indices (a long job cuts a deal a few
    decisions at a time; the analysis offers a player the positions of their own mistakes)."""
    full = deal_from_record(record)
    replay = Deal(full.dealt, full.dealer)
    out: list[dict[str, Any]] = []
    for index, action in enumerate(full.history):
        if action.kind is Kind.PLAY and replay.phase is Phase.PLAY and (at is None or index in at):
            secret = {"record": deal_to_record(replay)}
            seed = puzzle_id(secret)
            verdict = judge(replay, seed, 0, worlds)
            if stats is not None:
                stats.positions += 1
                stats.reasons[verdict.reason or "kept"] += 1
            if verdict.ok:
                out.append(build(replay, verdict, seed, worlds, max_moves))
                if stats is not None:
                    stats.kept += 1
        replay.apply(action)
    return out
