"""One visibility policy for every route (ulti/server/visibility.py): declared, asked, and no side door.

- Every route of the application declares what it shows (``shows_tables`` or ``shows_no_table``); a
  route added without a declaration fails here, as a planted one shows.
- A route declared to show a table that answers without asking the policy is refused, not answered.
- Against a real server: while a two-table event runs and table 1 is still bidding deal 0, nothing of
  table 2's deals reaches anyone but table 2's own seats, from any route of the application (HTTP,
  NDJSON streams with and without ``since``, the WebSocket): not the player of table 1 through her
  session or her ``table:read`` token, not a second player of table 1, not a guest, not an anonymous
  visitor.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI, Request
from starlette.routing import Mount

from tests.server.botapi_helpers import new_account
from tests.server.conftest import ServerProcess
from tests.server.helpers import every_route, until
from ulti.client import GameClient, ServerError
from ulti.server import tablerecords
from ulti.server.app import create_app
from ulti.server.config import Settings
from ulti.server.errors import CommandError
from ulti.server.visibility import MARK, listed, shows_tables

#: FastAPI's own pages about the API (its schema and the two documentation pages): no table in them
FRAMEWORK_PATHS = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}
#: a card's record code as a JSON string ("7C" ... "AH")
CARD = re.compile(r'"[789TJQKA][CSDH]"')


def undeclared(app: FastAPI) -> list[str]:
    """The routes of ``app`` that do not say what they show (the static web files excepted: no table in them)."""
    missing = []
    for route in every_route(app):
        path = getattr(route, "path", "?")
        if path in FRAMEWORK_PATHS or (isinstance(route, Mount) and route.name == "web"):
            continue
        if not getattr(getattr(route, "endpoint", None), MARK, None):
            missing.append(path)
    return missing


def get_paths(app: FastAPI) -> list[str]:
    """The path templates of ``app``'s GET routes (the framework's own pages left out)."""
    paths = []
    for route in every_route(app):
        if "GET" in (getattr(route, "methods", None) or ()) and route.path not in FRAMEWORK_PATHS:  # type: ignore[attr-defined]
            paths.append(route.path)  # type: ignore[attr-defined]
    return paths


def _app() -> FastAPI:
    return create_app(Settings(db_url="sqlite+aiosqlite:///:memory:"))


def test_every_route_of_the_application_declares_what_it_shows() -> None:
    assert undeclared(_app()) == []


def test_a_planted_route_that_shows_a_table_without_the_policy_is_found() -> None:
    app = _app()

    @app.get("/api/tables/{table_id}/peek")
    async def peek(request: Request, table_id: str) -> dict[str, Any]:
        return dict(tablerecords.deal_record((await request.app.state.hub.source(table_id)).state, 0))

    assert undeclared(app) == ["/api/tables/{table_id}/peek"]


@pytest.mark.asyncio
async def test_a_route_declared_to_show_tables_that_never_asks_the_policy_is_refused() -> None:
    @shows_tables
    async def forgetful() -> dict[str, Any]:
        return {"hands": [["AH", "KH"]]}

    @shows_tables
    async def careful() -> dict[str, Any]:
        return {"tables": listed([{"table_id": "t", "event": "e", "totals": [1, 2, -3], "winner": 0}])}

    with pytest.raises(CommandError) as refused:
        await forgetful()
    assert refused.value.code == "visibility_unchecked"
    assert await careful() == {"tables": [{"table_id": "t", "event": "e", "totals": None, "winner": None}]}


# ---------------------------------------------------------------- against a real server


async def _guest(base_url: str, name: str) -> GameClient:
    client = GameClient(base_url)
    await client.login(name)
    return client


async def _body(client: httpx2.AsyncClient, path: str, headers: dict[str, str]) -> tuple[int, str]:
    """A GET's status and body; a stream is read for a second (it never ends by itself)."""
    text = ""
    async with client.stream("GET", path, headers=headers) as response:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                async for chunk in response.aiter_text():
                    text += chunk
    return response.status_code, text


def _concrete(template: str, ids: dict[str, str], index: int) -> str:
    return (template.replace("{table_id}", ids["table"]).replace("{event_id}", ids["event"])
            .replace("{name:path}", ids["name"]).replace("{index}", str(index)))


