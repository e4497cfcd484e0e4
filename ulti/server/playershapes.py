"""The shapes of a player's page and of the leaderboard, typed (docs/protocol/players.md §21).

The values are built by ``player_routes.py`` from the store's sums (``ulti.store.players``); here are
only the types.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Rating(TypedDict):
    """A rating as shown: the newcomer's 1500 for a player never rated, provisional for the first matches."""

    value: int
    provisional: bool


class RatingPoint(TypedDict):
    """The rating after one rated match, and when it finished (ms)."""

    at: int
    value: int


class ProfileRating(Rating):
    """A player page's rating: with the number of rated matches and its history, oldest first."""

    rated_matches: int
    history: list[RatingPoint]


class Side(TypedDict):
    """The deals a player declared (or defended), their points, and the average (None without deals)."""

    deals: int
    points: int
    average: float | None


class ContractCounts(TypedDict):
    """One contract family from the player's side: declared, made, kontrad, kontras given and won."""

    part: str
    declared: int
    made: int
    kontrad: int
    kontra_given: int
    kontra_won: int


class Stats(TypedDict):
    """A player's summed statistics."""

    deals: int
    declarer: Side
    defender: Side
    contracts: list[ContractCounts]


class MatchPlayer(TypedDict):
    """A seat of a recent match."""

    seat: int
    name: str
    bot: bool
    total: int
    rank: int
    left: bool


class RecentMatchJson(TypedDict):
    """One of a player's last matches, with the link to its replay."""

    table_id: str
    finished_at: int
    rated: bool
    seat: int
    total: int
    rank: int
    won: bool
    left: bool
    rating_before: int | None
    rating_after: int | None
    rating_change: int | None
    replay: str
    players: list[MatchPlayer]


class Played(TypedDict):
    """Matches played and won."""

    played: int
    won: int


class Matches(TypedDict):
    """A player's rated and casual matches, and the last ones."""

    rated: Played
    casual: Played
    recent: list[RecentMatchJson]


class Profile(TypedDict):
    """The body of ``GET /api/players/{name}``."""

    name: str
    bot: bool
    rating: ProfileRating
    matches: Matches
    stats: Stats
    rank: int | None


class BoardRow(TypedDict):
    """One row of the leaderboard (``account``: in ``me`` only, whether the asker has an account)."""

    rank: int | None
    name: str
    rating: int
    provisional: bool
    bot: bool
    matches: int
    account: NotRequired[bool]


class Leaderboard(TypedDict):
    """The body of ``GET /api/leaderboard``: the top rows, and the asker's own (None without a session)."""

    players: list[BoardRow]
    me: BoardRow | None
