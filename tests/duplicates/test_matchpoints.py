"""Matchpoints on hand-made cross-tables (with ties), against figures worked out by hand."""

from __future__ import annotations

from ulti.duplicates import deal_matchpoints, seat_matchpoints, standings
from ulti.duplicates.matchpoints import top

# Four tables, two deals; every table finished both. Scores per table, seats 0, 1, 2.
DEAL_0 = {1: [4, -2, -2], 2: [4, -2, -2], 3: [-8, 4, 4], 4: [12, -6, -6]}
DEAL_1 = {1: [2, -1, -1], 2: [2, -1, -1], 3: [2, -1, -1], 4: [-4, 2, 2]}
PLAYERS = {(t, s): (f"T{t}S{s}", s != 0) for t in (1, 2, 3, 4) for s in range(3)}


def test_two_for_each_player_outscored_one_for_each_tie() -> None:
    # seat 0 on deal 0: 4, 4, -8, 12 -> table 1 beats table 3 (2), ties table 2 (1), loses to table 4 (0)
    assert seat_matchpoints([4, 4, -8, 12]) == [3, 3, 0, 6]
    assert seat_matchpoints([2, 2, 2]) == [2, 2, 2]  # all level: one per tie
    assert top(4) == 6 and top(1) == 0


def test_a_deal_compares_seat_with_seat_across_tables() -> None:
    assert deal_matchpoints(DEAL_0) == {1: [3, 3, 3], 2: [3, 3, 3], 3: [0, 6, 6], 4: [6, 0, 0]}
    assert deal_matchpoints(DEAL_1) == {1: [4, 2, 2], 2: [4, 2, 2], 3: [4, 2, 2], 4: [0, 6, 6]}


def test_standings_total_the_matchpoints_as_a_percentage_of_the_tops() -> None:
    lines = {(r.table, r.seat): r for r in standings(PLAYERS, [DEAL_0, DEAL_1])}
    # by hand: seat 0 of table 1 has 3 + 4 = 7 of 6 + 6 = 12
    assert (lines[(1, 0)].matchpoints, lines[(1, 0)].top, lines[(1, 0)].percent) == (7, 12, 58.33)
    assert (lines[(3, 0)].matchpoints, lines[(3, 0)].percent) == (4, 33.33)
    assert (lines[(4, 0)].matchpoints, lines[(4, 0)].percent) == (6, 50.0)
    assert (lines[(3, 1)].matchpoints, lines[(3, 1)].percent) == (8, 66.67)
    assert (lines[(1, 2)].matchpoints, lines[(1, 2)].percent) == (5, 41.67)
    ordered = standings(PLAYERS, [DEAL_0, DEAL_1])
    assert [r.percent for r in ordered] == sorted((r.percent or 0.0 for r in ordered), reverse=True)
    assert ordered[0].name in ("T3S1", "T3S2")  # 66.67 %, the best line


def test_a_deal_not_every_table_finished_compares_the_finished_ones_only() -> None:
    partial = {1: [6, -3, -3], 2: [0, 0, 0]}  # tables 3 and 4 are still playing it
    lines = {(r.table, r.seat): r for r in standings(PLAYERS, [partial])}
    assert (lines[(1, 0)].matchpoints, lines[(1, 0)].top) == (2, 2)
    assert (lines[(2, 0)].matchpoints, lines[(2, 0)].top) == (0, 2)
    assert lines[(3, 0)].top == 0 and lines[(3, 0)].percent is None and lines[(3, 0)].deals == 0
    assert standings(PLAYERS, [])[0].percent is None  # nothing counted yet: no percentage at all
