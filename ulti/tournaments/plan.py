"""What ``ulti tournament schedule`` prints: a format's rounds and tables for N players, without a server.

Seats are player numbers from 1 (``null`` for a bot). ``everyone``: the whole everyone-meets-everyone
schedule (or its first ``rounds``); ``teams``: N / 3 teams, team ``k``'s A, B and C players numbered
``3k - 2``, ``3k - 1``, ``3k``; ``standings`` and ``duplicate``: the first round drawn with the seed
(later rounds are seated from the standings as they come), for ``standings`` with ``--four`` the last
one or two tables seating four instead of bots; ``arena`` has no schedule.
"""

from __future__ import annotations

from typing import Any

from ulti.tournaments.fours import FOUR_TABLE_DEALS
from ulti.tournaments.schedule import (
    Seating,
    drawn_round,
    everyone_meets_everyone,
    rounds_lower_bound,
    team_rounds,
)
from ulti.tournaments.settings import FORMATS


def schedule_json(players: int, fmt: str, rounds: int | None, seed: int, four_tables: bool = False) -> dict[str, Any]:
    """The schedule as JSON; ValueError naming the option that is wrong (``four_tables``: ``--four``).

    >>> out = schedule_json(9, "everyone", None, 0)
    >>> len(out["rounds"]), out["rounds"][0]["tables"][0]["seats"]
    (4, [1, 4, 7])
    """
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}")
    if players < 3:
        raise ValueError("--players must be at least 3")
    if rounds is not None and rounds < 1:
        raise ValueError("--rounds must be at least 1")
    note = ""
    if four_tables and fmt != "standings":
        raise ValueError("--four: only the standings format seats tables of four")
    if fmt == "arena":
        raise ValueError("--format arena has no schedule: players are seated as they finish their matches")
    if fmt == "everyone":
        full = everyone_meets_everyone(players)
        with_bots = sum(any(p is None for t in tables for p in t) for tables in full)
        note = (f"every pair of players meets exactly once in {len(full)} rounds"
                f" (no schedule has fewer than {rounds_lower_bound(players)})"
                + (f"; {with_bots} rounds seat bots in spare seats" if with_bots else ""))
        chosen: list[Seating] = [list(r) for r in full]
    elif fmt == "teams":
        if players % 3:
            raise ValueError("--players must be a multiple of 3 for teams of three")
        chosen = [
            [tuple(None if t is None else 3 * t + "ABC".index(letter) for t in table) for letter, table in tables]
            for tables in team_rounds(players // 3)
        ]
        note = f"{players // 3} teams; A players meet A players, B meet B, C meet C; every two teams meet once"
    else:
        try:
            chosen = [drawn_round(players, seed, four_tables)]
        except ValueError as exc:
            raise ValueError(f"--four: {exc}") from None
        note = "round 1 drawn with the seed; every later round is seated from the standings after the one before"
        if four_tables and players % 3:
            note += (f"; the last {players % 3} table(s) seat four: the dealer of each deal sits out"
                     f" (deals per round a multiple of {FOUR_TABLE_DEALS})")
    if rounds is not None:
        chosen = chosen[:rounds]
    return {
        "format": fmt,
        "players": players,
        "seed": seed,
        "note": note,
        "rounds": [
            {"round": r, "tables": [
                {"table": t, "seats": [None if p is None else p + 1 for p in table]}
                for t, table in enumerate(tables, start=1)
            ]}
            for r, tables in enumerate(chosen, start=1)
        ],
    }


def schedule_text(schedule: dict[str, Any]) -> str:
    """The schedule for a hall: one line per round, tables separated by ``|``, bots as ``bot``."""
    lines = [f"{schedule['format']}, {schedule['players']} players: {schedule['note']}"]
    for r in schedule["rounds"]:
        tables = " | ".join(" ".join("bot" if s is None else str(s) for s in t["seats"]) for t in r["tables"])
        lines.append(f"round {r['round']}: {tables}")
    return "\n".join(lines)
