"""Arena (as lichess runs it): whoever finishes a match waits, and waiting players of near score meet.

``arena_tables`` takes the waiting players with their scores and the table each last played at. It
sorts them by score (best first, then the longest waiting) and forms tables of three consecutive
players; a table that would seat again the same three who just played together is broken by swapping
its last player with the next waiting one when that avoids it. Fewer than three left over keep
waiting. A match gives points by place (the settings' ``placement_points``); the leader at the end wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def arena_tables(
    waiting: Sequence[tuple[int, int]], last_table: Mapping[int, frozenset[int]]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Tables for the ``waiting`` players (``(player, score)`` in order of arrival) and who keeps waiting.

    >>> arena_tables([(1, 5), (2, 0), (3, 4), (4, 5)], {})
    ([(1, 4, 3)], [2])
    >>> arena_tables([(1, 5), (2, 5), (3, 5), (4, 0)], {p: frozenset({1, 2, 3}) for p in (1, 2, 3)})
    ([(1, 2, 4)], [3])
    """
    order = [p for _, p in sorted(((-score, i), p) for i, (p, score) in enumerate(waiting))]
    tables: list[tuple[int, int, int]] = []
    i = 0
    while i + 3 <= len(order):
        group = order[i:i + 3]
        if _same_as_last(group, last_table) and i + 3 < len(order):
            order[i + 2], order[i + 3] = order[i + 3], order[i + 2]
            group = order[i:i + 3]
        tables.append((group[0], group[1], group[2]))
        i += 3
    return tables, order[i:]


def _same_as_last(group: list[int], last_table: Mapping[int, frozenset[int]]) -> bool:
    return last_table.get(group[0]) == frozenset(group)
