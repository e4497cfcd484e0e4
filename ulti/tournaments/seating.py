"""Rounds seated by standings (social ulti): strongest together, avoiding repeat meetings.

The rule. Rank the players by the current standings (best first); when their number is not a
multiple of three, one or two bots take the last ranks (a bot never repeats: it has no history). The
one ranked ``r`` (from 0) has the *natural table* ``r // 3`` and may sit only at the natural table, the
one above it or the one below it: **a player moves at most one table**. Among all seatings that keep
this rule, the one chosen has

1. the fewest repeat meetings (pairs of players who already sat together in an earlier round), then
2. the least movement (the sum over players of how many tables they moved, 0 or 1),

and among equal ones, the first in rank order. So whenever any seating within one table's movement
avoids every repeat, the one chosen avoids every repeat (tests/tournaments check this against an
exhaustive search on small cases); with no history it is the plain order 1-2-3, 4-5-6, …

The search is exact and linear: tables are filled top down, and before table ``t`` every player of a
natural table up to ``t - 2`` is seated and no player of ``t + 1`` yet, so what matters of the past is
which three of the six seats of natural tables ``t - 1`` and ``t`` are taken (at most 20 states per
table), a dynamic programme over the tables.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations

from ulti.tournaments.schedule import Round, Seat, Table

Step = tuple[tuple[int, int], int, tuple[int, ...]]  # (cost so far, previous state, positions chosen)

MOVE = 1  # how many tables a player may move from the natural one (the rule above)


def seat_by_standings(order: Sequence[int], met: Collection[tuple[int, int]]) -> Round:
    """The tables of a round from ``order`` (player numbers, best first) and the pairs already ``met``.

    ``met`` holds pairs ``(a, b)`` with ``a < b``. Bots (``None``) take the last ranks and never repeat.

    >>> seat_by_standings([5, 4, 3, 2, 1, 0], set())
    [(5, 4, 3), (2, 1, 0)]
    >>> seat_by_standings([5, 4, 3, 2, 1, 0], {(3, 4)})
    [(5, 4, 2), (3, 1, 0)]
    """
    seats: list[Seat] = [*order, *[None] * (-len(order) % 3)]
    n = len(seats)
    # A state before table t: which positions of natural tables t - 1 and t are seated, as a bitmask
    # over positions 3(t-1) .. 3(t+1) - 1. Each layer maps the states after its table to
    # (cost so far, previous state, positions chosen).
    layer: dict[int, Step] = {0: ((0, 0), 0, ())}
    history: list[dict[int, Step]] = []
    for t in range(n // 3):
        base = 3 * (t - 1)
        window = range(max(0, base), min(n, base + 9))
        clash = _clashes(seats, window, met)  # the pairs of this window who already met
        nxt: dict[int, Step] = {}
        for state, (cost, _, _) in layer.items():
            free = [p for p in window if not (p - base < 6 and state >> (p - base) & 1)]
            forced = [p for p in free if p < 3 * t]  # natural table t - 1 must sit now
            if len(forced) > 3:
                continue
            optional = [p for p in free if p >= 3 * t]
            for extra in combinations(optional, 3 - len(forced)):
                a, b, c = chosen = (*forced, *extra)
                repeat = ((a, b) in clash) + ((a, c) in clash) + ((b, c) in clash)
                moved = abs(t - a // 3) + abs(t - b // 3) + abs(t - c // 3)
                total = (cost[0] + repeat, cost[1] + moved)
                key = ((state | (1 << (a - base)) | (1 << (b - base)) | (1 << (c - base))) >> 3) & 0b111111
                best = nxt.get(key)
                if best is None or total < best[0]:
                    nxt[key] = (total, state, chosen)
        history.append(nxt)
        layer = nxt
    return _walk_back(seats, history)


def _clashes(seats: Sequence[Seat], window: range, met: Collection[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs of positions ``(p, q)``, ``p < q`` in ``window``, whose players already met."""
    out = set()
    for p in window:
        for q in range(p + 1, window.stop):
            a, b = seats[p], seats[q]
            if a is not None and b is not None and ((a, b) if a < b else (b, a)) in met:
                out.add((p, q))
    return out


def _walk_back(seats: Sequence[Seat], history: list[dict[int, Step]]) -> Round:
    """The tables of the cheapest path, from the last table (everyone seated) back to the first."""
    out: list[Table] = []
    key = min(history[-1], key=lambda k: history[-1][k][0])
    for layer in reversed(history):
        _, previous, chosen = layer[key]
        a, b, c = (seats[p] for p in chosen)
        out.append((a, b, c))
        key = previous
    out.reverse()
    return out


def repeats(round_: Round, met: Collection[tuple[int, int]]) -> int:
    """How many pairs at the tables of ``round_`` had already met.

    >>> repeats([(0, 1, 2)], {(0, 2)})
    1
    """
    return sum(
        (a, b) in met
        for table in round_
        for i, a in enumerate(sorted(p for p in table if p is not None))
        for b in sorted(p for p in table if p is not None)[i + 1:]
    )


def moves(order: Sequence[int], round_: Round) -> dict[int, int]:
    """How many tables each player sits from their natural table (rank // 3) in ``round_``.

    >>> moves([0, 1, 2, 3, 4, 5], [(0, 1, 3), (2, 4, 5)])
    {0: 0, 1: 0, 3: 1, 2: 1, 4: 0, 5: 0}
    """
    rank = {p: r for r, p in enumerate(order)}
    return {p: abs(t - rank[p] // 3) for t, table in enumerate(round_) for p in table if p is not None}
