"""Every HTTP body is a pydantic model parsed at the edge (ulti/server/bodies.py), refused in the API's
own words (the code and a message naming the field), and ``create_app`` is a composition root that
holds no route of its own."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from pydantic import BaseModel
from starlette.routing import BaseRoute

from ulti.server.account_routes import ACCOUNT_REFUSAL, LoginBody, PasswordBody, PasswordChangeBody, RegisterBody
from ulti.server.app import create_app
from ulti.server.bodies import Refusal, bad_request, field_refusal, parse
from ulti.server.botapi import TOKEN_REFUSAL, ChallengesBody, ClaimBody, InviteBotBody, TokenBody
from ulti.server.config import Settings
from ulti.server.duplicate_routes import EVENT_REFUSAL, JOIN_REFUSAL, DuplicateJoinBody, EventBody
from ulti.server.errors import CommandError
from ulti.server.session_routes import SessionBody
from ulti.server.table_routes import LEVEL_REFUSAL, SEAT_REFUSAL, BotBody, JoinBody, StartBody

SEAT = "seat must be 0, 1 or 2 (or 3 at a table of four)"


def refused(model: type[BaseModel], body: dict[str, Any], refusal: Refusal = bad_request) -> tuple[str, str]:
    with pytest.raises(CommandError) as error:
        parse(model, body, refusal)
    return error.value.code, error.value.message


@pytest.mark.parametrize("seat", [-1, 4, "1", True, 1.0, None, [], 2**64])
def test_a_bad_seat_is_bad_request_naming_the_seat(seat: object) -> None:
    assert refused(JoinBody, {"seat": seat}, SEAT_REFUSAL) == ("bad_request", SEAT)
    assert refused(BotBody, {"seat": seat, "level": "random"}, SEAT_REFUSAL) == ("bad_request", SEAT)
    assert refused(JoinBody, {}, SEAT_REFUSAL) == ("bad_request", SEAT)


def test_a_join_invite_that_is_not_a_string_matches_no_seat() -> None:
    assert parse(JoinBody, {"seat": 2, "invite": "abc"}, SEAT_REFUSAL) == JoinBody(seat=2, invite="abc")
    assert parse(JoinBody, {"seat": 2, "invite": 5}, SEAT_REFUSAL).invite is None
    assert parse(JoinBody, {"seat": 2, "x": 1}, SEAT_REFUSAL) == JoinBody(seat=2)  # unknown fields ignored


def test_a_bot_is_heuristic_unless_a_known_level_is_asked() -> None:
    assert parse(BotBody, {"seat": 1}, SEAT_REFUSAL).level == "heuristic"
    assert parse(BotBody, {"seat": 1, "level": "strong"}, SEAT_REFUSAL).level == "strong"
    for level in ("Strong", None, 3, "genius"):
        code, message = refused(BotBody, {"seat": 1, "level": level}, SEAT_REFUSAL)
        assert code == "bad_request" and message.startswith("level must be one of random, heuristic"), message


def test_fill_bots_is_read_as_json_truth_as_before() -> None:
    assert [parse(StartBody, body).fill_bots for body in ({}, {"fill_bots": True}, {"fill_bots": 0},
                                                         {"fill_bots": "yes"}, {"fill_bots": None})] == [
        False, True, False, True, False]


def test_a_start_fills_with_heuristic_bots_unless_an_accepted_level_is_asked() -> None:
    assert parse(StartBody, {"fill_bots": True}, LEVEL_REFUSAL).level == "heuristic"
    for level in ("club", "beginner", "strong"):  # offered or only accepted: the server seats both
        assert parse(StartBody, {"fill_bots": True, "level": level}, LEVEL_REFUSAL).level == level
    for bad in ("Club", None, 3, "genius"):
        code, message = refused(StartBody, {"fill_bots": True, "level": bad}, LEVEL_REFUSAL)
        assert code == "bad_request" and message.startswith("level must be one of random, heuristic"), message


def test_a_guest_name_keeps_the_name_checks_own_refusal() -> None:
    refusal = field_refusal("bad_name", {})
    assert parse(SessionBody, {"name": "  Anna  "}, refusal).name == "Anna"
    assert refused(SessionBody, {}, refusal) == ("bad_name", "name must be a string")
    assert refused(SessionBody, {"name": 7}, refusal) == ("bad_name", "name must be a string")
    code, message = refused(SessionBody, {"name": "Bot"}, refusal)
    assert code == "bad_name" and "reserved" in message


def test_bot_api_bodies_name_their_field() -> None:
    accept = field_refusal("bad_request", {"accept": "accept must be true or false"})
    assert parse(ChallengesBody, {"accept": False}, accept).accept is False
    for body in ({}, {"accept": "yes"}, {"accept": 1}):
        assert refused(ChallengesBody, body, accept) == ("bad_request", "accept must be true or false")
    token = field_refusal("bad_request", {"token": "token must be an API token"})
    for body in ({}, {"token": 5}, {"token": "not-a-token"}):
        assert refused(ClaimBody, body, token) == ("bad_request", "token must be an API token")


def _routes(app: FastAPI) -> list[BaseRoute]:
    """Every route of ``app``, an included router's among them (FastAPI keeps those in a wrapper)."""
    found: list[BaseRoute] = []
    for route in app.routes:
        inner = getattr(getattr(route, "original_router", None), "routes", None)
        found.extend(inner if inner is not None else [route])
    return found


