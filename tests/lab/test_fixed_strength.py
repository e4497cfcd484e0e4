"""Fixed-strength fit: Plackett-Luce skills fitted at once from ranked matches."""

from __future__ import annotations

import random

from ulti.lab.fixed_strength import Ranked, first_place_odds, fit, orderings


def sampled_matches(true: dict[str, float], count: int, rng: random.Random) -> list[Ranked]:
    """``count`` matches of three of ``true``'s players, each finishing order drawn from the model."""
    matches: list[Ranked] = []
    for _ in range(count):
        players = rng.sample(sorted(true), 3)
        left, order = list(players), []
        while left:
            pick = rng.choices(left, weights=first_place_odds(true, left))[0]
            order.append(pick)
            left.remove(pick)
        matches.append((players, [order.index(p) + 1 for p in players]))
    return matches


def test_the_fit_recovers_the_skills_the_matches_were_drawn_from() -> None:
    true = {"a": 30.0, "b": 27.0, "c": 23.0, "d": 20.0}  # mean 25, the newcomer's
    fitted = fit(sampled_matches(true, 2000, random.Random(1)))
    for player, mu in true.items():
        assert abs(fitted[player] - mu) < 1.0, (player, fitted[player])
    assert sorted(fitted, key=fitted.__getitem__) == ["d", "c", "b", "a"]


def test_a_tie_counts_as_both_orders_so_two_always_tied_players_fit_equal() -> None:
    tied: Ranked = (["a", "b", "c"], [1, 1, 3])
    beaten: Ranked = (["c", "a", "b"], [1, 2, 2])
    matches = [tied] * 20 + [beaten] * 5
    fitted = fit(matches)
    assert abs(fitted["a"] - fitted["b"]) < 1e-6
    assert fitted["a"] > fitted["c"]
    assert abs(sum(weight for _, weight in orderings(["a", "b", "c"], [1, 1, 1])) - 1) < 1e-12


def test_a_player_that_never_placed_above_another_still_has_a_finite_skill() -> None:
    fitted = fit([(["a", "b", "c"], [1, 2, 3])] * 30)
    assert fitted["a"] > fitted["b"] > fitted["c"] > -1e6
