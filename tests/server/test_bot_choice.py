"""The level chosen for bots nobody chose (``ulti.server.bot_choice``): a seek's free seats and an away
player's stand-in play at the ladder's level nearest the people's settled ratings, the lowest rung for
newcomers."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ulti.accounts.ratings import SCALE_FACTOR, SCALE_ORIGIN
from ulti.bots.ladder_ratings import OFFERED_LEVELS, RATINGS
from ulti.server.bot_choice import level_for_players
from ulti.server.hub import Hub


def mu_showing(rating: int) -> float:
    """The mu whose shown rating is ``rating``."""
    return 25.0 + (rating - SCALE_ORIGIN) / SCALE_FACTOR


class Ratings:
    """A store's ratings: player id -> (mu, rated matches)."""

    def __init__(self, rows: dict[str, tuple[float, int]]) -> None:
        self.rows = rows

    async def rating_of(self, player_id: str) -> tuple[float, int] | None:
        return self.rows.get(player_id)


LOWEST = OFFERED_LEVELS[0]
CLUB, EXPERT = RATINGS.levels["club"].rating, RATINGS.levels["expert"].rating


@pytest.mark.asyncio
async def test_newcomers_and_unrated_players_get_the_lowest_rung() -> None:
    store = Ratings({"new": (mu_showing(EXPERT + 50), 9)})  # strong so far, but provisional
    assert await level_for_players(store, []) == LOWEST
    assert await level_for_players(store, ["never rated"]) == LOWEST
    assert await level_for_players(store, ["new", "never rated"]) == LOWEST


@pytest.mark.asyncio
async def test_a_settled_rating_gets_the_nearest_level_and_a_provisional_one_is_left_out() -> None:
    store = Ratings({"club": (mu_showing(CLUB + 4), 40), "expert": (mu_showing(EXPERT + 9), 12),
                     "new": (mu_showing(EXPERT + 200), 3)})
    assert await level_for_players(store, ["club"]) == "club"
    assert await level_for_players(store, ["expert", "new"]) == "expert"
    assert await level_for_players(store, ["new", "club"]) == "club"


@pytest.mark.asyncio
async def test_a_group_gets_the_level_nearest_its_mean_rating() -> None:
    high, low = EXPERT + 10, 2 * CLUB - EXPERT - 10  # their mean is club's rating exactly
    store = Ratings({"a": (mu_showing(high), 20), "b": (mu_showing(low), 20)})
    assert await level_for_players(store, ["a"]) == "expert"
    assert await level_for_players(store, ["a", "b"]) == "club"


class Broken:
    """A store whose ratings cannot be read."""

    async def rating_of(self, player_id: str) -> tuple[float, int] | None:
        raise OSError("disk gone")


@pytest.mark.asyncio
async def test_a_failed_ratings_read_costs_the_choice_not_the_table() -> None:
    host = SimpleNamespace(store=Broken())
    assert await Hub.level_for_people(host, ["p1"]) == LOWEST  # type: ignore[arg-type]
    host.store = Ratings({"p1": (mu_showing(EXPERT), 30)})
    assert await Hub.level_for_people(host, ["p1"]) == "expert"  # type: ignore[arg-type]
