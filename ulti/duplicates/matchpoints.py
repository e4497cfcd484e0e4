"""Matchpoints as in bridge: each result is compared with every other result on the same cards.

On one deal, the players who held the same cards in the same seat (one per table) are compared by
their score on that deal: 2 matchpoints for each of them you outscored, 1 for each tie, 0 for each
who outscored you. With ``n`` results the top is ``2 (n - 1)``. A player's standing is the sum of
their matchpoints over the deals counted, as a percentage of the sum of the tops.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def seat_matchpoints(scores: Sequence[int]) -> list[int]:
    """The matchpoints of each of ``scores`` (one seat's score on one deal, one per table).

    >>> seat_matchpoints([6, 2, 6, -4])
    [5, 2, 5, 0]
    >>> seat_matchpoints([3])
    [0]
    """
    return [
        sum(2 if mine > other else 1 if mine == other else 0 for j, other in enumerate(scores) if j != i)
        for i, mine in enumerate(scores)
    ]


def top(results: int) -> int:
    """The most matchpoints one result can earn among ``results`` results on the same cards.

    >>> top(4), top(1)
    (6, 0)
    """
    return 2 * max(0, results - 1)


def deal_matchpoints(results: Mapping[int, Sequence[int]]) -> dict[int, list[int]]:
    """Each table's matchpoints on one deal, seat by seat, from each table's three ``scores``.

    ``results`` maps a table number to the deal's scores at that table (seats 0, 1, 2); only tables
    that finished the deal are given. Seat ``s`` of one table is compared with seat ``s`` of the others.

    >>> deal_matchpoints({1: [4, -2, -2], 2: [-4, 2, 2], 3: [4, -2, -2]})
    {1: [3, 1, 1], 2: [0, 4, 4], 3: [3, 1, 1]}
    """
    tables = sorted(results)
    out = {t: [0, 0, 0] for t in tables}
    for seat in range(3):
        for t, points in zip(tables, seat_matchpoints([results[t][seat] for t in tables]), strict=True):
            out[t][seat] = points
    return out


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings: the seat they held at their table and their matchpoints."""

    table: int
    seat: int
    name: str
    bot: bool
    matchpoints: int
    top: int
    deals: int

    @property
    def percent(self) -> float | None:
        """Matchpoints as a percentage of the top (None before any compared deal), to 2 decimals."""
        return None if self.top == 0 else round(100 * self.matchpoints / self.top, 2)

    def to_json(self) -> dict[str, object]:
        """The line as the cross-table and the event record give it."""
        return {
            "table": self.table,
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "deals": self.deals,
            "percent": self.percent,
        }


def standings(
    players: Mapping[tuple[int, int], tuple[str, bool]], deals: Sequence[Mapping[int, Sequence[int]]]
) -> list[Standing]:
    """The standings over ``deals`` (each: table -> scores of the finished deal), best first.

    ``players`` maps (table, seat) to the name and whether a bot played the seat. Ties in the
    percentage keep the table and seat order.

    >>> rows = standings({(1, 0): ("Anna", False), (2, 0): ("Bot", True)}, [{1: [2, -1, -1], 2: [0, 0, 0]}])
    >>> [(r.name, r.matchpoints, r.top, r.percent) for r in rows]
    [('Anna', 2, 2, 100.0), ('Bot', 0, 2, 0.0)]
    """
    points = {key: 0 for key in players}
    tops = {key: 0 for key in players}
    counted = {key: 0 for key in players}
    for results in deals:
        if not results:
            continue
        best = top(len(results))
        for table, per_seat in deal_matchpoints(results).items():
            for seat, value in enumerate(per_seat):
                key = (table, seat)
                if key in points:
                    points[key] += value
                    tops[key] += best
                    counted[key] += 1
    lines = [
        Standing(table, seat, name, bot, points[(table, seat)], tops[(table, seat)], counted[(table, seat)])
        for (table, seat), (name, bot) in sorted(players.items())
    ]
    lines.sort(key=lambda s: (s.percent is None, -(s.percent or 0.0)))
    return lines
