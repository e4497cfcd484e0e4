"""Puzzle ratings move the right way and a player is given a puzzle near their rating."""

from __future__ import annotations

import random
from typing import Any

from ulti.puzzles.ratings import Rating, attempt, expected_solve, pick


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = attempt(Rating(), Rating(), solved=True)
    assert player.mu > Rating().mu and puzzle.mu < Rating().mu
    assert player.sigma < Rating().sigma and puzzle.sigma < Rating().sigma


def test_failing_lowers_the_player_and_raises_the_puzzle() -> None:
    player, puzzle = attempt(Rating(), Rating(), solved=False)
    assert player.shown < 1500 < puzzle.shown


def test_beating_a_hard_puzzle_gains_more_than_an_easy_one() -> None:
    hard, easy = Rating(mu=30.0, sigma=4.0), Rating(mu=20.0, sigma=4.0)
    me = Rating(sigma=4.0)
    assert attempt(me, hard, True)[0].mu - me.mu > attempt(me, easy, True)[0].mu - me.mu
    assert expected_solve(me, easy) > 0.5 > expected_solve(me, hard)


def _puzzle(pid: str, shown: int) -> dict[str, Any]:
    mu = 25 + (shown - 1500) / 40
    return {"id": pid, "rating": {"mu": mu, "sigma": 8.333, "shown": shown}}


def test_pick_gives_an_unseen_puzzle_near_the_players_rating() -> None:
    puzzles = [_puzzle(f"p{r}", r) for r in range(900, 2500, 50)]
    player = Rating(mu=25 + (1700 - 1500) / 40)
    for seed in range(20):
        chosen = pick(player, puzzles, random.Random(seed), seen={"p1700"})
        assert chosen is not None and chosen["id"] != "p1700"
        assert abs(chosen["rating"]["shown"] - 1700) <= 150  # the five closest: 1650, 1750, 1600, 1800, 1550 or 1850
    assert pick(player, puzzles, random.Random(0), seen={p["id"] for p in puzzles}) is None
