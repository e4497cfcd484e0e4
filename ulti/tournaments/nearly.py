"""Nearly Kirkman triple systems: every pair of ``v`` players (``v`` ≡ 0 mod 6) but one perfect matching.

A nearly Kirkman triple system NKTS(v) is ``(v - 2) / 2`` rounds of ``v / 3`` tables of three in which
every pair of players meets exactly once, except the pairs of one perfect matching (the *left-out
pairs*), which never meet. It exists for every ``v`` ≡ 0 (mod 6) from 18 on, and not for 6 or 12.
Seating the left-out pairs as one more round (each pair at a table with a bot) makes every pair meet
exactly once in ``v / 2`` rounds, the fewest possible for ``v`` players (``schedule.rounds_lower_bound``).

The construction is 1-rotational, found by the seeded search of ``kirkman.py``: with ``m = (v - 2) / 2``,
the points are ``Z_m × {0, 1}`` (``(x, i)`` numbered ``x + m*i``) and two fixed points ∞1, ∞2
(numbered ``2m`` and ``2m + 1``). One base round is searched whose pairs meet every orbit of pairs
under the translations of ``Z_m`` once, except the orbits of the left-out matching: {∞1, ∞2} and, when
``m`` is odd, the pairs ``{(x, 0), (x, 1)}``; when ``m`` is even, the pairs ``{(x, i), (x + m/2, i)}``
(those orbits are half as long, so no translated round could meet them once each). The base round's
``m`` translates are the rounds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from ulti.tournaments.bases import NEARLY_BASES
from ulti.tournaments.kirkman import Plan, Round, Table, _pair_orbits, _search

Pair = tuple[int, int]


def nearly_kirkman(v: int) -> tuple[list[Round], list[Pair]]:
    """A nearly Kirkman triple system on players ``0 .. v-1`` and its left-out pairs (sorted).

    >>> rounds, left_out = nearly_kirkman(18)
    >>> len(rounds), {len(r) for r in rounds}, len(left_out)
    (8, {6}, 9)
    """
    if v < 18 or v % 6:
        raise ValueError(f"a nearly Kirkman triple system needs a number of players that is 0 mod 6 and"
                         f" at least 18, not {v}")
    rounds, left_out = _nearly(v)
    return [list(r) for r in rounds], list(left_out)


def left_out_pairs(v: int, layers: int = 2) -> list[Pair]:
    """The perfect matching the system of ``v`` players on ``layers`` layers leaves out (module docstring).

    >>> left_out_pairs(18, 4)[:3], left_out_pairs(24)[:2]
    ([(0, 2), (1, 3), (4, 6)], [(0, 11), (1, 12)])
    """
    m = (v - 2) // layers
    if m % 2:  # {(x, 2j), (x, 2j + 1)}: layers are paired
        pairs = [(x + m * i, x + m * (i + 1)) for i in range(0, layers, 2) for x in range(m)]
    else:  # {(x, i), (x + m/2, i)}: the short orbits
        pairs = [(x + m * i, x + m * i + m // 2) for i in range(layers) for x in range(m // 2)]
    return sorted([*pairs, (m * layers, m * layers + 1)])


def search_base_rounds(v: int, layers: int, seed: int = 1) -> list[list[Table]]:
    """Search the base rounds of NKTS(v) on ``layers`` layers (``layers // 2`` of them; seeded restarts).

    This is how ``bases.NEARLY_BASES`` was found; it takes from milliseconds to about a minute.

    >>> len(search_base_rounds(24, 2)), len(search_base_rounds(18, 4))
    (1, 2)
    """
    m = (v - 2) // layers
    fixed = m * layers
    shift = _shifter(m, fixed)
    orbit = _pair_orbits(v, m, shift)
    excluded = frozenset(orbit[a][b] for a, b in left_out_pairs(v, layers))
    plan = Plan(m, layers, False, layers // 2, 0, seed)
    rng = random.Random(seed)
    for _ in range(100_000):
        found = _search(v, plan, orbit, shift, rng, budget=20_000, excluded=excluded, first=(fixed, fixed + 1))
        if found is not None:
            return found
    raise RuntimeError(f"no 1-rotational nearly Kirkman system found for {v} players")  # pragma: no cover


def _shifter(m: int, fixed: int) -> Callable[[int, int], int]:
    """Translation by ``g`` of ``Z_m`` on every layer; the points from ``fixed`` on stay put."""

    def shift(p: int, g: int) -> int:
        return p if p >= fixed else (p % m + g) % m + m * (p // m)

    return shift


def develop(v: int, layers: int, bases: Sequence[Sequence[Sequence[int]]]) -> list[Round]:
    """The rounds of NKTS(v): every translate of every base round, tables sorted.

    >>> rounds = develop(24, 2, search_base_rounds(24, 2))
    >>> len(rounds)
    11
    """
    m = (v - 2) // layers
    shift = _shifter(m, m * layers)
    return [
        sorted(tuple(sorted(shift(p, g) for p in t)) for t in base)  # type: ignore[misc]
        for base in bases for g in range(m)
    ]


@lru_cache(maxsize=32)
def _nearly(v: int) -> tuple[tuple[tuple[Table, ...], ...], tuple[Pair, ...]]:
    layers, bases = NEARLY_BASES[v]
    rounds = develop(v, layers, bases)
    return tuple(tuple(r) for r in rounds), tuple(left_out_pairs(v, layers))
