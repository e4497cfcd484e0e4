"""Standings recomputed from the results: totals, team totals and tie-breaks named in data.

A player's points for a table are, by the host's ``scoring``: ``points`` (the seat's match points) or
``placement`` (the settings' ``placement_points`` for first, second and third place at the table;
players tied on match points share the best place of their tie; at a table of four, first and last
score the first and third place's points and the two middle places the second's, so a table of four
gives as many points on average as a table of three). In sport ulti (``duplicate``) a
seat's points for a round are its matchpoints (``ulti.duplicates``): on each deal, seat ``s`` of a table is
compared with seat ``s`` of every other table of the round, which played the same cards. Bots are no
line of the standings. An arena always scores by place. Ties are broken by ``TIE_BREAKS`` in
order; the record lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ulti.duplicates.matchpoints import deal_matchpoints
from ulti.tournaments.log import Round, Tournament

FOUR_PLACES = (0, 1, 1, 2)  # at a table of four: which of the three places' points each place scores

TIE_BREAKS: list[dict[str, str]] = [
    {"name": "total", "description": "points over all rounds, more first"},
    {"name": "wins", "description": "tables at which the player placed first (ties included), more first"},
    {"name": "opponents", "description": "the totals of the opponents met summed (Buchholz), more first"},
    {"name": "best_round", "description": "the player's best points in one round, more first"},
    {"name": "player", "description": "earlier registration first"},
]


@dataclass
class Line:
    """One player's line: total, the points of each round (None when not seated) and the tie-breaks."""

    player: int
    name: str
    rounds: list[int | None]
    wins: int = 0
    opponents: int = 0

    @property
    def total(self) -> int:
        """Points over all rounds."""
        return sum(p for p in self.rounds if p is not None)

    @property
    def best_round(self) -> int:
        """The best points of a round played (0 before any)."""
        return max((p for p in self.rounds if p is not None), default=0)


def places(points: list[int]) -> list[int]:
    """Each seat's place (0 = first) at a table; ties share the best place.

    >>> places([5, -2, 5]), places([1, 2, 3])
    ([0, 2, 0], [2, 1, 0])
    """
    return [sum(other > mine for other in points) for mine in points]


def round_points(tournament: Tournament, round_: Round) -> dict[tuple[int, int], int]:
    """Each seat's points in ``round_``: ``(table, seat) -> points`` for the tables with a result."""
    settings = tournament.settings
    out: dict[tuple[int, int], int] = {}
    if settings.format == "duplicate":
        deals = max((len(r.deals or []) for r in round_.results.values()), default=0)
        for index in range(deals):
            finished = {t: r.deals[index] for t, r in round_.results.items() if r.deals and index < len(r.deals)}
            for table, seats in deal_matchpoints(finished).items():
                for seat, mp in enumerate(seats):
                    out[(table, seat)] = out.get((table, seat), 0) + mp
        for table in round_.results:
            for seat in range(3):
                out.setdefault((table, seat), 0)
        return out
    for table, result in round_.results.items():
        if settings.scoring == "placement" or settings.format == "arena":  # an arena scores by place
            for seat, place in enumerate(places(result.points)):
                if len(result.points) == 4:  # a table of four: first, the two middle places, last
                    place = FOUR_PLACES[place]
                out[(table, seat)] = settings.placement_points[place]
        else:
            for seat, value in enumerate(result.points):
                out[(table, seat)] = value
    return out


def compute_lines(tournament: Tournament) -> list[Line]:
    """Every player's line (bots' seats give none), best first by ``TIE_BREAKS``."""
    lines = [Line(n, p.name, [None] * len(tournament.rounds)) for n, p in enumerate(tournament.players)]
    opponents: dict[int, list[int]] = {n: [] for n in range(len(lines))}
    for r, round_ in enumerate(tournament.rounds):
        points = round_points(tournament, round_)
        for t, table in enumerate(round_.tables, start=1):
            if t not in round_.results:
                continue
            first = places(round_.results[t].points)
            for seat, player in enumerate(table):
                if player is None:
                    continue
                line = lines[player]
                line.rounds[r] = (line.rounds[r] or 0) + points[(t, seat)]
                line.wins += first[seat] == 0
                opponents[player] += [p for p in table if p is not None and p != player]
    totals = {line.player: line.total for line in lines}
    for line in lines:
        line.opponents = sum(totals[o] for o in opponents[line.player])
    lines.sort(key=lambda ln: (-ln.total, -ln.wins, -ln.opponents, -ln.best_round, ln.player))
    return lines


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as the record gives them: rank (from 1), player, name, total, per-round points,
    the tie-break figures, and the withdrawn flag.

    Rank is shared only when every tie-break is equal (never, as registration breaks the last tie).
    """
    rows = []
    for rank, line in enumerate(compute_lines(tournament), start=1):
        rows.append({
            "rank": rank, "player": line.player, "name": line.name, "total": line.total, "rounds": line.rounds,
            "wins": line.wins, "opponents": line.opponents, "best_round": line.best_round,
            "withdrawn": tournament.players[line.player].status == "withdrawn",
        })
    return rows


def team_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Team totals (teams format): each team's members' totals summed, best first, then by name."""
    totals: dict[str, int] = {}
    for line in compute_lines(tournament):
        team = tournament.players[line.player].team
        if team is not None:
            totals[team] = totals.get(team, 0) + line.total
    return [{"team": team, "total": total} for team, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]


def standing_order(tournament: Tournament) -> list[int]:
    """The players still in (not withdrawn), best first: the order a standings round is seated in."""
    return [ln.player for ln in compute_lines(tournament) if tournament.players[ln.player].status != "withdrawn"]