def test_create_app_holds_no_route_of_its_own() -> None:
    app = create_app(Settings(db_url="sqlite+aiosqlite:///:memory:", metrics=True))
    modules = {getattr(getattr(route, "endpoint", None), "__module__", None) for route in _routes(app)}
    assert "ulti.server.app" not in modules
    assert {"ulti.server.table_routes", "ulti.server.session_routes", "ulti.server.process_routes",
            "ulti.server.socket_routes"} <= modules
    paths = {getattr(route, "path", None) for route in _routes(app)}
    assert {"/healthz", "/metrics", "/api/session", "/api/tables", "/api/tables/{table_id}/join", "/ws"} <= paths
    without = create_app(Settings(db_url="sqlite+aiosqlite:///:memory:", metrics=False))
    assert "/metrics" not in {getattr(route, "path", None) for route in _routes(without)}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"tables": 2}, "deals must be 6, 9 or 12"),
        ({"deals": "6", "tables": 2}, "deals must be 6, 9 or 12"),
        ({"deals": 6}, "tables must be a number from 1 to 50"),
        ({"deals": 6, "tables": 51}, "tables must be a number from 1 to 50"),
        ({"deals": 6, "tables": True}, "tables must be a number from 1 to 50"),
        ({"deals": 6, "tables": 2, "level": "genius"}, "level must be one of random, heuristic"),
        ({"deals": 6, "tables": 2, "move_seconds": 601}, "move_seconds must be an integer from 0 (no limit) to 600"),
    ],
)
def test_an_events_bad_setting_is_bad_config_naming_the_field(body: dict[str, Any], message: str) -> None:
    code, said = refused(EventBody, body, EVENT_REFUSAL)
    assert code == "bad_config" and said.startswith(message), said


def test_an_events_settings_parse_with_their_defaults() -> None:
    assert parse(EventBody, {"deals": 9, "tables": 3, "x": 1}, EVENT_REFUSAL) == EventBody(
        deals=9, tables=3, level="heuristic", move_seconds=0)


def test_a_bot_invitation_names_its_seat_and_looks_any_name_up_as_text() -> None:
    assert parse(InviteBotBody, {"seat": 1, "bot": "Robo"}, SEAT_REFUSAL) == InviteBotBody(seat=1, bot="Robo")
    assert parse(InviteBotBody, {"seat": 1}, SEAT_REFUSAL).bot is None
    assert parse(InviteBotBody, {"seat": 1, "bot": 5}, SEAT_REFUSAL).bot == "5"
    for seat in (4, "1", None):
        assert refused(InviteBotBody, {"seat": seat, "bot": "Robo"}, SEAT_REFUSAL) == ("bad_request", SEAT)


