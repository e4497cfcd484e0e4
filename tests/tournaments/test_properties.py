"""Hypothesis properties: every player seated once per round at tables of three, in every format."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.tournaments.arena import arena_tables
from ulti.tournaments.schedule import by_order, drawn_round, everyone_meets_everyone
from ulti.tournaments.seating import moves, seat_by_standings


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=10**6))
def test_drawn_round_seats_every_player_once_at_tables_of_three(players: int, seed: int) -> None:
    tables = drawn_round(players, seed)
    assert all(len(t) == 3 for t in tables)
    assert sorted(p for t in tables for p in t if p is not None) == list(range(players))
    assert sum(p is None for t in tables for p in t) == -players % 3


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(20))).flatmap(
    lambda order: st.tuples(st.just(order), st.sets(st.tuples(st.integers(0, 19), st.integers(0, 19))))))
def test_standings_seating_seats_everyone_once_and_moves_no_one_more_than_a_table(
    case: tuple[list[int], set[tuple[int, int]]],
) -> None:
    order, pairs = case
    met = {(min(a, b), max(a, b)) for a, b in pairs if a != b}
    tables = seat_by_standings(order, met)
    assert all(len(t) == 3 for t in tables)
    assert sorted(p for t in tables for p in t if p is not None) == list(range(20))
    assert max(moves(order, tables).values()) <= 1


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=3, max_value=30))
def test_everyone_meets_everyone_never_seats_a_pair_twice(players: int) -> None:
    seen: set[tuple[int, int]] = set()
    for tables in everyone_meets_everyone(players):
        for table in tables:
            for pair in itertools.combinations(sorted(p for p in table if p is not None), 2):
                assert pair not in seen
                seen.add(pair)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(-20, 20)), max_size=20, unique_by=lambda x: x[0]))
def test_arena_seats_each_waiting_player_once_near_their_score(waiting: list[tuple[int, int]]) -> None:
    tables, still = arena_tables(waiting, {})
    seated = [p for t in tables for p in t]
    assert sorted([*seated, *still]) == sorted(p for p, _ in waiting)
    assert len(still) == len(waiting) % 3
    score = dict(waiting)
    ranked = sorted(score.values(), reverse=True)
    for i, table in enumerate(tables):  # with no rematch to avoid, a table is three neighbours in score
        assert sorted((score[p] for p in table), reverse=True) == ranked[3 * i:3 * i + 3]


def test_by_order_keeps_the_order_and_fills_with_bots() -> None:
    assert by_order([3, 1, 2, 0]) == [(3, 1, 2), (0, None, None)]


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["standings", "everyone", "duplicate"]), st.integers(min_value=4, max_value=11),
       st.integers(min_value=0, max_value=1000))
def test_every_prefix_of_a_played_log_replays_and_the_fold_is_deterministic(fmt: str, players: int, seed: int) -> None:
    from tests.tournaments.play import play_tournament
    from ulti.tournaments.log import replay
    from ulti.tournaments.standings import standings

    log, _ = play_tournament({"format": fmt, "rounds": 2, "seed": seed}, [{"name": f"P{n}"} for n in range(players)],
                             seed=seed)
    for end in range(1, len(log) + 1):
        state = replay(log[:end])
        assert all(sorted(p for t in r.tables for p in t if p is not None) == list(range(players))
                   for r in state.rounds)
    assert standings(replay(log)) == standings(replay(list(log)))
