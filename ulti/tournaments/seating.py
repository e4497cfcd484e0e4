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
exhaustive search on small cases); with no history it is the plain order 1-2-3, 4-5-6, … With two
tables every seating keeps the rule, so nothing is lost; from three tables on, a seating without a
repeat may exist only by moving someone two tables (a test shows one), and the rule then keeps the
repeat rather than break up the order of strength. With tables of four (``fours.py``) the last one or
two tables seat four and the natural table of a rank follows the tables' sizes; the rule is the same.

The search is exact and linear: tables are filled top down, and before table ``t`` every player of a
natural table up to ``t - 2`` is seated and no player of ``t + 1`` yet, so what matters of the past is
which seats of natural tables ``t - 1`` and ``t`` are taken (at most 20 states per table of three), a
dynamic programme over the tables.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from itertools import combinations

from ulti.tournaments.fours import table_sizes
from ulti.tournaments.schedule import Seat, Seating

Step = tuple[tuple[int, int], int, tuple[int, ...]]  # (cost so far, previous state, positions chosen)

MOVE = 1  # how many tables a player may move from the natural one (the rule above)


def seat_by_standings(
    order: Sequence[int], met: Collection[tuple[int, int]], four_tables: bool = False
) -> Seating:
    """The tables of a round from ``order`` (player numbers, best first) and the pairs already ``met``.

    ``met`` holds pairs ``(a, b)`` with ``a < b``. Bots (``None``) take the last ranks and never repeat.
    With ``four_tables``, no bot: the last one or two tables seat four (``fours.table_sizes``), and the
    natural table of a rank follows those sizes.

    >>> seat_by_standings([5, 4, 3, 2, 1, 0], set())
    [(5, 4, 3), (2, 1, 0)]
    >>> seat_by_standings([5, 4, 3, 2, 1, 0], {(3, 4)})
    [(5, 4, 2), (3, 1, 0)]
    >>> seat_by_standings([6, 5, 4, 3, 2, 1, 0], {(4, 5)}, four_tables=True)
    [(6, 5, 3), (4, 2, 1, 0)]
    """
    sizes = table_sizes(len(order), four_tables)
    seats: list[Seat] = [*order, *[None] * (sum(sizes) - len(order))]
    starts = [sum(sizes[:t]) for t in range(len(sizes) + 1)]
    size = [*sizes, 0, 0]  # size[-1] (before the first table) and past the last table are empty
    natural = [t for t, width in enumerate(sizes) for _ in range(width)]
    # A state before table t: which positions of natural tables t - 1 and t are seated, as a bitmask
    # over the positions from starts[t] - size[t - 1]. Each layer maps the states after its table to
    # (cost so far, previous state, positions chosen).
    layer: dict[int, Step] = {0: ((0, 0), 0, ())}
    history: list[dict[int, Step]] = []
    for t, width in enumerate(sizes):
        base = starts[t] - size[t - 1]
        window = range(base, starts[t + 1] + size[t + 1])
        clash = _clashes(seats, window, met)  # the pairs of this window who already met
        keep = (1 << (width + size[t + 1])) - 1
        nxt: dict[int, Step] = {}
        for state, (cost, _, _) in layer.items():
            free = [p for p in window if not (p < starts[t + 1] and state >> (p - base) & 1)]
            forced = [p for p in free if p < starts[t]]  # natural table t - 1 must sit now
            if len(forced) > width:
                continue
            optional = [p for p in free if p >= starts[t]]
            for extra in combinations(optional, width - len(forced)):
                chosen = (*forced, *extra)
                if width == 3:  # the common case, unrolled: seating 3,000 players stays well under a second
                    a, b, c = chosen
                    repeat = ((a, b) in clash) + ((a, c) in clash) + ((b, c) in clash)
                    moved = abs(t - natural[a]) + abs(t - natural[b]) + abs(t - natural[c])
                    full = state | (1 << (a - base)) | (1 << (b - base)) | (1 << (c - base))
                else:
                    repeat = sum(pair in clash for pair in combinations(chosen, 2))
                    moved = sum(abs(t - natural[p]) for p in chosen)
                    full = state
                    for p in chosen:
                        full |= 1 << (p - base)
                total = (cost[0] + repeat, cost[1] + moved)
                key = (full >> size[t - 1]) & keep
                best = nxt.get(key)
                if best is None or total < best[0]:
                    nxt[key] = (total, state, chosen)
        history.append(nxt)
        layer = nxt
    return _walk_back(seats, history)


def _natural(starts: Sequence[int], position: int) -> int:
    """The natural table of a rank: the table whose seats (in order) hold that position."""
    return bisect_right(starts, position) - 1


def _clashes(seats: Sequence[Seat], window: range, met: Collection[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs of positions ``(p, q)``, ``p < q`` in ``window``, whose players already met."""
    out = set()
    for p in window:
        for q in range(p + 1, window.stop):
            a, b = seats[p], seats[q]
            if a is not None and b is not None and ((a, b) if a < b else (b, a)) in met:
                out.add((p, q))
    return out


def _walk_back(seats: Sequence[Seat], history: list[dict[int, Step]]) -> Seating:
    """The tables of the cheapest path, from the last table (everyone seated) back to the first."""
    out: Seating = []
    key = min(history[-1], key=lambda k: history[-1][k][0])
    for layer in reversed(history):
        _, previous, chosen = layer[key]
        out.append(tuple(seats[p] for p in chosen))
        key = previous
    out.reverse()
    return out


def repeats(round_: Sequence[Sequence[Seat]], met: Collection[tuple[int, int]]) -> int:
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


def moves(order: Sequence[int], round_: Sequence[Sequence[Seat]]) -> dict[int, int]:
    """How many tables each player sits from their natural table in ``round_`` (rank // 3, or with
    tables of four, the table whose seats in order hold the rank).

    >>> moves([0, 1, 2, 3, 4, 5], [(0, 1, 3), (2, 4, 5)])
    {0: 0, 1: 0, 3: 1, 2: 1, 4: 0, 5: 0}
    """
    rank = {p: r for r, p in enumerate(order)}
    starts = [0]
    for table in round_:
        starts.append(starts[-1] + len(table))
    return {p: abs(t - _natural(starts, rank[p])) for t, table in enumerate(round_) for p in table if p is not None}
