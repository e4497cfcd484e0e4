"""The director's correction of a table's result, as the ``result_corrected`` event it appends.

The director changes what they give and keeps the rest: corrected deals' scores without points keep
the recorded points (at a table of four, where the points are the deals' totals, those totals), and
corrected points without deals keep the recorded deals' scores. So a sport ulti (``duplicate``) table
corrected by its points keeps the deals its matchpoints are compared on, and one corrected by its
deals is compared on the corrected ones. The log's rules (``ulti.tournaments.log``) then check the
event: the number of deals, the seats, and a table of four's totals.
"""

from __future__ import annotations

from typing import Any

from ulti.tournaments.log import Result, Tournament


def recorded_result(state: Tournament, round_number: int, table: int) -> Result | None:
    """The result table ``table`` (from 1) of round ``round_number`` (from 1) has now, or None."""
    if not 1 <= round_number <= len(state.rounds):
        return None
    return state.rounds[round_number - 1].results.get(table)


def correction_event(
    state: Tournament,
    round_number: int,
    table: int,
    reason: str,
    points: list[int] | None,
    deals: list[list[int]] | None,
) -> dict[str, Any]:
    """The ``result_corrected`` event for the director's ``points`` and/or ``deals`` (None: keep it).

    A table without a result gets the event as given: the log refuses it, naming the rule.
    """
    old = recorded_result(state, round_number, table)
    if old is not None:
        if deals is None:
            deals = old.deals
        four = len(state.rounds[round_number - 1].tables[table - 1]) == 4
        if points is None:
            # a table of four's points are its deals' totals; elsewhere (sport ulti counts only the
            # round's deals, not tie-break ones) the recorded points stay
            points = [sum(d[s] for d in deals) for s in range(4)] if four and deals is not None else list(old.points)
    event: dict[str, Any] = {"type": "result_corrected", "round": round_number, "table": table,
                             "points": points, "reason": reason}
    if deals is not None:
        event["deals"] = deals
    return event
