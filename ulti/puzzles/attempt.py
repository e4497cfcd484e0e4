"""Solving a puzzle move by move: the position the player sees, each card judged, the answer revealed.

An attempt is the player's cards so far. The position before move ``k`` is the puzzle's start (its
``secret`` record) with the player's own cards of moves ``0..k-1`` and, after each, the other seats'
stored replies (``moves[j].replies``, the solver's line).

A puzzle's answers were computed after the first card of each answer's class (``answer[0]``). A player
may play another card of that class (equal cards: they play alike in every world the player can
imagine); the two cards then swap names for the rest of the puzzle: the card left in the player's hand
is judged as the one the puzzle's later moves know (``canonical``), and the values are shown under the
names the player holds.

Until the attempt ends, only the seat's view leaves here (``view``); ``reveal`` gives the whole deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ulti.engine.cards import card_str, iter_cards, parse_card
from ulti.engine.deal import Deal
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.phase import Phase
from ulti.engine.record import deal_from_record
from ulti.puzzles.line import after, play


@dataclass
class Position:
    """The position before the next move of an attempt, and the names the player's cards swapped."""

    deal: Deal
    move: int
    #: a card code the player holds → the code the puzzle's later moves know it by (only swapped ones)
    canonical: dict[str, str] = field(default_factory=dict)

    def known_as(self, code: str) -> str:
        """The puzzle's name for the player's card ``code``."""
        return self.canonical.get(code, code)

    def shown_as(self, code: str) -> str:
        """The player's name for the puzzle's card ``code``."""
        for mine, theirs in self.canonical.items():
            if theirs == code:
                return mine
        return code


@dataclass(frozen=True)
class Outcome:
    """One card judged: right or wrong, and what the player may now see of it."""

    correct: bool
    finished: bool
    card: str
    #: the answer's class (every card of it is right), under the player's names
    answer: list[str]
    #: each legal card's mean value over the worlds the player could imagine, and its exact value open
    values: dict[str, float]
    open_values: dict[str, int]
    #: the other seats' replies after a right card (the solver's line)
    replies: list[str]
    #: the solver's line from the card played to the end of the deal (the card first)
    line: list[str]


def start(puzzle: dict[str, Any]) -> Deal:
    """The puzzle's position before its first move (the deal of its secret record)."""
    return deal_from_record(puzzle["secret"]["record"])


def position(puzzle: dict[str, Any], cards: list[str]) -> Position:
    """The position after the player's ``cards`` (each right so far) and the replies to each."""
    deal = start(puzzle)
    pos = Position(deal, 0)
    for k, code in enumerate(cards):
        move = puzzle["moves"][k]
        canonical = pos.known_as(code)
        first = move["answer"][0]
        play(deal, parse_card(code))
        if canonical != first:
            # the player's card stands for ``first``: the card named ``first`` they still hold stands for theirs
            held = pos.shown_as(first)
            pos.canonical = {k2: v for k2, v in pos.canonical.items() if k2 not in (code, held)}
            pos.canonical[held] = canonical
        for reply in move["replies"]:
            play(deal, parse_card(reply))
        pos.move = k + 1
    return pos


def view(puzzle: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """What the player to move sees before their next move: their seat's view only (no other hand)."""
    pos = position(puzzle, cards)
    return pos.deal.seat_view(int(puzzle["seat"])).to_json()


def legal_codes(deal: Deal) -> list[str]:
    """The codes of the cards the seat on turn may play."""
    return [card_str(c) for c in iter_cards(deal.legal_card_mask())]


def check_card(pos: Position, text: object) -> str:
    """``text`` as a card code the seat on turn may play now; ``RecordError`` (unknown code) or
    ``IllegalAction`` (the rule that forbids it) otherwise."""
    card = parse_card(text)
    deal = pos.deal
    if deal.phase is not Phase.PLAY:
        raise RecordError("the puzzle is over: no card is asked for")
    probe = deal.copy()
    play(probe, card)  # raises IllegalAction naming the rule (not held, must follow suit, must beat…)
    return card_str(card)


def judge_card(puzzle: dict[str, Any], cards: list[str], text: object) -> Outcome:
    """Judge the player's next card ``text`` after their right ``cards``; see the module docstring.

    The line is the solver's from the card played to the end (computed here: the caller runs this
    away from its event loop)."""
    pos = position(puzzle, cards)
    code = check_card(pos, text)
    move = puzzle["moves"][pos.move]
    correct = pos.known_as(code) in move["answer"]
    values = {pos.shown_as(k): float(v) for k, v in move["values"].items()}
    open_values = {pos.shown_as(k): int(v) for k, v in move["open_values"].items()}
    answer = [pos.shown_as(k) for k in move["answer"]]
    finished = not correct or pos.move + 1 >= len(puzzle["moves"])
    if correct:
        replies = list(move["replies"])
        line = [code, *replies]
        if finished:
            line += list(puzzle["continuation"])
    else:
        replies = []
        _, line, _ = after(pos.deal, parse_card(code))
    return Outcome(correct, finished, code, answer, values, open_values, replies, line)


def answer_line(puzzle: dict[str, Any], cards: list[str]) -> list[str]:
    """The solution's line from the position after ``cards``: each answer's first card, the replies, and
    the solver's continuation (under the puzzle's names)."""
    out: list[str] = []
    for move in puzzle["moves"][len(cards):]:
        out += [move["answer"][0], *move["replies"]]
    return out + list(puzzle["continuation"])


def reveal(puzzle: dict[str, Any]) -> dict[str, Any]:
    """The whole deal at the puzzle's start, for after the attempt: every hand, and every move's answer."""
    deal = start(puzzle)
    return {
        "hands": {str(s): [card_str(c) for c in iter_cards(deal.hands[s])] for s in range(3)},
        "answers": [list(m["answer"]) for m in puzzle["moves"]],
        "line": answer_line(puzzle, []),
    }


__all__ = ["IllegalAction", "Outcome", "Position", "RecordError", "answer_line", "check_card", "judge_card",
           "legal_codes", "position", "reveal", "start", "view"]
