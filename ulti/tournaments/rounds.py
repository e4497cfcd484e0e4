"""The next round's tables by format, and the check that a log's seatings obey the format.

``next_round`` seats round ``len(rounds) + 1`` of a tournament: ``everyone`` takes the round of the
everyone-meets-everyone schedule of the players registered (a withdrawn player's seat goes to a bot);
``teams`` the team schedule; ``standings`` and ``duplicate`` draw the first round (seeded, or by
rating) and seat every later one from the standings (``seating.py``). ``arena`` tables are formed as
players finish (``arena.py``). ``seating_problems`` replays a log and names each seating that breaks
its format's rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ulti.tournaments.fours import table_sizes
from ulti.tournaments.log import Tournament, apply, replay
from ulti.tournaments.schedule import Seating, by_rating, drawn_round, everyone_meets_everyone, pairs_met
from ulti.tournaments.seating import moves, repeats, seat_by_standings
from ulti.tournaments.standings import standing_order


def met_pairs(tournament: Tournament) -> set[tuple[int, int]]:
    """The pairs of players who sat at one table in a seated round."""
    return set(pairs_met([r.tables for r in tournament.rounds]))


def next_round(tournament: Tournament) -> Seating:
    """The tables of the next round of ``tournament`` (ValueError when its format has no next round)."""
    settings = tournament.settings
    number = len(tournament.rounds) + 1
    if number > settings.rounds:
        raise ValueError(f"rounds: the tournament has {settings.rounds} rounds")
    active = [p for p, player in enumerate(tournament.players) if player.status != "withdrawn"]
    if settings.format == "everyone":
        schedule = everyone_meets_everyone(len(tournament.players))
        if number > len(schedule):
            raise ValueError(f"rounds: everyone has met everyone after {len(schedule)} rounds")
        return [_keep(table, active) for table in schedule[number - 1]]
    if settings.format == "teams":
        return _team_round(tournament, number)
    if settings.format == "arena":
        raise ValueError("format: arena tables are formed as players finish (arena_tables)")
    if number == 1:
        if settings.first_round == "rating":
            ratings = [tournament.players[p].rating or 0.0 for p in active]
            return [_map(table, active) for table in by_rating(ratings, settings.four_tables)]
        drawn = drawn_round(len(active), settings.seed, settings.four_tables)
        return [_map(table, active) for table in drawn]
    return seat_by_standings(standing_order(tournament), met_pairs(tournament), settings.four_tables)


def _keep(table: tuple[int | None, ...], active: list[int]) -> tuple[int | None, int | None, int | None]:
    a, b, c = (p if p in active else None for p in table)
    return (a, b, c)


def _map(table: tuple[int | None, ...], players: list[int]) -> tuple[int | None, ...]:
    return tuple(None if i is None else players[i] for i in table)


def teams_of(tournament: Tournament) -> list[dict[str, int]]:
    """The teams in order of their first registration: each maps a letter to its player."""
    teams: dict[str, dict[str, int]] = {}
    for number, player in enumerate(tournament.players):
        if player.team is not None and player.letter is not None and player.status != "withdrawn":
            teams.setdefault(player.team, {})[player.letter] = number
    return list(teams.values())


def _team_round(tournament: Tournament, number: int) -> Seating:
    from ulti.tournaments.schedule import team_rounds

    teams = teams_of(tournament)
    schedule = team_rounds(len(teams))
    if number > len(schedule):
        raise ValueError(f"rounds: every team has met every other after {len(schedule)} rounds")
    out: Seating = []
    for letter, table in schedule[number - 1]:
        a, b, c = (None if t is None else teams[t].get(letter) for t in table)
        out.append((a, b, c))
    return out


def seating_problems(log: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every seating of ``log`` that breaks its format's rule, named ``round r: ...`` (empty when none)."""
    state = replay(log[:1])
    problems: list[str] = []
    for event in log[1:]:
        if event.get("type") == "round_seated":
            problems += _check(state, event["round"], [tuple(t) for t in event["tables"]])
        apply(state, event)
    return problems


def _check(state: Tournament, number: int, tables: list[Any]) -> list[str]:
    fmt = state.settings.format
    out: list[str] = []
    if fmt == "everyone":
        counts = pairs_met([r.tables for r in state.rounds] + [tables])
        out += [f"round {number}: players {a} and {b} meet a second time" for (a, b), k in counts.items()
                if k > 1 and (a, b) in _pairs(tables)]
    elif fmt == "teams":
        for t, table in enumerate(tables, start=1):
            people = [p for p in table if p is not None]
            letters = {state.players[p].letter for p in people}
            teams = [state.players[p].team for p in people]
            if len(letters) > 1:
                out.append(f"round {number}: table {t}: players of different letters meet")
            if len(set(teams)) < len(teams):
                out.append(f"round {number}: table {t}: two players of one team meet")
    if state.settings.four_tables:
        seated = sum(p is not None for t in tables for p in t)
        sizes = table_sizes(seated, True)
        if [len(t) for t in tables] != sizes:
            out.append(f"round {number}: tables of {[len(t) for t in tables]} seats where {seated} players sit at"
                       f" {sizes} (the tables of four last)")
    if fmt in ("standings", "duplicate") and number > 1:
        four = state.settings.four_tables
        order = standing_order(state)
        met = met_pairs(state)
        moved = moves(order, tables)
        out += [f"round {number}: player {p} sits {k} tables from their standing's" for p, k in moved.items() if k > 1]
        best = repeats(seat_by_standings(order, met, four), met)
        if repeats(tables, met) > best:
            out.append(f"round {number}: {repeats(tables, met)} repeat meetings where {best} were possible")
    return out


def _pairs(tables: list[Any]) -> set[tuple[int, int]]:
    return set(pairs_met([tables]))
