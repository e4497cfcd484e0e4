"""Fixed schedules: everyone meets everyone, teams of three, and first rounds drawn at random or by rating.

A schedule is a list of rounds; a round a list of tables; a table a tuple of three seats, each a
player number (``0 .. N-1``, the order of registration or of the draw) or ``None`` for a bot.

Everyone meets everyone: with ``N`` ≡ 3 (mod 6) players, a Kirkman triple system (``kirkman.py``):
``(N - 1) / 2`` rounds, every pair at one table exactly once. For other ``N``, the players are seated
in the Kirkman system of the next ``N' ≥ N`` with ``N'`` ≡ 3 (mod 6) and its ``N' − N`` (at most five)
spare seats are bots: every pair of players still meets exactly once (never twice, none left out), in
``(N' − 1) / 2`` rounds. Seats a player cannot fill are always bots (not a four-player table).
That is the fewest rounds possible when ``N`` is 1, 2 or 3 mod 6 (``rounds_lower_bound``); when it
is 5 or 0 mod 6 the schedule takes one round more than the bound, when 4 mod 6 two more.

Teams of three (A, B, C): ``T`` teams are seated by the everyone-meets-everyone schedule of ``T``,
once per letter: the A players of three teams share a table while their B and C players share two
others, so in each round three teams meet on three tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ulti.tournaments.kirkman import kirkman

Seat = int | None
Table = tuple[Seat, Seat, Seat]
Round = list[Table]


def padded_size(players: int) -> int:
    """The smallest number ≥ ``players`` (and ≥ 3) that is 3 mod 6: the Kirkman system the players use.

    >>> padded_size(9), padded_size(10), padded_size(16), padded_size(2)
    (9, 15, 21, 3)
    """
    n = max(3, players)
    return n + (3 - n % 6) % 6


def rounds_lower_bound(players: int) -> int:
    """The fewest rounds in which every pair of ``players`` can meet at tables of three.

    Each player meets at most two others per round, and a round seats at most three pairs per table
    of three players (one pair at a table of two players and a bot).

    >>> [rounds_lower_bound(n) for n in (9, 13, 14, 16, 17, 18)]
    [4, 7, 7, 8, 9, 9]
    """
    pairs_per_round = 3 * (players // 3) + (1 if players % 3 == 2 else 0)
    pairs = players * (players - 1) // 2
    return max(-(-(players - 1) // 2), -(-pairs // pairs_per_round)) if players >= 2 else 0


def everyone_meets_everyone(players: int) -> list[Round]:
    """The rounds in which every pair of ``players`` sits at one table exactly once (bots in spare seats).

    >>> rounds = everyone_meets_everyone(10)
    >>> len(rounds), sum(seat is None for table in rounds[0] for seat in table)
    (7, 5)
    """
    if players < 1:
        raise ValueError("players: at least one player is needed")
    size = padded_size(players)
    return [
        [_seats(table, players) for table in tables] for tables in kirkman(size)
    ]


def _seats(table: tuple[int, int, int], players: int) -> Table:
    a, b, c = (p if p < players else None for p in table)
    return (a, b, c)


def drawn_round(players: int, seed: int) -> Round:
    """One round drawn at random (seeded): players shuffled, then seated three by three, bots last.

    >>> sorted(p for t in drawn_round(7, 1) for p in t if p is not None)
    [0, 1, 2, 3, 4, 5, 6]
    """
    order: list[Seat] = list(range(players))
    random.Random(seed).shuffle(order)
    return by_order(order)


def by_order(order: Sequence[Seat]) -> Round:
    """Tables of three in the given order (strongest first), the last table filled with bots.

    >>> by_order([4, 2, 0, 1])
    [(4, 2, 0), (1, None, None)]
    """
    seats = list(order) + [None] * (-len(order) % 3)
    return [(seats[i], seats[i + 1], seats[i + 2]) for i in range(0, len(seats), 3)]


def by_rating(ratings: Sequence[float]) -> Round:
    """The first round by rating: the highest rated three at table 1, and so on (ties by number)."""
    order = sorted(range(len(ratings)), key=lambda p: (-ratings[p], p))
    return by_order(order)


def team_rounds(teams: int) -> list[list[tuple[str, Table]]]:
    """Teams of three: per round, the tables of each letter as ``(letter, (team, team, team))``.

    A team ``None`` is a team of bots (when ``teams`` is not 3 mod 6). Team ``t``'s player of letter
    ``X`` sits at the ``X`` table that holds ``t``.

    >>> rounds = team_rounds(3)
    >>> rounds
    [[('A', (0, 1, 2)), ('B', (0, 1, 2)), ('C', (0, 1, 2))]]
    """
    return [
        [(letter, table) for table in tables for letter in "ABC"] for tables in everyone_meets_everyone(teams)
    ]


def pairs_met(rounds: Sequence[Sequence[Table]]) -> dict[tuple[int, int], int]:
    """How often each pair of players (not bots) sat at one table over ``rounds``.

    >>> pairs_met([[(0, 1, None)], [(0, 1, 2)]])
    {(0, 1): 2, (0, 2): 1, (1, 2): 1}
    """
    met: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            people = sorted(p for p in table if p is not None)
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    met[(a, b)] = met.get((a, b), 0) + 1
    return met
