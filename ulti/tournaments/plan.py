"""What ``ulti tournament schedule`` prints: a format's rounds and tables for N players, without a server.

Seats are player numbers from 1 (``null`` for a bot). ``everyone``: the whole everyone-meets-everyone
schedule (or its first ``rounds``); ``teams``: N / 3 teams, team ``k``'s A, B and C players numbered
``3k - 2``, ``3k - 1``, ``3k``; ``standings`` and ``duplicate``: the first round drawn with the seed
(later rounds are seated from the standings as they come); ``arena`` has no schedule.
"""

from __future__ import annotations

from typing import Any

from ulti.tournaments.schedule import (
    Round,
    drawn_round,
    everyone_meets_everyone,
    padded_size,
    rounds_lower_bound,
    team_rounds,
)
from ulti.tournaments.settings import FORMATS


def schedule_json(players: int, fmt: str, rounds: int | None, seed: int) -> dict[str, Any]:
    """The schedule as JSON; ValueError naming the option that is wrong.

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
    if fmt == "arena":
        raise ValueError("--format arena has no schedule: players are seated as they finish their matches")
    if fmt == "everyone":
        full = everyone_meets_everyone(players)
        note = (f"every pair of players meets exactly once in {len(full)} rounds"
                f" (no schedule has fewer than {rounds_lower_bound(players)})"
                + ("" if padded_size(players) == players else
                   f"; {padded_size(players) - players} seats of each round are bots"))
        chosen: list[Round] = full
    elif fmt == "teams":
        if players % 3:
            raise ValueError("--players must be a multiple of 3 for teams of three")
        full = [
            [tuple(None if t is None else 3 * t + "ABC".index(letter) for t in table) for letter, table in tables]  # type: ignore[misc]
            for tables in team_rounds(players // 3)
        ]
        note = f"{players // 3} teams; A players meet A players, B meet B, C meet C; every two teams meet once"
        chosen = full
    else:
        chosen = [drawn_round(players, seed)]
        note = "round 1 drawn with the seed; every later round is seated from the standings after the one before"
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
