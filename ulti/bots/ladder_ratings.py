"""The ladder's measured ratings, and which level a person of a given rating is offered.

The ratings are data, ``ladder_ratings.json`` beside this module: a measuring run
(``python -m ulti.lab.ladder_ratings``: rated matches among the levels, rated as the site rates people)
writes it, with the command that measured it, so the page can show beside each level the number a player
compares their own rating with. The levels offered to people are those of ``levels.LEVELS`` marked
``offered``, in the order of their ratings (lowest first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ulti.bots.levels import LEVELS

#: where the measured ratings live, inside this package (shipped with it: pyproject's package data)
RATINGS_FILE = "ladder_ratings.json"


@dataclass(frozen=True)
class Measured:
    """One level's rating as measured: the rating, its 95% interval (``low``..``high``) and its matches."""

    rating: int
    low: int
    high: int
    matches: int


@dataclass(frozen=True)
class LadderRatings:
    """A measuring run: its ``command``, how many ``matches`` it played, and each level's rating by name."""

    command: str
    matches: int
    levels: dict[str, Measured]


def parse_ratings(data: Any) -> LadderRatings:
    """The ratings of the file's JSON form ``{"command", "matches", "levels": {name: {"rating", "low",
    "high", "matches"}}}``; a missing key or a value of another type raises ``ValueError``.

    >>> club = {"rating": 1565, "low": 1435, "high": 1626, "matches": 2}
    >>> parse_ratings({"command": "c", "matches": 3, "levels": {"club": club}}).levels["club"].rating
    1565
    """
    try:
        levels = {
            str(name): Measured(*(_int(entry[key]) for key in ("rating", "low", "high", "matches")))
            for name, entry in data["levels"].items()
        }
        if not isinstance(data["command"], str):
            raise TypeError("command must be a string")
        return LadderRatings(data["command"], _int(data["matches"]), levels)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{RATINGS_FILE} is not a ladder's ratings: {exc!r}") from None


def _int(value: Any) -> int:
    # a bool is an int to Python, never a rating
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not an integer")
    return value


def load_ratings() -> LadderRatings:
    """The ratings shipped in the package (``ladder_ratings.json``)."""
    text = resources.files("ulti.bots").joinpath(RATINGS_FILE).read_text(encoding="utf-8")
    return parse_ratings(json.loads(text))


#: the last measured run
RATINGS = load_ratings()


def offered_in_order(offered: list[str], ratings: LadderRatings) -> tuple[str, ...]:
    """``offered`` from the lowest rating up; a level without a rating last (a test holds there is none)."""
    return tuple(sorted(offered, key=lambda name: (name not in ratings.levels, _rating_or_zero(ratings, name))))


def _rating_or_zero(ratings: LadderRatings, name: str) -> int:
    measured = ratings.levels.get(name)
    return 0 if measured is None else measured.rating


#: The levels offered to people (the lobby's seats, Play now, events and tournaments), lowest rating first.
OFFERED_LEVELS: tuple[str, ...] = offered_in_order([name for name, level in LEVELS.items() if level.offered], RATINGS)


def level_for_rating(rating: int, provisional: bool, ratings: LadderRatings = RATINGS,
                     offered: tuple[str, ...] = OFFERED_LEVELS) -> str:
    """The offered level whose rating is nearest a player's shown ``rating``; a tie goes to the lower level.

    A ``provisional`` rating (a newcomer's 1500, or too few rated matches to trust) gets the lowest rung:
    a person new to the site meets the gentlest opponents first, and may always choose another in the lobby.

    >>> ladder = LadderRatings("c", 1, {"beginner": Measured(1430, 0, 0, 1), "club": Measured(1500, 0, 0, 1)})
    >>> offer = ("beginner", "club")
    >>> level_for_rating(1500, True, ladder, offer), level_for_rating(1470, False, ladder, offer)
    ('beginner', 'club')
    """
    rated = [name for name in offered if name in ratings.levels]
    if provisional:
        return rated[0]
    # offered is in rating order and min keeps the first of equals: a tie goes to the lower level
    return min(rated, key=lambda name: abs(ratings.levels[name].rating - rating))
