"""The JSON bodies (and hand-read query parameters) of the HTTP routes, as ``/openapi.json`` describes them.

The routes read their bodies themselves (``bodies.body_as``: decoded with the edge's limits, then parsed
into a model whose refusal names the field in the project's own words), so FastAPI cannot see them as
parameters. This table says what each body holds,
for the schema's readers and for the property-based fuzz of every route (tests/server/test_schema_fuzz.py),
which would otherwise send no body at all. A state-changing route missing from it fails that test:
a new route is described here, or listed in ``NO_BODY``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute, APIRouter

from ulti.server.puzzle_routes import MoveBody
from ulti.server.tablestate import BOT_LEVELS
from ulti.server.tournament_routes import CreateBody, DeskBody, RegisterBody

Schema = dict[str, Any]

_STRING: Schema = {"type": "string"}
_INT: Schema = {"type": "integer"}
_BOOL: Schema = {"type": "boolean"}
_SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 2}
_LEVEL: Schema = {"type": "string", "enum": list(BOT_LEVELS)}
#: a command id (docs/protocol/connection.md §5.3): a short string or a 64-bit integer
_ID: Schema = {"anyOf": [{"type": "string", "maxLength": 64}, {"type": "integer"}]}
_ACTION: Schema = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["bid", "take", "pass", "trump", "give_up", "kontra", "play"]},
        "card": _STRING, "bid": _STRING, "suit": _STRING,
        "discard": {"type": "array", "items": _STRING},
        "parts": {"type": "array", "items": _STRING},
    },
    "required": ["action"],
}
_SEAT_SPEC: Schema = {
    "type": "object",
    "properties": {"kind": {"type": "string", "enum": ["me", "open", "invite", "bot"]}, "level": _LEVEL},
    "required": ["kind"],
}


def _object(required: tuple[str, ...] = (), **properties: Schema) -> Schema:
    return {"type": "object", "properties": properties, "required": list(required)}


#: (method, path) -> the JSON object the route reads
BODIES: dict[tuple[str, str], Schema] = {
    ("POST", "/api/session"): _object(("name",), name=_STRING),
    ("POST", "/api/tables"): _object(
        ("deals", "seats"),
        deals={"type": "integer", "enum": [6, 9, 12]},
        move_seconds={"type": "integer", "minimum": 0, "maximum": 600},
        seats={"type": "array", "items": _SEAT_SPEC, "minItems": 3, "maxItems": 3},
        rated=_BOOL, learner=_BOOL, duplicate=_BOOL, seed=_INT,
    ),
    ("POST", "/api/tables/{table_id}/join"): _object(seat=_SEAT, invite=_STRING),
    ("POST", "/api/tables/{table_id}/bot"): _object(("seat",), seat=_SEAT, level=_LEVEL),
    ("POST", "/api/tables/{table_id}/start"): _object(fill_bots=_BOOL, level=_LEVEL),
    ("POST", "/api/tables/{table_id}/invite_bot"): _object(("seat", "bot"), seat=_SEAT, bot=_STRING),
    ("POST", "/api/account/register"): _object(("name", "password"), name=_STRING, password=_STRING),
    ("POST", "/api/account/login"): _object(("name", "password"), name=_STRING, password=_STRING),
    ("POST", "/api/account/password"): _object(
        ("current_password", "new_password"), current_password=_STRING, new_password=_STRING
    ),
    ("DELETE", "/api/account"): _object(("password",), password=_STRING),
    ("POST", "/api/account/tokens"): _object(
        ("name", "scopes"), name=_STRING,
        scopes={"type": "array", "items": {"type": "string", "enum": ["bot:play", "table:read"]}},
    ),
    ("POST", "/api/account/bots"): _object(("token",), token=_STRING),
    ("POST", "/api/bot/account/challenges"): _object(("accept",), accept=_BOOL),
    ("POST", "/api/bot/tables/{table_id}/join"): _object(("seat",), seat=_SEAT, invite=_STRING),
    ("POST", "/api/bot/tables/{table_id}/act"): _object(("action",), id=_ID, action=_ACTION),
    ("POST", "/api/bot/tables/{table_id}/chat"): _object(id=_ID, phrase=_STRING, text=_STRING),
    ("POST", "/api/events"): _object(
        ("deals", "tables"),
        deals={"type": "integer", "enum": [6, 9, 12]},
        tables={"type": "integer", "minimum": 1, "maximum": 50},
        level=_LEVEL, move_seconds={"type": "integer", "minimum": 0, "maximum": 600},
    ),
    ("POST", "/api/events/{event_id}/join"): _object(table={"type": "integer", "minimum": 1}, seat=_SEAT),
    # tournaments (docs/protocol/tournaments.md): their routes read pydantic models, whose schema this is
    ("POST", "/api/tournaments"): CreateBody.model_json_schema(),
    ("POST", "/api/tournaments/{tournament_id}/register"): RegisterBody.model_json_schema(),
    ("POST", "/api/bot/tournaments/{tournament_id}/register"): RegisterBody.model_json_schema(),
    ("POST", "/api/tournaments/{tournament_id}/desk"): DeskBody.model_json_schema(),
    # puzzles (docs/protocol/puzzles.md): a pydantic body too
    ("POST", "/api/puzzles/{puzzle_id}/move"): MoveBody.model_json_schema(),
}

#: (method, path) -> the query parameters the route reads by hand (``request.query_params``)
QUERIES: dict[tuple[str, str], list[Schema]] = {
    ("GET", "/api/bot/tables/{table_id}/stream"): [
        {"name": "since", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0}},
    ],
}

#: state-changing routes that read no body (any body sent is still checked by the RequestGuard)
NO_BODY: set[tuple[str, str]] = {
    ("POST", "/api/tables/{table_id}/leave"),
    ("POST", "/api/tables/{table_id}/resign"),
    ("POST", "/api/tables/{table_id}/rematch"),
    ("POST", "/api/account/logout"),
    ("DELETE", "/api/account/tokens/{token_id}"),
    ("POST", "/api/bot/account/upgrade"),
    ("POST", "/api/bot/tables/{table_id}/leave"),
    ("POST", "/api/events/{event_id}/leave"),
    ("POST", "/api/events/{event_id}/start"),
    ("POST", "/api/tournaments/{tournament_id}/checkin"),
    ("POST", "/api/tournaments/{tournament_id}/withdraw"),
}


def describe_bodies(*routers: FastAPI | APIRouter) -> None:
    """Put each route's body (``BODIES``) and hand-read query parameters (``QUERIES``) into the OpenAPI
    schema: call it with the app and every router it includes, before the schema is first built."""
    for router in routers:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            for method in route.methods or ():
                extra: dict[str, Any] = {}
                body = BODIES.get((method, route.path))
                if body is not None:
                    extra["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
                if (method, route.path) in QUERIES:
                    extra["parameters"] = QUERIES[(method, route.path)]  # added to the route's own
                if extra and route.openapi_extra != extra:  # the routers are shared by every app made
                    route.openapi_extra = extra
