"""Fixed schedules: everyone meets everyone, teams of three, and first rounds drawn at random or by rating.

A schedule is a list of rounds; a round a list of tables; a table a tuple of three seats, each a
player number (``0 .. N-1``, the order of registration or of the draw) or ``None`` for a bot.

Everyone meets everyone: every pair of players sits at one table exactly once (never twice, none left
out), in the fewest rounds possible (``rounds_lower_bound``), seats no player can fill taken by bots:

- ``N`` ≡ 3 (mod 6): a Kirkman triple system KTS(N) (``kirkman.py``), ``(N − 1) / 2`` rounds, no bot.
- ``N`` ≡ 1 or 2 (mod 6): KTS(N + 2) or KTS(N + 1) with the two or one highest numbers played by bots.
- ``N`` ≡ 0, 5 or 4 (mod 6): a nearly Kirkman system NKTS(v) (``nearly.py``) with ``v`` = N, N + 1 or
  N + 2, its left-out pairs seated as a last round (each pair with a bot), and the one or two highest
  numbers (its two fixed points, themselves a left-out pair) played by bots.

- 4, 10 and 11 players (whose nearly Kirkman systems of 6 and 12 do not exist): a schedule at the
  bound found by a seeded search (``small.py``).

That is the bound for every ``N`` from 7 to 69 but 12 (the tables reach ``v`` ≤ 66 for the nearly
systems, KTS up to 92 and beyond, ``kirkman_known``). 12 players take one round more, 5 and 6 too,
and that is the fewest possible for them with every pair meeting once (tests/tournaments prove it: for
12, from the nonexistence of NKTS(12) and a search); so does any
``N`` past the tables: it falls back to the smallest Kirkman system built here with at least ``N``
players (bots in its spare seats). A
round's tables hold three players, two and a bot, or (one round in ``N`` ≡ 5) one and two bots, so a
round may need more tables than ``N / 3``; the rounds with the most bots come last.

Teams of three (A, B, C): ``T`` teams are seated by the everyone-meets-everyone schedule of ``T``,
once per letter: the A players of three teams share a table while their B and C players share two
others, so in each round three teams meet on three tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ulti.tournaments.bases import NEARLY_BASES
from ulti.tournaments.fours import table_sizes
from ulti.tournaments.kirkman import kirkman, kirkman_known
from ulti.tournaments.nearly import nearly_kirkman
from ulti.tournaments.small import SEARCHED, searched_schedule

Seat = int | None
Table = tuple[Seat, Seat, Seat]
Round = list[Table]
Seating = list[tuple[Seat, ...]]  # a round that may seat tables of four (``fours.py``)


def padded_size(players: int) -> int:
    """The smallest number ≥ ``players`` (and ≥ 3) that is 3 mod 6: the Kirkman system the players use.

    >>> padded_size(9), padded_size(10), padded_size(16), padded_size(2)
    (9, 15, 21, 3)
    """
    n = max(3, players)
    return n + (3 - n % 6) % 6


def rounds_lower_bound(players: int) -> int:
    """The fewest rounds in which every pair of ``players`` can meet at tables of three (bots fill seats).

    A player meets at most two others a round, so over ``R`` rounds a player falls short of ``2R`` by
    a *slack* ``2R − (N − 1)``: one for each round at a table with one other player, or one more
    meeting again someone already met, two for a round with no one new. Hence ``R ≥ (N − 1) / 2``,
    and the bound is sharper where the tables cannot all be full:

    - ``N`` odd, 1 or 2 (mod 3): with ``R = (N − 1) / 2`` there is no slack, so every round would
      seat everyone three to a table of players only, which ``N`` not divisible by three forbids:
      ``(N + 1) / 2``.
    - ``N`` ≡ 4 (mod 6): with ``R = N / 2`` everyone has slack 1, so no one may sit alone; as ``N`` ≡ 1
      (mod 3), every round seats at least four players at tables of two (or with repeats), each
      spending their only slack: ``4R = 2N`` slacks where there are ``N``. So ``N / 2 + 1``.
    - Otherwise ``ceil((N − 1) / 2)``.

    >>> [rounds_lower_bound(n) for n in (9, 13, 14, 16, 17, 18)]
    [4, 7, 7, 9, 9, 9]
    """
    if players < 2:
        return 0
    if players % 2:
        return (players - 1) // 2 if players % 3 == 0 else (players + 1) // 2
    return players // 2 + (1 if players % 6 == 4 else 0)


def everyone_meets_everyone(players: int) -> list[Round]:
    """The rounds in which every pair of ``players`` sits at one table exactly once (bots in spare seats).

    >>> rounds = everyone_meets_everyone(10)
    >>> len(rounds), sum(seat is None for table in rounds[0] for seat in table)
    (6, 2)
    >>> rounds = everyone_meets_everyone(16)
    >>> len(rounds), rounds[-1][:2]
    (9, [(0, 2, None), (1, 3, None)])
    """
    if players < 1:
        raise ValueError("players: at least one player is needed")
    v = players + {0: 0, 5: 1, 4: 2}.get(players % 6, 0)
    if players in SEARCHED:
        rounds: list[list[tuple[int | None, ...]]] = [
            [(*group, *[None] * (3 - len(group))) for group in groups]
            for groups in searched_schedule(players, SEARCHED[players])
        ]
    elif players % 6 in (0, 4, 5) and v in NEARLY_BASES:
        tables, left_out = nearly_kirkman(v)
        rounds = [[*r] for r in tables]
        rounds.append([(a, b, None) for a, b in left_out])
    else:
        size = padded_size(players)
        while not kirkman_known(size):
            size += 6
        rounds = [list(r) for r in kirkman(size)]
    seated = [[_seats(table, players) for table in tables] for tables in rounds]
    seated = [[t for t in tables if any(p is not None for p in t)] for tables in seated]
    return sorted(seated, key=lambda tables: sum(p is None for t in tables for p in t))  # most bots last


def _seats(table: tuple[int | None, ...], players: int) -> Table:
    """A table with the seats of numbers ``players`` and above (and the bots already there) as bots."""
    a, b, c = (p if p is not None and p < players else None for p in table)
    return (a, b, c)


def drawn_round(players: int, seed: int, four_tables: bool = False) -> Seating:
    """One round drawn at random (seeded): players shuffled, then seated three by three, bots last
    (or, with ``four_tables``, the last one or two tables seating four).

    >>> sorted(p for t in drawn_round(7, 1) for p in t if p is not None)
    [0, 1, 2, 3, 4, 5, 6]
    """
    order: list[Seat] = list(range(players))
    random.Random(seed).shuffle(order)
    return by_order(order, four_tables)


def by_order(order: Sequence[Seat], four_tables: bool = False) -> Seating:
    """Tables of three in the given order (strongest first), the last table filled with bots (or, with
    ``four_tables``, the last one or two tables seating four players).

    >>> by_order([4, 2, 0, 1])
    [(4, 2, 0), (1, None, None)]
    >>> by_order([4, 2, 0, 1], four_tables=True)
    [(4, 2, 0, 1)]
    """
    sizes = table_sizes(len(order), four_tables)
    seats = list(order) + [None] * (sum(sizes) - len(order))
    starts = [sum(sizes[:t]) for t in range(len(sizes))]
    return [tuple(seats[s:s + w]) for s, w in zip(starts, sizes, strict=True)]


def by_rating(ratings: Sequence[float], four_tables: bool = False) -> Seating:
    """The first round by rating: the highest rated three at table 1, and so on (ties by number)."""
    order = sorted(range(len(ratings)), key=lambda p: (-ratings[p], p))
    return by_order(order, four_tables)


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


def pairs_met(rounds: Sequence[Sequence[Sequence[Seat]]]) -> dict[tuple[int, int], int]:
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
