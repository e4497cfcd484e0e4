"""Everyone meets everyone for a few small numbers of players, found by a seeded search.

The constructions of ``schedule.py`` miss the fewest rounds for 4, 10 and 11 players (they would need
a nearly Kirkman system of 6 or 12 players, which does not exist). A direct search finds schedules
at the bound for them: rounds are built one at a time, each by seating the lowest unseated player
alone, with one or with two players they have not met, pruned so that no player is left with more
unmet players than two per remaining round, with seeded restarts when a node budget runs out. It
finds each in its first attempt, within seconds; tests check every pair meets exactly once.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

Group = tuple[int, ...]  # the players at one table (one, two or three; bots take the other seats)

SEARCHED = {4: 3, 10: 6, 11: 6}  # players -> the fewest rounds (``schedule.rounds_lower_bound``)


def searched_schedule(players: int, rounds: int, seed: int = 0, budget: int = 200_000) -> list[list[Group]]:
    """Rounds in which every pair of ``players`` meets exactly once (ValueError when none is found).

    >>> [len(r) for r in searched_schedule(4, 3)]
    [2, 2, 2]
    """
    return [list(r) for r in _searched(players, rounds, seed, budget)]


@lru_cache(maxsize=16)
def _searched(players: int, rounds: int, seed: int, budget: int) -> tuple[tuple[Group, ...], ...]:
    for attempt in range(seed, seed + 1000):
        found = _search(players, rounds, random.Random(attempt), budget)
        if found is not None:
            return tuple(tuple(r) for r in found)
    raise ValueError(f"no schedule of {rounds} rounds found for {players} players")  # pragma: no cover


def _search(n: int, total: int, rng: random.Random, budget: int) -> list[list[Group]] | None:
    """One attempt: ``None`` when ``budget`` nodes run out or there is none."""
    unmet = [set(range(n)) - {p} for p in range(n)]
    rounds: list[list[Group]] = []
    nodes = 0

    def fill(r: int, seated: set[int], tables: list[Group]) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        left = total - r - 1  # rounds after this one
        if len(seated) == n:
            rounds.append(list(tables))
            if left == 0 and not any(unmet):
                return True
            if left > 0 and fill(r + 1, set(), []):
                return True
            rounds.pop()
            return False
        p = next(x for x in range(n) if x not in seated)
        mates = [q for q in unmet[p] if q not in seated]
        rng.shuffle(mates)
        options: list[Group] = [(p, q, s) for i, q in enumerate(mates) for s in mates[i + 1:] if s in unmet[q]]
        options += [(p, q) for q in mates] + [(p,)]
        for table in options:
            if any(len(unmet[x]) - (len(table) - 1) > 2 * left for x in table):
                continue  # someone could no longer meet everyone in the rounds left
            pairs = list(combinations(table, 2))
            for a, b in pairs:
                unmet[a].discard(b)
                unmet[b].discard(a)
            seated.update(table)
            tables.append(table)
            if fill(r, seated, tables):
                return True
            tables.pop()
            seated.difference_update(table)
            for a, b in pairs:
                unmet[a].add(b)
                unmet[b].add(a)
            if nodes > budget:
                return False
        return False

    return rounds if fill(0, set(), []) else None
