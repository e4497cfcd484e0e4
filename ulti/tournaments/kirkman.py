"""Kirkman triple systems: every pair of ``v`` players (``v`` ≡ 3 mod 6) at one table exactly once.

A Kirkman triple system KTS(v) is ``(v - 1) / 2`` rounds of ``v / 3`` tables of three in which every
pair of players meets exactly once. Three constructions are used, each checked pair by pair:

- **Tripling** (KTS(v) gives KTS(3v)): the points are ``V × Z3``. Each table ``{a, b, c}`` of a round of
  KTS(v) gives three rounds' tables ``{(a, i), (b, i + s), (c, i - s)}`` (``s`` fixes the round, ``i`` the
  table); one more round seats ``{(a, 0), (a, 1), (a, 2)}``. From KTS(3) (one table) this is the affine
  geometry AG(k, 3): KTS(9), KTS(27), KTS(81); it also gives KTS(45) from KTS(15).
- **1-rotational** systems found by a seeded backtracking search: the points are ``Z_n`` (or
  ``Z_m × {0..s-1}``) and possibly a fixed point ∞; a few *base rounds* are searched such that their
  translates cover every orbit of pairs exactly once. With ``Z_2m`` and a base round fixed by ``+m``
  (cyclic, for v ≡ 3 or 9 mod 24), or ``Z_m × {0, 1}`` (m odd) and one base round, the search is
  small: the base round's pairs must meet every orbit of pairs once.
- KTS(21) is found with ``Z_5 × {0..3}`` and ∞: two base rounds, each developed into five rounds.
  KTS(69) the same way with ``Z_17 × {0..3}`` and ∞; as that search takes a minute, its two base rounds
  are tabled (``bases.py``) and developed (tests check the result pair by pair). So are the base rounds
  of KTS(87), KTS(99), KTS(105), KTS(111) and KTS(123), whose searches above take from seconds to minutes.
- KTS(9u) from a known KTS(3u) by tripling, for the numbers the above leave out (117, 189, ...).

``kirkman(v)`` returns the rounds (lists of sorted tables of player numbers ``0 .. v-1``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ulti.tournaments.bases import KIRKMAN_BASES

Table = tuple[int, int, int]
Round = list[Table]


def kirkman(v: int) -> list[Round]:
    """A Kirkman triple system on players ``0 .. v-1`` (``v`` ≡ 3 mod 6, at least 3), as rounds of tables.

    >>> rounds = kirkman(9)
    >>> len(rounds), [len(r) for r in rounds]
    (4, [3, 3, 3, 3])
    """
    if v < 3 or v % 6 != 3:
        raise ValueError(f"a Kirkman triple system needs a number of players that is 3 mod 6, not {v}")
    return [list(r) for r in _kirkman(v)]


def kirkman_known(v: int) -> bool:
    """Whether ``kirkman(v)`` can build a system of ``v`` players here (quickly, from a construction below).

    Every ``v`` ≡ 3 (mod 6) has one; the constructions here cover all of them up to 92 and most above
    (not 93, 141, 165, 213, ...: ``v`` ≡ 21 mod 24 that is neither tabled nor three times a known one).

    >>> [v for v in range(3, 100, 6) if not kirkman_known(v)]
    [93]
    """
    if v < 3 or v % 6 != 3:
        return False
    if v == 3 or v // 3 in _TRIPLED or v in KIRKMAN_BASES:
        return True
    try:
        _plan(v)
    except ValueError:
        return v % 9 == 0 and kirkman_known(v // 3)
    return True


@lru_cache(maxsize=64)
def _kirkman(v: int) -> tuple[tuple[Table, ...], ...]:
    if v == 3:
        return (((0, 1, 2),),)
    if v // 3 in _TRIPLED:
        return _freeze(triple(kirkman(v // 3)))
    if v in KIRKMAN_BASES:
        return _freeze(_develop(*KIRKMAN_BASES[v]))
    try:
        plan = _plan(v)
    except ValueError:
        if v % 9 == 0 and kirkman_known(v // 3):
            return _freeze(triple(kirkman(v // 3)))
        raise
    return _freeze(_rotational(plan))


_TRIPLED = {3, 9, 15, 21, 27}  # KTS(9), KTS(27), KTS(81) (the affine geometry AG(k, 3)), KTS(45), KTS(63)


def _develop(m: int, layers: int, bases: list[list[Table]]) -> list[Round]:
    """The rounds of a tabled system on ``Z_m × {0 .. layers-1}`` and ∞ (numbered ``m * layers``): each
    base round translated by every element of ``Z_m``, each distinct round once (a cyclic system's base
    round is fixed by the half turn ``+ m/2``, so its translates come twice)."""
    inf = m * layers
    rounds: list[Round] = []
    seen: set[frozenset[Table]] = set()
    for base in bases:
        for g in range(m):
            tables: Round = [_table(sorted(p if p == inf else (p % m + g) % m + m * (p // m) for p in t)) for t in base]
            key = frozenset(tables)
            if key not in seen:
                seen.add(key)
                rounds.append(tables)
    return rounds


def _table(points: list[int]) -> Table:
    a, b, c = points
    return (a, b, c)


def _freeze(rounds: list[Round]) -> tuple[tuple[Table, ...], ...]:
    return tuple(tuple(sorted(tuple(sorted(t)) for t in r)) for r in rounds)  # type: ignore[misc]


def triple(rounds: list[Round]) -> list[Round]:
    """KTS(3v) from KTS(v): player ``(a, i)`` of ``V × Z3`` is numbered ``3a + i``.

    >>> len(triple([[(0, 1, 2)]]))
    4
    """
    out: list[Round] = []
    for tables in rounds:
        for s in range(3):
            out.append([
                (3 * a + i, 3 * b + (i + s) % 3, 3 * c + (i - s) % 3) for a, b, c in tables for i in range(3)
            ])
    v = 3 * len(rounds[0])
    out.append([(3 * a, 3 * a + 1, 3 * a + 2) for a in range(v)])
    return out


@dataclass(frozen=True)
class Plan:
    """A 1-rotational search: points ``(x, i)`` numbered ``x + m*i`` for ``x`` in ``Z_m``, ``i < layers``,
    then ∞ (numbered ``m * layers``) when ``infinity``; ``base`` base rounds; ``half``: the translation
    (in ``Z_m``, one layer only) that fixes each base round (0 for none); a round is developed by the
    translations ``0 .. step_count - 1``."""

    m: int
    layers: int
    infinity: bool
    base: int
    half: int
    seed: int


def _plan(v: int) -> Plan:
    """The search that builds KTS(v) (v ≡ 3 mod 6, v not handled by tripling)."""
    r = (v - 1) // 2
    if v % 24 in (3, 9):  # cyclic Z_{v-1}, base round fixed by + (v-1)/2
        return Plan(v - 1, 1, True, 1, r, 1)
    if r % 2 == 1:  # Z_r × {0, 1} and ∞, r odd
        return Plan(r, 2, True, 1, 0, 3)  # seed 3: the quickest of the first few for 39 players
    if v == 21:
        return Plan(5, 4, True, 2, 0, 1)
    raise ValueError(f"no construction known here for a Kirkman triple system of {v} players")


def _rotational(plan: Plan) -> list[Round]:
    """Search the base rounds of ``plan`` (seeded restarts) and develop them into every round."""
    m, layers = plan.m, plan.layers
    n = m * layers + (1 if plan.infinity else 0)
    inf = m * layers if plan.infinity else -1

    def shift(p: int, g: int) -> int:
        if p == inf:
            return p
        return (p % m + g) % m + m * (p // m)

    steps = m // 2 if plan.half else m  # translations that give distinct rounds
    orbit = _pair_orbits(n, m, shift)
    rng = random.Random(plan.seed)
    for _ in range(10_000):
        found = _search(n, plan, orbit, shift, rng, budget=20_000)
        if found is not None:
            return [[tuple(sorted(shift(p, g) for p in t)) for t in base] for base in found for g in range(steps)]  # type: ignore[misc]
    raise RuntimeError(f"no 1-rotational Kirkman system found for {n} players")  # pragma: no cover


def _pair_orbits(n: int, m: int, shift: Callable[[int, int], int]) -> list[list[int]]:
    """``orbit[p][q]``: a number naming the orbit of the pair {p, q} under the translations of ``Z_m``."""
    orbit = [[-1] * n for _ in range(n)]
    count = 0
    for p in range(n):
        for q in range(p + 1, n):
            if orbit[p][q] >= 0:
                continue
            for g in range(m):
                a, b = shift(p, g), shift(q, g)
                orbit[a][b] = orbit[b][a] = count
            count += 1
    return orbit


def _search(
    n: int,
    plan: Plan,
    orbit: list[list[int]],
    shift: Callable[[int, int], int],
    rng: random.Random,
    budget: int,
    excluded: frozenset[int] = frozenset(),
    first: tuple[int, ...] = (),
) -> list[list[Table]] | None:
    """Backtrack base rounds whose pairs meet every pair orbit once (``None`` when ``budget`` nodes run out).

    Orbits in ``excluded`` are met by no table (a nearly Kirkman system leaves them out); the points of
    ``first`` are seated before the others (the fixed points, whose tables are the most constrained).
    """
    used_orbits: set[int] = set(excluded)
    order = [*first, *(x for x in range(n) if x not in first)]
    rounds: list[list[Table]] = [[] for _ in range(plan.base)]
    seated: list[set[int]] = [set() for _ in range(plan.base)]
    nodes = 0
    half = plan.half

    def place(k: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if len(seated[k]) == n:
            return k + 1 == plan.base or place(k + 1)
        p = next(x for x in order if x not in seated[k])
        free = [x for x in range(n) if x not in seated[k] and x != p]
        rng.shuffle(free)
        for i, q in enumerate(free):
            opq = orbit[p][q]
            if opq in used_orbits:
                continue
            for r in free[i + 1:]:
                opr, oqr = orbit[p][r], orbit[q][r]
                if oqr in used_orbits or opr in used_orbits:
                    continue
                table = (p, q, r)
                images = [table]
                distinct = 3
                if half:
                    image = tuple(shift(x, half) for x in table)
                    if set(image) == set(table):
                        distinct = 2  # the table of ∞, fixed by the half turn: {∞, x} and {∞, x + half} are one orbit
                    elif set(image) & (set(table) | seated[k]):
                        continue
                    else:
                        images.append(image)  # type: ignore[arg-type]
                if len({opq, opr, oqr}) < distinct:
                    continue
                new = {opq, opr, oqr}
                used_orbits.update(new)
                for t in images:
                    seated[k].update(t)
                    rounds[k].append(t)
                if place(k):
                    return True
                for t in images:
                    seated[k].difference_update(t)
                    rounds[k].pop()
                used_orbits.difference_update(new)
                if nodes > budget:
                    return False
        return False

    return rounds if place(0) else None