@pytest.mark.asyncio
async def test_nothing_of_an_unplayed_event_deal_leaves_by_any_route(server: ServerProcess) -> None:
    base = server.base_url
    host = await _guest(base, "Host")
    anna_account = await new_account(base, "Anna", bot=False)
    anna = GameClient(base)
    anna.token, anna.player_id = anna_account.session, anna_account.player_id
    ben = await _guest(base, "Ben")
    olga = await _guest(base, "Olga")
    event = await host.http("POST", "/api/events", {"deals": 6, "tables": 2, "level": "heuristic"})
    event_id, (own, other) = event["event_id"], event["tables"]
    await anna.http("POST", f"/api/events/{event_id}/join", {"table": 1})
    await ben.http("POST", f"/api/events/{event_id}/join", {"table": 1})
    # an onlooker who tries to watch before the start is refused as later (nothing live of an event table)
    await olga.connect()
    with pytest.raises(ServerError) as early:
        await olga.request({"type": "open_table", "table": other})
    assert early.value.code == "event_hidden"
    await olga.send({"type": "watch_lobby"})
    await host.http("POST", f"/api/events/{event_id}/start", {})
    for player in (anna, ben):
        await player.connect()
        await player.open_table(own)
    # Anna and Ben never act: table 1 stays in deal 0; table 2 (three bots) plays its whole match
    await until(lambda: _deals_played(host, event_id, 1, 6), 240, "table 2 finished its match")
    cross = await host.http("GET", f"/api/events/{event_id}")
    assert cross["tables"][0]["deals_played"] == 0 and cross["visible_deals"] == 0
    ids = {"table": other, "event": event_id, "name": cross["tables"][1]["seats"][0]["name"]}

    viewers = {
        "anonymous": {},
        "guest onlooker": {"authorization": f"Bearer {olga.token}"},
        "player of table 1": {"authorization": f"Bearer {anna.token}"},
        "her table:read token": {"authorization": f"Bearer {anna_account.token}"},
        "second player of table 1": {"authorization": f"Bearer {ben.token}"},
    }
    leaks: list[str] = []
    answered: dict[str, set[int]] = {}
    async with httpx2.AsyncClient(base_url=base, timeout=30) as client:
        for template in get_paths(_app()):
            if template.startswith("/api/puzzles"):
                # puzzles show cards by design, of finished ordinary deals only (never an event's:
                # ulti/server/puzzle_growth.py); tests/server/test_puzzle_routes.py checks what they show
                continue
            for index in (0, 1, 5):
                for query in ("", "?since=0&at=0", "?since=1&at=3&line="):
                    path = _concrete(template, ids, index) + query
                    for viewer, headers in viewers.items():
                        status, text = await _body(client, path, headers)
                        assert status < 500, (path, viewer, text[:300])
                        answered.setdefault(template, set()).add(status)
                        if CARD.search(text):  # no route (table 2, the event, lists) shows a card
                            leaks.append(f"{viewer}: GET {path} -> {status} {CARD.findall(text)[:5]}")
    assert leaks == []
    # the routes that show table 2's deals answered, with the refusal
    for template in ("/api/tables/{table_id}", "/api/bot/tables/{table_id}/stream",
                     "/api/tables/{table_id}/deals/{index}/record", "/api/tables/{table_id}/deals/{index}/replay"):
        assert 403 in answered[template], (template, answered[template])
    # the WebSocket: refused for both players of table 1, and nothing any of them received shows table 2's play
    for player in (anna, ben):
        with pytest.raises(ServerError) as refused:
            await player.request({"type": "open_table", "table": other})
        assert refused.value.code == "event_hidden"
    for message in olga.received:
        assert not CARD.search(json.dumps(message)), message.get("type")
    for player in (anna, ben):
        for message in player.received:
            assert other not in json.dumps(message) or message["type"] == "error", message.get("type")
    for player in (anna, ben, olga):
        await player.close()


async def _deals_played(client: GameClient, event_id: str, table: int, deals: int) -> bool:
    view = await client.http("GET", f"/api/events/{event_id}")
    return bool(view["tables"][table]["deals_played"] >= deals)
