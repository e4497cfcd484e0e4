"""Every HTTP route, fuzzed from the app's own OpenAPI schema (schemathesis): no input reaches a 5xx.

One real ``ulti serve`` process with its SQLite file serves the whole module. Before the fuzz, real
things are made on it: a finished match, a table not started, a duplicate event, a guest, an account and a
bot account with an API token. Each generated request (valid by the schema, or deliberately invalid)
then goes out with path ids that are random or, as often, those real ones, so that it gets past
``not_found`` into the routes' own checks, and with no session, a guest's, an account's or a bot token.

The check, for every request: the answer is not a 5xx, and the server logged no error and no traceback
while answering it (its log is JSON lines: ``"level": "error"`` or an ``exc`` field would say so).

The bodies the routes read by hand are described in the schema by ``ulti.server.openapi_bodies``; a
state-changing route with no described body (and not listed as reading none) fails here.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
import requests
import schemathesis
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from starlette.routing import Route

from tests.server.conftest import ServerProcess
from ulti.server.app import create_app
from ulti.server.config import Settings
from ulti.server.openapi_bodies import BODIES, NO_BODY

#: examples per route (each is one request): the whole module takes a few minutes on the 2-core machine
EXAMPLES = 50
#: a stream route answers its first line at once; the fuzz reads its status and hangs up
STREAM_TYPES = ("application/x-ndjson",)
PASSWORD = "correct horse battery staple"

RAW_SCHEMA: dict[str, Any] = create_app(Settings.for_tests("sqlite+aiosqlite:///:memory:")).openapi()
schema = schemathesis.openapi.from_dict(RAW_SCHEMA)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES)

#: routes whose success would end the credentials the rest of the fuzz uses: sent without a session
ANONYMOUS_ONLY = {("POST", "/api/account/logout"), ("POST", "/api/account/register")}


@dataclass
class Fuzzed:
    """The server under fuzz and the real things made on it."""

    server: ServerProcess
    log_path: Path
    ids: dict[str, list[Any]] = field(default_factory=dict)  # real values by parameter name (path or query)
    auths: list[dict[str, str]] = field(default_factory=list)


async def _made(base_url: str) -> tuple[dict[str, list[Any]], list[dict[str, str]]]:
    """Real ids (by path parameter name) and credentials, made through the API itself."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=30) as http:

        async def call(method: str, path: str, token: str | None, body: Any = None) -> Any:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            http.cookies.clear()  # each call is authenticated by its bearer token alone
            response = await http.request(method, path, json=body, headers=headers)
            assert response.status_code == 200, (method, path, response.text)
            return response.json()

        guest = (await call("POST", "/api/session", None, {"name": "Fuzz Guest"}))["token"]
        seats_open = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
        open_table = (await call("POST", "/api/tables", guest, {"deals": 6, "seats": seats_open}))["table_id"]
        bots = [{"kind": "bot", "level": "random"}] * 3
        finished = (await call("POST", "/api/tables", guest, {"deals": 6, "seats": bots, "move_seconds": 0}))[
            "table_id"
        ]
        await call("POST", f"/api/tables/{finished}/start", guest, {})
        event = await call("POST", "/api/events", guest, {"deals": 6, "tables": 1})
        person = (await call("POST", "/api/account/register", None, {"name": "Fuzz Person", "password": PASSWORD}))[
            "token"
        ]
        robot = (await call("POST", "/api/account/register", None, {"name": "Robo Fuzzer", "password": PASSWORD}))[
            "token"
        ]
        scopes = ["bot:play", "table:read"]
        bot_token = (await call("POST", "/api/account/tokens", robot, {"name": "fuzz", "scopes": scopes}))["token"]
        spare = (await call("POST", "/api/account/tokens", person, {"name": "spare", "scopes": scopes}))["id"]
        await call("POST", "/api/bot/account/upgrade", bot_token, {})
        deadline = time.monotonic() + 60
        while (await call("GET", f"/api/tables/{finished}", guest))["table"]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' match did not finish"
            await asyncio.sleep(0.2)
        record = await call("GET", f"/api/tables/{finished}/deals/0/record", guest)
    # points of deal 0's play (a what-if starts there): the fuzz's lines then reach the card codes
    first_card = next((i for i, a in enumerate(record["actions"]) if a["action"] == "play"), 0)
    ids: dict[str, list[Any]] = {
        "at": [first_card, first_card + 1, first_card + 4],
        "since": [0, 3, 40],
        "table_id": [finished, open_table, event["tables"][0]],
        "index": [0, 0, 1, 5],
        "event_id": [event["event_id"]],
        "name": ["Fuzz Person", "Fuzz Guest", "Robo Fuzzer"],
        "token_id": [spare],
    }
    # no session last: hypothesis draws the first options most often, and a request without one stops at 401
    auths = [{"authorization": f"Bearer {t}"} for t in (guest, person, bot_token)] + [{}]
    return ids, auths


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    """One fuzzed server for the module, with real things on it; its whole log is checked at the end."""
    tmp = tmp_path_factory.mktemp("fuzz")
    server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}")
    server.start(tmp / "server.log")
    try:
        ids, auths = asyncio.run(_made(server.base_url))
        yield Fuzzed(server, tmp / "server.log", ids, auths)
    finally:
        server.stop()
    errors = log_errors((tmp / "server.log").read_text())
    assert not errors, errors[:3]


