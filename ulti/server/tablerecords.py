"""The records of a table's deals and match (ulti-deal/1, ulti-match/1: docs/record.md): finished deals
only (a deal in progress would show hidden cards), each action a bot played in a person's seat marked.
"""

from __future__ import annotations

from typing import Any

from ulti.engine.fourmatch import FourMatch
from ulti.engine.record import deal_to_record, four_match_to_record, match_to_record
from ulti.server.errors import CommandError
from ulti.server.tablestate import TableState


def deal_record(state: TableState, index: int) -> dict[str, Any]:
    """The record of finished deal ``index``."""
    if state.match is None or not 0 <= index < len(state.match.deals) or not state.match.deals[index].is_over:
        raise CommandError("not_found", f"deal {index} of this table is not finished")
    return _marked(state, index, deal_to_record(state.match.deals[index]))


def _marked(state: TableState, index: int, record: dict[str, Any]) -> dict[str, Any]:
    """Deal ``index``'s record with ``"by": "bot"`` on each action a bot played in a person's seat
    (an optional key of the record format, docs/record.md)."""
    for i in state.bot_played.get(index, []):
        record["actions"][i] = {**record["actions"][i], "by": "bot"}
    return record


def match_record(state: TableState) -> dict[str, Any]:
    """The match record with its finished deals only (a deal in progress would show hidden cards)."""
    if state.match is None:
        raise CommandError("not_found", "this table's match has not started")
    record = four_match_to_record(state.match) if isinstance(state.match, FourMatch) else match_to_record(state.match)
    record["deals"] = [
        _marked(state, k, r) for k, (r, d) in enumerate(zip(record["deals"], state.match.deals, strict=True))
        if d.is_over
    ]
    return record
