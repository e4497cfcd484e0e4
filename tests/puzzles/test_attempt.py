"""Solving a puzzle move by move (``ulti.puzzles.attempt``), and a set surveyed (``ulti.puzzles.survey``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.levels import bot_for_level
from ulti.engine.errors import IllegalAction, RecordError
from ulti.puzzles.attempt import judge_card, legal_codes, position, reveal, view
from ulti.puzzles.shipped import load
from ulti.puzzles.survey import band_of, count, solved_share, solves

SHIPPED = load()
BY_ID = {p["id"]: p for p in SHIPPED}
#: two moves; the first answer's class is {JS, QS} and the second's {QS}: playing the QS first leaves the JS
#: to stand for the puzzle's QS at the second move
SWAPPED = BY_ID["ede5bd8e68867d1e"]


def other_hands_hidden(puzzle: dict[str, Any], cards: list[str]) -> None:
    shown = view(puzzle, cards)
    assert list(shown["hands"]) == [str(puzzle["seat"])]


def test_each_right_card_is_followed_by_the_replies_until_the_puzzle_is_solved() -> None:
    puzzle = next(p for p in SHIPPED if len(p["moves"]) == 3)
    cards: list[str] = []
    for k, move in enumerate(puzzle["moves"]):
        other_hands_hidden(puzzle, cards)
        assert position(puzzle, cards).move == k
        outcome = judge_card(puzzle, cards, move["answer"][0])
        assert outcome.correct and outcome.finished == (k == 2)
        assert outcome.replies == move["replies"] and outcome.line[: 1 + len(move["replies"])] == [
            move["answer"][0], *move["replies"]]
        cards.append(outcome.card)
    assert outcome.line[-len(puzzle["continuation"]):] == puzzle["continuation"]
    assert sorted(reveal(puzzle)["hands"]) == ["0", "1", "2"]


def test_an_equal_card_of_the_answer_is_right_and_stands_for_it_afterwards() -> None:
    first = judge_card(SWAPPED, [], "QS")
    assert first.correct and not first.finished and first.answer == ["JS", "QS"]
    second = judge_card(SWAPPED, ["QS"], "JS")  # the JS now stands for the puzzle's QS
    assert second.correct and second.finished and second.answer == ["JS"]
    assert set(second.values) == set(legal_codes(position(SWAPPED, ["QS"]).deal))
    wrong = next(c for c in legal_codes(position(SWAPPED, ["QS"]).deal) if c != "JS")
    assert not judge_card(SWAPPED, ["QS"], wrong).correct


def test_a_wrong_card_ends_the_puzzle_with_the_solvers_line_after_it() -> None:
    puzzle = SHIPPED[0]
    pos = position(puzzle, [])
    wrong = next(c for c in legal_codes(pos.deal) if c not in puzzle["moves"][0]["answer"])
    outcome = judge_card(puzzle, [], wrong)
    assert not outcome.correct and outcome.finished and outcome.line[0] == wrong
    assert outcome.values[wrong] < outcome.values[outcome.answer[0]]
    assert outcome.open_values[wrong] < outcome.open_values[outcome.answer[0]]


def test_a_card_the_rules_forbid_or_an_unknown_code_is_refused() -> None:
    puzzle = SHIPPED[0]
    held = set(view(puzzle, [])["hands"][str(puzzle["seat"])])
    not_held = next(c for c in ("AS", "AH", "AC", "AD", "7S", "7H", "7C", "7D") if c not in held)
    with pytest.raises(IllegalAction) as refused:
        judge_card(puzzle, [], not_held)
    assert refused.value.rule == "card_not_held"
    with pytest.raises(RecordError):
        judge_card(puzzle, [], "ZZ")


def test_the_survey_counts_the_set_and_a_strong_bot_solves_what_the_heuristic_bot_does_not() -> None:
    counts = count(SHIPPED)
    assert counts.total == len(SHIPPED) == sum(counts.bands.values()) == sum(counts.moves.values())
    assert band_of(1500) == "1500-1649" and band_of(1499) == "below 1500"
    few = SHIPPED[:12]
    # the judge refuses a puzzle whose answer is the heuristic bot's card: it never solves one
    assert not any(solves(p, HeuristicBot(random.Random(0))) for p in few)
    solved, by_theme = solved_share(few, lambda rng: bot_for_level("strong", rng))
    assert solved >= 10 and sum(by_theme.values()) >= solved
