"""Ratings: ranks from a match's totals (ties shared, leavers last) and the openskill update."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ulti.accounts.ratings import (
    NEWCOMER,
    PROVISIONAL_MATCHES,
    Skill,
    is_provisional,
    match_ranks,
    rate_match,
    shown_rating,
)

totals = st.lists(st.integers(-500, 500), min_size=3, max_size=3)
lefts = st.lists(st.booleans(), min_size=3, max_size=3)


@given(totals, lefts)
def test_a_seat_that_left_ranks_below_every_seat_that_stayed(points: list[int], left: list[bool]) -> None:
    ranks = match_ranks(points, left)
    for a in range(3):
        for b in range(3):
            if left[a] and not left[b]:
                assert ranks[a] > ranks[b]
            if left[a] and left[b]:
                assert ranks[a] == ranks[b]


@given(totals)
def test_ranks_follow_the_totals_and_ties_share_a_rank(points: list[int]) -> None:
    ranks = match_ranks(points, [False] * 3)
    for a in range(3):
        for b in range(3):
            assert (points[a] > points[b]) == (ranks[a] < ranks[b])
            assert (points[a] == points[b]) == (ranks[a] == ranks[b])
    assert min(ranks) == 1


def test_the_update_is_openskills_plackett_luce_computed_directly() -> None:
    skills = [Skill(27.1, 6.2), Skill(24.0, 8.0), NEWCOMER]
    ranks = match_ranks([14, -2, -12], [False, False, False])
    model = PlackettLuce()
    direct = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills], ranks=[1, 2, 3])
    assert rate_match(skills, ranks) == [Skill(team[0].mu, team[0].sigma) for team in direct]


def test_the_winner_gains_the_last_loses_and_tied_equals_move_alike() -> None:
    first, second, third = rate_match([NEWCOMER] * 3, [1, 2, 3])
    assert first.mu > second.mu > third.mu and first.mu > NEWCOMER.mu > third.mu
    assert first.sigma < NEWCOMER.sigma
    a, b, c = rate_match([NEWCOMER] * 3, match_ranks([6, 6, -12], [False] * 3))
    assert a == b and a.mu > NEWCOMER.mu > c.mu


def test_a_newcomer_shows_1500_and_is_provisional_until_ten_rated_matches() -> None:
    assert NEWCOMER.shown == shown_rating(25.0) == 1500
    assert shown_rating(27.0) == 1580 and shown_rating(22.5) == 1400
    assert [is_provisional(n) for n in (0, PROVISIONAL_MATCHES - 1, PROVISIONAL_MATCHES)] == [True, True, False]
