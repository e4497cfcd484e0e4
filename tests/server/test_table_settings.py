"""A table's settings are one model parsed at the edge (ulti/server/table_settings.py): every fault is
worded as the API always worded it (``bad_config`` naming the field, or a rule's own code), and the
tables the server makes itself (rematches, seeks, events, tournaments) pass the same model."""

from __future__ import annotations

from typing import Any

import pytest

from ulti.server import tablerules
from ulti.server.errors import CommandError
from ulti.server.table_settings import (
    SEATS_FAULT,
    BotSeat,
    InviteSeat,
    MeSeat,
    OpenSeat,
    TableSettings,
    parse_settings,
)
from ulti.server.tablestate import TableState

ME: dict[str, Any] = {"kind": "me"}
OPEN: dict[str, Any] = {"kind": "open"}
BOT: dict[str, Any] = {"kind": "bot"}
LV = "random, heuristic, beginner, casual, club, strong, expert"


def refusal(body: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(CommandError) as refused:
        parse_settings(body)
    return refused.value.code, refused.value.message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"deals": 7, "seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"deals": "6", "seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"deals": 6.0, "seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"deals": True, "seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"deals": 2**64 + 6, "seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"seats": [ME, OPEN, OPEN]}, "deals must be 6, 9 or 12"),
        ({"deals": 6, "move_seconds": -1, "seats": [ME, OPEN, OPEN]}, "move_seconds must be an integer from 0"),
        ({"deals": 6, "move_seconds": 601, "seats": [ME, OPEN, OPEN]}, "move_seconds must be an integer from 0"),
        ({"deals": 6, "move_seconds": None, "seats": [ME, OPEN, OPEN]}, "move_seconds must be an integer from 0"),
        ({"deals": 6, "move_seconds": True, "seats": [ME, OPEN, OPEN]}, "move_seconds must be an integer from 0"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN, OPEN, OPEN]}, SEATS_FAULT),
        ({"deals": 6, "seats": [ME, OPEN]}, SEATS_FAULT),
        ({"deals": 6, "seats": "me,open,open"}, SEATS_FAULT),
        ({"deals": 6}, SEATS_FAULT),
        ({"deals": 6, "seats": [ME, OPEN, OPEN, OPEN]},
         "deals must be 12 at a table of four (each sits out, deals and opens 3 times)"),
        ({"deals": 6, "seats": [ME, {"kind": "robot"}, OPEN]}, "seats[1].kind must be open, invite, bot or me"),
        ({"deals": 6, "seats": [ME, "open", OPEN]}, "seats[1].kind must be open, invite, bot or me"),
        ({"deals": 6, "seats": [ME, {"kind": ["open"]}, OPEN]}, "seats[1].kind must be open, invite, bot or me"),
        ({"deals": 6, "seats": [ME, OPEN, {}]}, "seats[2].kind must be open, invite, bot or me"),
        ({"deals": 6, "seats": [ME, OPEN, {"kind": "bot", "level": "genius"}]}, f"seats[2].level must be one of {LV}"),
        ({"deals": 6, "seats": [ME, OPEN, {"kind": "bot", "level": None}]}, f"seats[2].level must be one of {LV}"),
        ({"deals": 6, "seats": [ME, ME, OPEN]}, "at most one seat may be 'me'"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": -1}, "seed must be an integer from 0 to 2**48 - 1"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": 2**48}, "seed must be an integer from 0 to 2**48 - 1"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": "42"}, "seed must be an integer from 0 to 2**48 - 1"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": True}, "seed must be an integer from 0 to 2**48 - 1"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "rated": "yes"}, "rated must be true or false"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "learner": 1}, "learner must be true or false"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "duplicate": None}, "duplicate must be true or false"),
        ({"deals": 6, "seats": [ME, OPEN, BOT], "duplicate": True}, "a duplicate table seats you and two bots"),
        ({"deals": 6, "seats": [ME, BOT, BOT], "duplicate": True, "rated": True}, "a duplicate table is casual"),
    ],
)
def test_a_bad_setting_is_bad_config_naming_the_field(body: dict[str, Any], message: str) -> None:
    code, said = refusal(body)
    assert code == "bad_config"
    assert said.startswith(message), said


def test_rules_of_settings_alone_keep_their_own_codes() -> None:
    assert refusal({"deals": 6, "seats": [ME, OPEN, OPEN], "rated": True, "seed": 3})[0] == "seed_not_allowed"
    assert refusal({"deals": 6, "seats": [ME, OPEN, OPEN], "rated": True, "learner": True})[0] == "learner_rated"


def test_the_seat_count_is_said_before_the_seats_themselves() -> None:
    # four seats, one of them bad: the count is the fault named (as before the model)
    assert refusal({"deals": 12, "seats": [ME, {"kind": "robot"}, OPEN, OPEN, OPEN]})[1] == SEATS_FAULT


def test_good_settings_parse_into_typed_seats_with_defaults() -> None:
    settings = parse_settings({"deals": 9, "move_seconds": 30, "seats": [ME, {"kind": "invite"}, BOT],
                               "seed": 5, "unknown": "ignored as always"})
    assert settings == TableSettings(deals=9, move_seconds=30, seed=5,
                                     seats=[MeSeat(kind="me"), InviteSeat(kind="invite"), BotSeat(kind="bot")])
    assert settings.seats[2] == BotSeat(kind="bot", level="heuristic")  # a bot without a level is a heuristic bot
    assert (settings.rated, settings.learner, settings.duplicate) == (False, False, False)
    assert settings.host_seat == 0
    assert parse_settings({"deals": 6, "seats": [OPEN, OPEN, OPEN]}).host_seat is None
    # a level is a bot's only: another seat's is ignored, as it always was
    odd = parse_settings({"deals": 6, "seats": [OPEN, {"kind": "open", "level": "genius"}, OPEN]})
    assert odd.seats[1] == OpenSeat(kind="open")


def test_a_rematch_asks_for_the_same_settings_as_a_model() -> None:
    state = TableState("t1")
    state.apply({"type": "created", "host": "host0000", "deals": 9, "move_seconds": 45, "seed": 1,
                 "learner": True, "seats": [{"kind": "open"}, {"kind": "open"},
                                            {"kind": "bot", "level": "strong", "player": "bot-strong"}]})
    assert tablerules.rematch_config(state, 1) == TableSettings(
        deals=9, move_seconds=45, learner=True,
        seats=[InviteSeat(kind="invite"), MeSeat(kind="me"), BotSeat(kind="bot", level="strong")],
    )
