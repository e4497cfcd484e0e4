"""A table's status and its seats' kinds are enums whose values are the wire's strings (unchanged JSON)."""

from __future__ import annotations

import orjson

from ulti.server import tablerules, tableviews
from ulti.server.tablestate import SeatKind, TableState, TableStatus


def status_of(state: TableState) -> TableStatus:
    """The table's status (read through a call: each read is its own, for the type checker)."""
    return state.status


def test_status_and_seat_kinds_are_enums_with_the_same_wire_form() -> None:
    assert TableState("new").status is TableStatus.NEW
    state = TableState("t")
    state.apply({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 5, "chosen_seed": True,
                 "practice": True, "host_name": "H",
                 "seats": [{"kind": "open"}, {"kind": "bot", "level": "random"}, {"kind": "open"}]})
    assert status_of(state) is TableStatus.OPEN and status_of(state) == TableStatus("open")
    assert [s.kind for s in state.seats] == [SeatKind.OPEN, SeatKind.BOT, SeatKind.OPEN]
    state.apply({"type": "sit", "seat": 0, "player": "h", "name": "H"})
    assert state.seats[0].kind is SeatKind.PLAYER
    for event in tablerules.start_events(state, "h", fill_bots=True):
        state.apply(event)
    assert status_of(state) is TableStatus.PLAYING
    wire = orjson.loads(orjson.dumps(tableviews.summary(state)))
    assert wire["status"] == "playing"
    assert [s["kind"] for s in wire["seats"]] == ["player", "bot", "bot"]


def test_an_invite_seat_is_of_the_invite_kind() -> None:
    state = TableState("t")
    state.apply({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 5, "chosen_seed": False,
                 "seats": [{"kind": "open"}, {"kind": "invite", "invite": "x"}, {"kind": "open"}]})
    assert state.seats[1].kind is SeatKind.INVITE and tableviews.public_seat(state.seats[1])["kind"] == "invite"