def log_errors(text: str) -> list[str]:
    """The log lines that record an error or a traceback (the server logs one JSON object a line)."""
    bad = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            if line.strip():
                bad.append(line)  # not the server's own form: uvicorn's or Python's bare output
            continue
        if record.get("level") in ("error", "critical") or "exc" in record or "Traceback" in line:
            bad.append(line)
    return bad


#: the app's HTTP routes left out of the schema (so out of the fuzz), each for a reason
NOT_IN_SCHEMA = {
    "/@/{name}": "the player page: the same static file whatever the name",
    "/metrics": "the process's Prometheus figures: no input",
    "/openapi.json": "the schema itself", "/docs": "FastAPI's schema viewer",
    "/docs/oauth2-redirect": "FastAPI's schema viewer", "/redoc": "FastAPI's schema viewer",
}


def _paths(routes: list[Any]) -> Iterator[str]:
    """The paths of ``routes``, included routers' routes too (FastAPI keeps an included router whole)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _paths(included.routes)
        elif isinstance(route, APIRoute | Route):
            yield route.path_format  # "{name:path}" as the schema writes it: "{name}"


def test_every_http_route_is_in_the_schema_the_fuzz_reads() -> None:
    """A route added without being in ``/openapi.json`` would escape the fuzz: only the listed ones may."""
    app = create_app(Settings.for_tests("sqlite+aiosqlite:///:memory:"))
    missing = set(_paths(app.routes)) - set(RAW_SCHEMA["paths"])
    assert missing == set(NOT_IN_SCHEMA), missing ^ set(NOT_IN_SCHEMA)


def test_every_state_changing_route_describes_its_body_in_the_schema() -> None:
    """A POST/PUT/PATCH/DELETE route is in ``openapi_bodies.BODIES`` (so the fuzz sends it bodies) or in
    ``NO_BODY``: a new route cannot be left out of the fuzz's bodies unnoticed."""
    changing = {
        (method.upper(), path)
        for path, operations in RAW_SCHEMA["paths"].items()
        for method in operations
        if method.upper() in ("POST", "PUT", "PATCH", "DELETE")
    }
    described = {
        (method.upper(), path)
        for path, operations in RAW_SCHEMA["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    }
    assert described == set(BODIES)
    assert changing == set(BODIES) | NO_BODY, changing ^ (set(BODIES) | NO_BODY)


@schema.parametrize()
@schema.given(data=st.data())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_route_answers_a_server_error_or_logs_one(case: Any, data: st.DataObject, fuzzed: Fuzzed) -> None:
    operation = (case.method.upper(), case.path)
    for name in list(case.path_parameters or {}):
        real = fuzzed.ids.get(name)
        if real and data.draw(st.booleans(), label=f"real {name}"):
            case.path_parameters[name] = data.draw(st.sampled_from(real), label=name)
    for name in list(case.query or {}):
        real = fuzzed.ids.get(name)
        if real and data.draw(st.booleans(), label=f"real {name}"):
            case.query[name] = data.draw(st.sampled_from(real), label=name)
    auths = fuzzed.auths[-1:] if operation in ANONYMOUS_ONLY else fuzzed.auths
    headers = data.draw(st.sampled_from(auths), label="credentials")
    mark = fuzzed.log_path.stat().st_size
    kwargs = case.as_transport_kwargs(base_url=fuzzed.server.base_url, headers=headers)
    with requests.request(**kwargs, stream=True, timeout=30) as response:
        status = response.status_code
        if not response.headers.get("content-type", "").startswith(STREAM_TYPES):
            response.content  # noqa: B018 - read the whole answer: an error may come while it is sent
    assert status < 500, (operation, kwargs, status)
    with fuzzed.log_path.open("rb") as log:
        log.seek(mark)
        new = log.read().decode("utf-8", "replace")
    errors = log_errors(new)
    assert not errors, (operation, kwargs, errors[:3])
