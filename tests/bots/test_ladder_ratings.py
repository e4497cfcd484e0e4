"""The ladder's measured ratings (``ulti/bots/ladder_ratings.json``): every level in the file is a level,
every offered level has a rating, the offer is in rating order, and a player's rating chooses a level."""

from __future__ import annotations

import itertools
import json
from importlib import resources

import pytest

from ulti.bots.ladder_ratings import (
    OFFERED_LEVELS,
    RATINGS,
    LadderRatings,
    Measured,
    level_for_rating,
    parse_ratings,
)
from ulti.bots.levels import BOT_LEVELS, LEVELS


def test_every_level_in_the_ratings_file_is_a_level_and_every_offered_level_has_a_rating() -> None:
    assert set(RATINGS.levels) <= set(LEVELS)
    assert OFFERED_LEVELS and all(name in RATINGS.levels for name in OFFERED_LEVELS)
    for measured in RATINGS.levels.values():
        assert measured.low <= measured.rating <= measured.high and measured.matches > 0


def test_the_file_keeps_the_measuring_runs_keys_and_command() -> None:
    data = json.loads(resources.files("ulti.bots").joinpath("ladder_ratings.json").read_text(encoding="utf-8"))
    assert set(data) == {"command", "matches", "levels"}
    assert all(set(entry) == {"rating", "low", "high", "matches"} for entry in data["levels"].values())
    assert RATINGS.command.startswith("python -m ulti.lab.ladder_ratings") and RATINGS.matches >= 300


def test_the_ladder_is_offered_in_rating_order_and_strong_is_only_accepted() -> None:
    assert set(OFFERED_LEVELS) == {name for name, level in LEVELS.items() if level.offered}
    assert OFFERED_LEVELS[0] == "beginner" and OFFERED_LEVELS[-1] == "expert"
    ratings = [RATINGS.levels[name].rating for name in OFFERED_LEVELS]
    assert ratings == sorted(ratings)
    # the server still seats every level it ever seated (stored tables, the bot API, tests)
    assert set(OFFERED_LEVELS) < set(BOT_LEVELS)
    assert {"random", "heuristic", "strong"} <= set(BOT_LEVELS) - set(OFFERED_LEVELS)


def test_each_offered_levels_rating_interval_stands_apart_from_the_next_ones() -> None:
    # what the ladder promises a player choosing by rating: the next level up is measurably stronger
    offered = [RATINGS.levels[name] for name in OFFERED_LEVELS]
    assert all(lower.high < higher.low for lower, higher in itertools.pairwise(offered))


def test_a_file_missing_a_key_or_with_a_rating_of_another_type_is_refused() -> None:
    good = {"command": "c", "matches": 1, "levels": {"club": {"rating": 1, "low": 0, "high": 2, "matches": 1}}}
    assert parse_ratings(good).levels == {"club": Measured(1, 0, 2, 1)}
    for bad in ({"matches": 1, "levels": {}},
                {**good, "levels": {"club": {"rating": 1, "low": 0, "high": 2}}},
                {**good, "levels": {"club": {"rating": "1", "low": 0, "high": 2, "matches": 1}}},
                {**good, "levels": {"club": {"rating": True, "low": 0, "high": 2, "matches": 1}}},
                {**good, "command": 3}):
        with pytest.raises(ValueError, match="ladder's ratings"):
            parse_ratings(bad)


def test_a_provisional_player_a_newcomer_among_them_gets_the_lowest_rung() -> None:
    assert level_for_rating(1500, provisional=True) == "beginner"
    assert level_for_rating(1700, provisional=True) == "beginner"


def test_a_rated_player_gets_the_level_whose_rating_is_nearest_their_own() -> None:
    shown = {name: RATINGS.levels[name].rating for name in OFFERED_LEVELS}
    for name, rating in shown.items():
        assert level_for_rating(rating, provisional=False) == name
        assert level_for_rating(rating + 3, provisional=False) == name
    assert level_for_rating(min(shown.values()) - 300, provisional=False) == OFFERED_LEVELS[0]
    assert level_for_rating(max(shown.values()) + 400, provisional=False) == OFFERED_LEVELS[-1]


def test_a_rating_halfway_between_two_levels_gets_the_lower_one() -> None:
    ratings = LadderRatings("c", 1, {"casual": Measured(1400, 0, 0, 1), "club": Measured(1500, 0, 0, 1)})
    assert level_for_rating(1450, provisional=False, ratings=ratings, offered=("casual", "club")) == "casual"
    assert level_for_rating(1451, provisional=False, ratings=ratings, offered=("casual", "club")) == "club"
    # the file's own neighbours: the lower one up to halfway, the upper one past it
    for lower, upper in itertools.pairwise(OFFERED_LEVELS):
        low, high = RATINGS.levels[lower].rating, RATINGS.levels[upper].rating
        assert level_for_rating((low + high) // 2, provisional=False) == lower
        assert level_for_rating((low + high) // 2 + 1, provisional=False) == upper
