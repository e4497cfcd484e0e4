"""Everyone meets everyone: every N from 9 to 60 checked pair by pair, and the Kirkman constructions."""

from __future__ import annotations

import itertools
import time

import pytest

from ulti.tournaments import kirkman as kirkman_module
from ulti.tournaments.kirkman import kirkman, triple
from ulti.tournaments.schedule import (
    by_rating,
    everyone_meets_everyone,
    padded_size,
    pairs_met,
    rounds_lower_bound,
    team_rounds,
)


@pytest.mark.parametrize("players", range(9, 61))
def test_everyone_meets_everyone_pair_by_pair(players: int) -> None:
    rounds = everyone_meets_everyone(players)
    met = pairs_met(rounds)
    for a, b in itertools.combinations(range(players), 2):
        assert met.get((a, b)) == 1, f"players {a} and {b} meet {met.get((a, b), 0)} times"
    for tables in rounds:
        seats = [p for table in tables for p in table]
        assert all(len(table) == 3 for table in tables)
        people = [p for p in seats if p is not None]
        assert sorted(people) == list(range(players))  # every player seated once per round
    if players % 6 == 3:
        assert len(rounds) == (players - 1) // 2
        assert all(p is not None for tables in rounds for table in tables for p in table)
    else:
        assert len(rounds) == (padded_size(players) - 1) // 2


@pytest.mark.parametrize("size", range(9, 58, 6))
def test_kirkman_system_is_built_in_seconds(size: int) -> None:
    kirkman_module._kirkman.cache_clear()
    started = time.perf_counter()
    rounds = kirkman(size)
    assert time.perf_counter() - started < 3.0
    seen: set[tuple[int, int]] = set()
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(size))
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in seen
                seen.add(pair)
    assert len(seen) == size * (size - 1) // 2


@pytest.mark.parametrize("players", range(9, 61))
def test_everyone_meets_everyone_takes_the_fewest_rounds_for_1_2_3_mod_6_and_at_most_two_more(players: int) -> None:
    extra = len(everyone_meets_everyone(players)) - rounds_lower_bound(players)
    assert extra == {1: 0, 2: 0, 3: 0, 5: 1, 0: 1, 4: 2}[players % 6]


def test_twenty_one_players_in_ten_rounds_of_seven_tables() -> None:
    rounds = kirkman(21)
    assert len(rounds) == 10 and all(len(r) == 7 for r in rounds)


def test_tripling_gives_the_affine_geometry_of_nine_points() -> None:
    rounds = triple(triple([[(0, 1, 2)]]))
    assert len(rounds) == 13 and len(set(pairs_met(rounds))) == 27 * 26 // 2


def test_a_number_that_is_not_3_mod_6_is_refused_by_kirkman() -> None:
    with pytest.raises(ValueError, match="3 mod 6"):
        kirkman(12)


def test_team_rounds_seat_each_letter_with_its_letter_and_every_two_teams_meet_once() -> None:
    rounds = team_rounds(9)
    assert len(rounds) == 4
    met: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for letter in "ABC":
            teams = sorted(t for lt, table in tables if lt == letter for t in table if t is not None)
            assert teams == list(range(9))  # every team's letter-player seated once per round
        for lt, table in tables:
            if lt == "A":
                for pair in itertools.combinations(sorted(t for t in table if t is not None), 2):
                    met[pair] = met.get(pair, 0) + 1
    assert set(met.values()) == {1} and len(met) == 36


def test_first_round_by_rating_seats_the_highest_rated_together() -> None:
    assert by_rating([1500, 1900, 1700, 1800, 1600]) == [(1, 3, 2), (4, 0, None)]
