"""The ``ulti-tournament/1`` record (docs/record.md) and its check (``ulti score``).

``build_tournament_record`` writes the settings, the players, every round's seating with each table's
result (and its ``ulti-match/1`` record when given, or the match's id), the director's log, the
tie-breaks and the standings, all derived from the log. ``score_tournament`` replays the log, checks
that the players, the rounds and the results the record states are the log's, that each embedded
match record scores the points stated (and, in sport ulti, holds the round's seeded deals), that
every seating obeys the format, and that the standings
follow; it raises ``RecordError`` naming the first thing that does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ulti.engine.errors import RecordError, UltiError
from ulti.engine.fourmatch import FourMatch
from ulti.engine.match import Match
from ulti.engine.record import four_match_from_record, match_from_record
from ulti.tournaments.duplicate import round_deals
from ulti.tournaments.log import Tournament, replay
from ulti.tournaments.rounds import seating_problems
from ulti.tournaments.standings import TIE_BREAKS, standings, team_standings

TOURNAMENT_FORMAT = "ulti-tournament/1"


def rounds_json(tournament: Tournament, matches: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every round's tables: seats, result (points, deals' scores, corrections) and match record or id."""
    out = []
    for number, round_ in enumerate(tournament.rounds, start=1):
        tables = []
        for t, seats in enumerate(round_.tables, start=1):
            entry: dict[str, Any] = {"table": t, "seats": list(seats), "result": None}
            result = round_.results.get(t)
            if result is not None:
                entry["result"] = {"points": result.points, "deals": result.deals, "corrections": result.corrections}
                if result.match is not None:
                    entry["match_id"] = result.match
                    if result.match in matches:
                        entry["match"] = dict(matches[result.match])
            tables.append(entry)
        out.append({"round": number, "tables": tables})
    return out


