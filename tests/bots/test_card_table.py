"""The strong bot's lazy card decision (``CardTable``): the same choice as solving every class of legal
cards exactly in every world, for less work.

A property test drives the table with made-up values and adversarial fail-soft bounds (any bound the
search may return); the bot tests compare, on fixed seeded positions (declarer's opening leads of every
trump family, the declarer-friendly deals of ``make bench``, and every card decision of heuristic
deals, defenders' included), the lazy bot's action with the reference bot's (``CardPlay.lazy = False``,
same seed, hence the same worlds), and count the work.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.bots.expert import expert_bot
from ulti.bots.sampling import Sampler, analyse
from ulti.bots.solver import bounds_after, clear_table, values_after
from ulti.bots.strong import SearchBot, strong_bot
from ulti.bots.strong.play import CardTable, CardWork, position_of
from ulti.engine.actions import Action
from ulti.engine.deal import Phase
from ulti.engine.view import SeatView
from ulti.lab.positions import lead_views, positions

TRUMP_CODES = ["M-S", "M-SU", "M-40", "M-20", "M-40UD", "H-S", "H-SU"]


class MatrixSolver:
    """A ``WorldSolver`` over a fixed matrix of values, whose bounds are any fail-soft bound the search
    could return (drawn from ``rng``): at least the threshold and at most the value when the value
    reaches the threshold, else at least the value and below the threshold."""

    def __init__(self, values: Sequence[Sequence[int]], rng: random.Random) -> None:
        self.matrix = values
        self.rng = rng

    def values(self, world: int, classes: list[int], guesses: list[int] | None) -> list[int]:
        return [self.matrix[world][k] for k in classes]

    def bounds(self, world: int, classes: list[int], thresholds: list[int]) -> list[int]:
        out = []
        for k, t in zip(classes, thresholds, strict=True):
            v = self.matrix[world][k]
            out.append(self.rng.randint(t, v) if v >= t else self.rng.randint(v, t - 1))
        return out


def full_choice(matrix: Sequence[Sequence[int]], sign: int, home: int) -> int:
    """The reference rule (the strong bot's before the lazy table): the best mean score, the heuristic's
    class among equals, else the first of the equals."""
    n = len(matrix)
    scores = [sign * sum(row[k] for row in matrix) / n for k in range(len(matrix[0]))]
    best = max(scores)
    good = [k for k, s in enumerate(scores) if s >= best - 1e-9]
    return home if home in good else good[0]


@settings(max_examples=400, deadline=None)
@given(
    data=st.data(),
    classes=st.integers(2, 7),
    worlds=st.integers(1, 12),
    sign=st.sampled_from([1, -1]),
    # few distinct values, as a contract's settlements are: many ties within and across worlds
    palette=st.lists(st.integers(-20, 20), min_size=1, max_size=4, unique=True),
    seed=st.integers(0, 2**32 - 1),
)
def test_lazy_table_makes_the_full_choice(
    data: st.DataObject, classes: int, worlds: int, sign: int, palette: list[int], seed: int
) -> None:
    matrix = [data.draw(st.lists(st.sampled_from(palette), min_size=classes, max_size=classes)) for _ in range(worlds)]
    home = data.draw(st.integers(0, classes - 1))
    solver = MatrixSolver(matrix, random.Random(seed))
    table = CardTable(classes, sign, solver, home)
    pivot = home
    for w in range(worlds):
        table.add_lazy(w, pivot)
        pivot = table.candidate()
    table.settle()
    assert table.decide() == full_choice(matrix, sign, home)
    # the proof never needs more than every entry exact
    assert table.work().exact <= worlds * classes
    # the classes a tie-break chooses among: exactly those whose exact totals are the best, the choice one of them
    totals = [sign * sum(row[k] for row in matrix) for k in range(classes)]
    assert table.best_classes() == [k for k in range(classes) if totals[k] == max(totals)]
    assert table.decide() in table.best_classes()
    # the first worlds scored otherwise (a deeper search's values): the best of those plus the exact rest
    first_worlds = data.draw(st.integers(1, worlds))
    first = [[data.draw(st.sampled_from(palette)) for _ in range(first_worlds)] for _ in range(classes)]
    mixed = [sum(first[k]) + sign * sum(row[k] for row in matrix[first_worlds:]) for k in range(classes)]
    assert table.best_with(first) == [k for k in range(classes) if mixed[k] == max(mixed)]

    exact = CardTable(classes, sign, solver, home)
    for w in range(worlds):
        exact.add_exact(w)
    exact.settle()
    assert exact.decide() == full_choice(matrix, sign, home)
    assert exact.work() == CardWork(worlds, worlds * classes, 0, classes)


def test_bounds_after_are_fail_soft_bounds_of_values_after() -> None:
    """Every bound the bot reads agrees with the exact value (both sides of the threshold)."""
    checked = 0
    for code in ("M-S", "M-40", "H-SU"):
        for view in lead_views(code, 2, 3):
            know = analyse(view)
            sampler = Sampler(know)
            rng = random.Random(5)
            cards = [c for c in range(32) if view.choices is not None and view.choices.cards >> c & 1]
            for _ in range(2):
                world = sampler.draw(rng)
                assert world is not None
                pos = position_of(know, world)
                values = values_after(pos, cards)
                for t in sorted(set(values) | {v + 1 for v in values}):
                    for card, value, r in zip(cards, values, bounds_after(pos, cards, [t] * len(cards)), strict=True):
                        assert (r >= t) == (value >= t), (card, t)
                        assert value >= r if r >= t else value <= r
                        checked += 1
    assert checked > 100


def _act(make: Callable[..., SearchBot], view: SeatView, seed: int, lazy: bool) -> tuple[Action, CardTable | None]:
    bot = make(random.Random(seed), time_budget=math.inf)
    bot.play.lazy = lazy
    clear_table()
    action = bot.act(view)
    return action, bot.play.last_table


def test_lazy_lead_equals_the_full_lead_and_solves_less() -> None:
    """The declarer's opening lead, 4 declarer-friendly deals per trump family: the same card as the
    full 32-world evaluation, from the same 32 worlds, with well under half its exact solves."""
    lazy_exact = full_exact = 0
    for code in TRUMP_CODES:
        for i, view in enumerate(lead_views(code, 4, 11)):
            lazy, lazy_table = _act(strong_bot, view, i, True)
            full, full_table = _act(strong_bot, view, i, False)
            assert lazy == full, (code, i)
            assert lazy_table is not None and full_table is not None
            lazy_work, full_work = lazy_table.work(), full_table.work()
            assert lazy_work.worlds == full_work.worlds == 32
            assert full_work.exact == full_work.worlds * full_work.classes
            assert lazy_work.exact <= full_work.exact
            lazy_exact += lazy_work.exact
            full_exact += full_work.exact
    # about one class per world solved, a yes/no search for the others, against every class exactly
    assert lazy_exact * 2 < full_exact, (lazy_exact, full_exact)


def test_lazy_table_solves_little_when_one_class_dominates() -> None:
    """Where the heuristic's class is at least as good as every other in every world (a dominant card,
    the heuristic's choice), the lazy table solves exactly that class alone, one value per world, and
    every other entry is one null-window search: 32 exact solves where the full table makes 32 per class."""
    seen = 0
    for code in ("M-S", "M-40", "H-SU"):
        for i, view in enumerate(lead_views(code, 6, 13)):
            _, full_table = _act(strong_bot, view, i, False)
            assert full_table is not None
            home, high = full_table.home, full_table.high
            if not all(high[home][w] >= max(row[w] for row in high) for w in range(full_table.worlds)):
                continue
            _, lazy_table = _act(strong_bot, view, i, True)
            assert lazy_table is not None
            work = lazy_table.work()
            assert work == CardWork(32, 32, 32 * (work.classes - 1), work.classes), (code, i)
            assert full_table.work().exact == 32 * work.classes
            seen += 1
    assert seen >= 3


def test_lazy_card_decisions_equal_the_full_ones_in_play() -> None:
    """Every card decision with a choice in 6 heuristic deals (declarer and defenders, every trick, the
    strong and the expert bot): the same card either way."""
    views = [
        v
        for v in positions(6, 21)
        if v.phase is Phase.PLAY and v.choices is not None and v.choices.cards.bit_count() >= 2
    ]
    assert len(views) > 50
    for i, view in enumerate(views):
        for make in (strong_bot, expert_bot):
            assert _act(make, view, i, True)[0] == _act(make, view, i, False)[0], (i, make.__name__)