@pytest.mark.parametrize(("body", "field"), [
    ({"table": 0}, "table"), ({"table": "1"}, "table"), ({"table": True}, "table"), ({"table": 51}, "table"),
    ({"seat": 3}, "seat"), ({"seat": -1}, "seat"), ({"seat": "x"}, "seat"), ({"table": 1, "seat": 1.0}, "seat"),
])
def test_a_duplicate_join_names_its_bad_table_or_seat(body: dict[str, Any], field: str) -> None:
    code, message = refused(DuplicateJoinBody, body, JOIN_REFUSAL)
    assert code == "bad_request" and message.startswith(f"{field} must be")


def test_a_duplicate_join_asks_for_any_seat_unless_told() -> None:
    assert parse(DuplicateJoinBody, {}, JOIN_REFUSAL) == DuplicateJoinBody(table=None, seat=None)
    asked = parse(DuplicateJoinBody, {"table": 2, "seat": 0, "other": 1}, JOIN_REFUSAL)
    assert asked == DuplicateJoinBody(table=2, seat=0)


@pytest.mark.parametrize(("model", "body", "code", "message"), [
    (RegisterBody, {"password": "long enough"}, "bad_name", "name must be a string"),
    (RegisterBody, {"name": "Anna", "password": 5}, "bad_password", "password must be a string"),
    (RegisterBody, {"name": "Anna", "password": "x"}, "bad_password", "password must be"),
    (LoginBody, {"name": ["Anna"], "password": "x"}, "bad_name", "name must be a string"),
    (LoginBody, {"name": "Anna"}, "bad_password", "password must be a string"),
    (PasswordChangeBody, {"current_password": "x", "new_password": "y"}, "bad_password", "new_password must be"),
    (PasswordChangeBody, {"new_password": "long enough"}, "bad_password", "password must be a string"),
    (PasswordBody, {"password": None}, "bad_password", "password must be a string"),
])
def test_an_account_body_is_refused_with_the_account_rules_code(
    model: type[BaseModel], body: dict[str, Any], code: str, message: str,
) -> None:
    got_code, got_message = refused(model, body, ACCOUNT_REFUSAL)
    assert got_code == code and got_message.startswith(message), (got_code, got_message)


def test_an_account_body_keeps_its_text_and_ignores_other_fields() -> None:
    body = parse(LoginBody, {"name": " Anna ", "password": "any", "remember": True}, ACCOUNT_REFUSAL)
    assert (body.name, body.password) == (" Anna ", "any")  # a login's name is looked up, not cleaned, here
    assert parse(RegisterBody, {"name": " Anna  Kis ", "password": "long enough"}, ACCOUNT_REFUSAL).name == "Anna Kis"


@pytest.mark.parametrize(("body", "message"), [
    ({"scopes": ["bot:play"]}, "name must be a string"),
    ({"name": "x" * 100, "scopes": ["bot:play"]}, "name must be 1 to"),
    ({"name": "bot", "scopes": []}, "scopes must be a non-empty list"),
    ({"name": "bot", "scopes": ["root"]}, "unknown scope 'root'"),
])
def test_a_token_request_names_its_bad_name_or_scopes(body: dict[str, Any], message: str) -> None:
    code, got = refused(TokenBody, body, TOKEN_REFUSAL)
    assert code == "bad_request" and got.startswith(message), got
    made = parse(TokenBody, {"name": " my  bot ", "scopes": ["table:read", "bot:play"]}, TOKEN_REFUSAL)
    assert (made.name, made.scopes) == ("my bot", ("bot:play", "table:read"))