def build_tournament_record(
    tournament_id: str, log: Sequence[Mapping[str, Any]], matches: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The record of the tournament whose director's log is ``log``; ``matches`` maps match ids to records."""
    state = replay(log)
    record: dict[str, Any] = {
        "format": TOURNAMENT_FORMAT,
        "tournament": tournament_id,
        "settings": state.settings.to_json(),
        "players": [p.to_json(n) for n, p in enumerate(state.players)],
        "rounds": rounds_json(state, matches or {}),
        "log": [dict(e) for e in log],
        "published": state.published,
        "tie_breaks": TIE_BREAKS,
        "standings": standings(state),
    }
    if state.settings.format == "teams":
        record["team_standings"] = team_standings(state)
    return record


def score_tournament(record: object) -> dict[str, Any]:
    """Check an ``ulti-tournament/1`` record; return its standings (what ``ulti score`` prints)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != TOURNAMENT_FORMAT:
        raise RecordError(f"format must be {TOURNAMENT_FORMAT!r}, not {record.get('format')!r}")
    log = record.get("log")
    if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
        raise RecordError("log must be a list of event objects")
    state = replay(log)
    if record.get("settings") != state.settings.to_json():
        raise RecordError("settings differ from the log's created event")
    if record.get("players") != [p.to_json(n) for n, p in enumerate(state.players)]:
        raise RecordError("players differ from the ones the log registers")
    stated = record.get("rounds")
    if not isinstance(stated, list) or len(stated) != len(state.rounds):
        raise RecordError(f"rounds must list the {len(state.rounds)} rounds the log seats")
    for number, (given, round_) in enumerate(zip(stated, state.rounds, strict=True), start=1):
        _check_round(number, given, round_)
        if state.settings.format == "duplicate":
            _check_same_deals(number, given, state.settings.seed, state.settings.deals_per_round)
    problems = seating_problems(log)
    if problems:
        raise RecordError(problems[0])
    lines = standings(state)
    if record.get("standings") != lines:
        raise RecordError("standings differ from the ones the results give")
    out: dict[str, Any] = {
        "format": TOURNAMENT_FORMAT,
        "complete": state.published,
        "rounds": len(state.rounds),
        "players": len(state.players),
        "tie_breaks": [c["name"] for c in TIE_BREAKS],
        "standings": lines,
    }
    if state.settings.format == "teams":
        teams = team_standings(state)
        if record.get("team_standings") != teams:
            raise RecordError("team_standings differ from the ones the results give")
        out["team_standings"] = teams
    return out


def _check_round(number: int, given: object, round_: Any) -> None:
    """The stated round ``number`` against the log's: seats, results, and embedded match records."""
    if not isinstance(given, dict) or not isinstance(given.get("tables"), list):
        raise RecordError(f"round {number}: must be an object with tables")
    if len(given["tables"]) != len(round_.tables):
        raise RecordError(f"round {number}: {len(given['tables'])} tables stated, the log seats {len(round_.tables)}")
    for t, (entry, seats) in enumerate(zip(given["tables"], round_.tables, strict=True), start=1):
        where = f"round {number}: table {t}"
        if not isinstance(entry, dict) or entry.get("seats") != list(seats):
            raise RecordError(f"{where}: seats differ from the log's")
        result = round_.results.get(t)
        stated = entry.get("result")
        if result is None:
            if stated is not None:
                raise RecordError(f"{where}: a result is stated that the log does not record")
            continue
        if not isinstance(stated, dict) or stated.get("points") != result.points:
            raise RecordError(f"{where}: points {None if not isinstance(stated, dict) else stated.get('points')}"
                              f" stated, the log records {result.points}")
        if stated.get("deals") != result.deals:
            raise RecordError(f"{where}: deals' scores differ from the log's")
        match = entry.get("match")
        if match is not None:
            # against what the match scored: a correction changes the result, not the match it came from
            _check_match(where, match, result.match_points, result.match_deals, four=len(seats) == 4)
        if len(seats) == 4 and result.deals is not None:
            totals = [sum(d[s] for d in result.deals) for s in range(4)]
            if totals != result.points:
                raise RecordError(f"{where}: points {result.points} stated, the deals' scores total {totals}")


def _check_same_deals(number: int, given: dict[str, Any], seed: int, deals: int) -> None:
    """Sport ulti: every embedded match of round ``number`` holds the round's seeded deals, seat for seat."""
    expected = [(dealer, _hands(hands)) for dealer, hands in round_deals(seed, number, deals)]
    for t, entry in enumerate(given["tables"], start=1):
        match = entry.get("match")
        if not isinstance(match, dict) or not isinstance(match.get("deals"), list):
            continue
        for k, deal in enumerate(match["deals"][:deals]):
            if not isinstance(deal, dict) or (deal.get("dealer"), _hands(deal.get("hands"))) != expected[k]:
                raise RecordError(f"round {number}: table {t}: deal {k}: cards do not come from the round's seed")


def _hands(hands: object) -> list[list[str]] | None:
    """Each hand's cards in one order (a record may list a hand's cards in any order)."""
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        return None
    return [sorted(str(c) for c in h) for h in hands]


def _check_match(
    where: str, match: object, points: list[int], deals: list[list[int]] | None, four: bool = False
) -> None:
    """An embedded ``ulti-match/1`` record must replay and total the points its table recorded (and its
    planned deals' scores the deals' scores recorded).

    At a table of four it is the four-player record (``"seats": 4``), whose deals' scores are by position
    (0 for the one sitting out), as the result's are."""
    try:
        replayed: Match | FourMatch = four_match_from_record(match) if four else match_from_record(match)
    except UltiError as exc:
        raise RecordError(f"{where}: {exc}") from None
    totals = replayed.totals()
    if totals != points:
        raise RecordError(f"{where}: points {points} stated, the match record totals {totals}")
    if deals is not None:
        if isinstance(replayed, FourMatch):
            scores = [replayed.deal_scores(k) for k in range(len(replayed.deals)) if replayed.deals[k].is_over]
        else:
            # a sport ulti result holds the planned deals' scores: a tie-break deal decides the table's own
            # match (its totals include it), never the round's comparison of seats
            scores = [list(d.result.scores) for d in replayed.deals[:replayed.deals_planned] if d.result is not None]
        if scores != deals:
            raise RecordError(f"{where}: deals' scores differ from the match record's")
