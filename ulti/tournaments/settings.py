"""A tournament's settings, as the host chooses them and the ``created`` event of the log holds them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from ulti.tournaments.fours import FOUR_TABLE_DEALS

FORMATS = ("standings", "everyone", "teams", "arena", "duplicate")
SCORINGS = ("points", "placement")


@dataclass(frozen=True)
class Settings:
    """The host's choices. ``format``: ``standings`` (social ulti, rounds seated by standings),
    ``everyone`` (everyone meets everyone), ``teams`` (A, B, C), ``arena``, ``duplicate`` (sport ulti);
    ``scoring``: ``points`` (match points summed) or ``placement`` (``placement_points`` per table per
    round, best place first; tied players share the best place of their tie)."""

    format: str = "standings"
    rounds: int = 1
    deals_per_round: int = 6
    scoring: str = "points"
    placement_points: tuple[int, int, int] = (2, 1, 0)
    first_round: str = "random"  # or "rating"
    seed: int = 0
    rated: bool = False
    entry: str = "open"  # "open", "invited" or "bots" (bots through the bot API too)
    late_entry: bool = False
    start: str | None = None  # ISO 8601 start time
    move_seconds: int = 60
    minutes: int | None = None  # the arena's length
    four_tables: bool = False  # standings: a fourth player at one or two tables instead of bots (fours.py)

    def to_json(self) -> dict[str, Any]:
        """The settings as the log and the record hold them."""
        out = asdict(self)
        out["placement_points"] = list(self.placement_points)
        if not self.four_tables:
            del out["four_tables"]  # written only when chosen, so records made before it still check
        return out


def start_timestamp(start: str) -> float | None:
    """The start time ``start`` as seconds since the epoch; None unless it is ISO 8601 with its zone (a
    time without a zone would be read in the server's zone, which the host never sees).

    >>> start_timestamp("2026-12-05T18:00:00+01:00"), start_timestamp("2026-12-05T18:00:00"), start_timestamp("soon")
    (1796490000.0, None, None)
    """
    try:
        moment = datetime.fromisoformat(start)
    except ValueError:
        return None
    return None if moment.tzinfo is None else moment.timestamp()


def settings_from_json(data: object) -> Settings:
    """Settings from JSON; ValueError naming the field that is wrong.

    >>> settings_from_json({"format": "everyone", "deals_per_round": 9}).deals_per_round
    9
    >>> settings_from_json({"deals_per_round": 7})
    Traceback (most recent call last):
    ValueError: settings.deals_per_round must be a positive multiple of 3, so everyone opens equally
    """
    if not isinstance(data, dict):
        raise ValueError("settings must be an object")
    known = set(Settings.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"settings.{unknown[0]} is not a setting")
    values = dict(data)
    if "placement_points" in values:
        points = values["placement_points"]
        if not isinstance(points, list) or len(points) != 3 or any(type(p) is not int for p in points):
            raise ValueError("settings.placement_points must list three whole numbers")
        values["placement_points"] = tuple(points)
    settings = Settings(**values)
    if settings.format not in FORMATS:
        raise ValueError(f"settings.format must be one of {', '.join(FORMATS)}")
    if settings.scoring not in SCORINGS:
        raise ValueError(f"settings.scoring must be one of {', '.join(SCORINGS)}")
    if type(settings.rounds) is not int or settings.rounds < 1:
        raise ValueError("settings.rounds must be a positive whole number")
    if type(settings.deals_per_round) is not int or settings.deals_per_round < 3 or settings.deals_per_round % 3:
        raise ValueError("settings.deals_per_round must be a positive multiple of 3, so everyone opens equally")
    if settings.first_round not in ("random", "rating"):
        raise ValueError("settings.first_round must be random or rating")
    if settings.entry not in ("open", "invited", "bots"):
        raise ValueError("settings.entry must be open, invited or bots")
    if type(settings.four_tables) is not bool:
        raise ValueError("settings.four_tables must be true or false")
    if settings.four_tables and settings.format != "standings":
        raise ValueError("settings.four_tables: only the standings format seats tables of four")
    if settings.four_tables and settings.deals_per_round % FOUR_TABLE_DEALS:
        raise ValueError(f"settings.deals_per_round must be a multiple of {FOUR_TABLE_DEALS} with tables of four,"
                         " so everyone opens and sits out equally")
    return settings
