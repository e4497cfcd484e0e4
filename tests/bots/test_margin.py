"""The card-point tie-break (``ulti.bots.expert.margin``, ``MarginExpert``; ``CardTable.best_classes``, the tied
classes, is tested with the lazy table in tests/bots/test_card_table.py).

The points after a card are the solver's own answer to "does the declarer reach t?", asked at every t; the
expert's tie-break keeps the plain choice unless another tied class leaves the declarer more points (as declarer)
or fewer (as defender), and never leaves the tie.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bots.test_lookahead import _worlds_alike_to
from tests.bots.test_solver import random_position
from ulti.bots.expert import ExpertBot, MarginExpert
from ulti.bots.expert.lookahead import legal_in
from ulti.bots.expert.margin import MOST_POINTS, POINT_STEP, declarer_points_after, margin_totals, plays_for_points
from ulti.bots.solver import Objective, Position, solve
from ulti.bots.strong import advance
from ulti.bots.strong.play import CardTable, SolvedWorlds
from ulti.engine.cards import iter_cards
from ulti.engine.play import NO_TRUMP


def _highest_total(pos: Position) -> int:
    """The declarer's final card points double-dummy, by asking the solver at every total."""
    totals = range(0, MOST_POINTS + 1, POINT_STEP)
    return max(t for t in totals if solve(pos, Objective.points(t), best_cards=False).value)


def _position(seed: int, code: str = "M-S", tricks_left: int = 5) -> Position:
    rng = random.Random(seed)
    return Position.from_deal(random_position(rng, code, rng.randrange(4), tricks_left, rng.randrange(3)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), code=st.sampled_from(["M-S", "M-SU", "M-40", "H-20"]), guess=st.integers(-20, 130))
def test_points_after_a_card_are_the_highest_total_the_declarer_reaches(seed: int, code: str, guess: int) -> None:
    pos = _position(seed, code)
    for card in iter_cards(legal_in(pos)):
        after = advance(pos, card)
        assert isinstance(after, Position)
        expected = _highest_total(after)
        assert declarer_points_after(pos, card) == expected
        # any guess, however far off, only changes where the search starts
        assert declarer_points_after(pos, card, guess) == expected


def _decision(pos: Position, seed: int, worlds: int = 12) -> tuple[CardTable, SolvedWorlds]:
    """A settled card table of the seat to move in ``pos`` over worlds alike to it (one card per legal card)."""
    cards = list(iter_cards(legal_in(pos)))
    solved = SolvedWorlds(cards)
    table = CardTable(len(cards), 1 if pos.to_move == pos.declarer else -1, solved, 0)
    for world in _worlds_alike_to(pos, pos.to_move, seed, worlds):
        table.add_lazy(solved.add(world), table.candidate())
    table.settle()
    return table, solved


def test_the_margin_breaks_a_tie_by_the_points_and_only_a_tie() -> None:
    changed = 0
    for seed in range(40):
        pos = _position(seed, "M-S", 6)
        table, solved = _decision(pos, seed)
        plain = table.decide()
        chosen = MarginExpert(random.Random(0))._margin_tiebreak(table, solved, plain)
        tied = table.best_classes()
        assert chosen in tied
        points = margin_totals(solved.positions, [solved.cards[k] for k in tied])
        score = [table.sign * p for p in points]
        assert score[tied.index(chosen)] == max(score)
        # the expert without it keeps the plain choice
        assert ExpertBot(random.Random(0))._margin_tiebreak(table, solved, plain) == plain
        changed += chosen != plain
    # the tie-break is not idle: among these decisions some tie and differ in points
    assert changed > 0


def test_the_margin_stays_out_of_contracts_without_points() -> None:
    rng = random.Random(3)
    betli = Position.from_deal(random_position(rng, "N-B", NO_TRUMP, 7))
    assert not plays_for_points(betli)
    assert plays_for_points(_position(3, "M-SU"))
    table, solved = _decision(betli, 3)
    # a betli: no points to break a tie by, though cards tie here
    assert len(table.best_classes()) >= 2
    assert MarginExpert(random.Random(0))._margin_tiebreak(table, solved, table.decide()) == table.decide()
