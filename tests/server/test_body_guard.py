"""Request bodies are checked once, in the RequestGuard middleware, before any route reads them.

A route that parses its body by itself (``orjson.loads(await request.body())``) used to meet an
8,000-deep array on ``POST /api/events`` and answer 500 with a traceback, while every other route
answered ``too_deep``. The check is now in front of routing: a route planted here, which parses its
body with no check at all, gets only bodies that are safe to parse.
"""

from __future__ import annotations

from typing import Any

import httpx2
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from tests.server.conftest import ServerProcess
from ulti.client import GameClient
from ulti.server.httpguard import RequestGuard
from ulti.server.inputs import MAX_DEPTH

LIMIT = 16384
JSON = {"content-type": "application/json"}


async def planted(request: Request) -> JSONResponse:
    """A route added without any thought for its body: it parses whatever it is given."""
    body = orjson.loads(await request.body())
    return JSONResponse({"type": type(body).__name__})


def guarded_client() -> TestClient:
    app = Starlette(routes=[Route("/api/planted", planted, methods=["POST", "PUT", "PATCH", "DELETE", "GET"])])
    guarded = RequestGuard(app, max_body_bytes=LIMIT, cookie_name="ulti_session")
    return TestClient(guarded, raise_server_exceptions=False)


def nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_a_planted_route_that_parses_its_own_body_never_sees_a_bad_one(method: str) -> None:
    client = guarded_client()
    cases: list[tuple[bytes, int, str]] = [
        (nested(8000), 400, "too_deep"),
        (nested(1025), 400, "too_deep"),
        (b'{"a": ' + nested(MAX_DEPTH) + b"}", 400, "too_deep"),
        (b"{", 400, "bad_json"),
        (b'{"name": "Ann \\ud800"}', 400, "bad_json"),  # a lone surrogate could never be sent back
        (b'{"name": "\xff"}', 400, "bad_json"),
        (b'{"seat": 1e400}', 400, "bad_json"),
    ]
    for body, status, code in cases:
        response = client.request(method, "/api/planted", content=body, headers=JSON)
        assert error_of(response) == (status, code), (body[:40], response.text[:200])
    # a body the route can read reaches it unchanged, at the deepest nesting allowed
    ok = client.request(method, "/api/planted", content=nested(MAX_DEPTH), headers=JSON)
    assert ok.status_code == 200 and ok.json() == {"type": "list"}


def test_a_chunked_body_is_bounded_while_it_is_read_and_then_handed_on_whole() -> None:
    client = guarded_client()

    def chunks(total: int) -> Any:
        yield b'{"pad": "'
        sent = 9
        while sent < total - 2:
            yield b"x" * min(1000, total - 2 - sent)
            sent += min(1000, total - 2 - sent)
        yield b'"}'

    over = client.post("/api/planted", content=chunks(LIMIT + 500), headers=JSON)
    assert error_of(over) == (413, "too_large")
    under = client.post("/api/planted", content=chunks(LIMIT - 10), headers=JSON)
    assert under.status_code == 200 and under.json() == {"type": "dict"}


@pytest.mark.asyncio
async def test_creating_and_joining_an_event_refuse_deep_and_malformed_bodies_by_name(server: ServerProcess) -> None:
    """The two event routes read their body by hand; they answer like every other route (the ``server``
    fixture fails the test on any logged traceback)."""
    host = GameClient(server.base_url)
    await host.login("Host")
    auth = {"authorization": f"Bearer {host.token}", **JSON}
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30) as http:
        for path in ("/api/events", "/api/events/abc/join"):
            for body, status, code in (
                (nested(8000), 400, "too_deep"),
                (b"{" * 3, 400, "bad_json"),
                (b"[1]", 400, "bad_request"),
            ):
                response = await http.post(path, content=body, headers=auth)
                assert error_of(response) == (status, code), (path, body[:20], response.text[:200])
        # and a good body still creates the event
        made = await http.post("/api/events", content=b'{"deals": 6, "tables": 1}', headers=auth)
        assert made.status_code == 200 and len(made.json()["tables"]) == 1
