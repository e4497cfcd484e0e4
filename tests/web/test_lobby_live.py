"""The lobby page keeps its list current from the server's `lobby_update` pushes (protocol §7)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.web.driver import sign_in

EXPIRE_SECONDS = 4


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose unstarted tables expire after a few seconds."""
    tmp: Path = tmp_path_factory.mktemp("lobby")
    srv = ServerProcess(
        db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}",
        args=("--fast", "--expire-unstarted-seconds", str(EXPIRE_SECONDS)),
    )
    srv.start(tmp / "server.log")
    yield srv
    srv.stop()


def call(srv: ServerProcess, path: str, body: dict[str, Any], token: str = "") -> Any:
    """POST JSON to the server as another player (not through the page)."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(srv.base_url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_the_lobby_page_adds_changes_and_drops_tables_as_they_happen(lobby_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, lobby_server.base_url, "Anna")
    page.get_by_test_id("no-tables").wait_for()
    dora = call(lobby_server, "/api/session", {"name": "Dora"})["token"]
    bea = call(lobby_server, "/api/session", {"name": "Bea"})["token"]
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    first = call(lobby_server, "/api/tables", {"deals": 6, "seats": seats}, dora)["table_id"]
    second = call(lobby_server, "/api/tables", {"deals": 9, "seats": seats}, dora)["table_id"]

    # new tables appear, newest first
    page.get_by_test_id(f"table-{second}").wait_for()
    page.get_by_test_id(f"table-{first}").wait_for()
    order = page.eval_on_selector_all("[data-table]", "els => els.map((e) => e.dataset.table)")
    assert order == [second, first]
    # a change to one table shows in place
    call(lobby_server, f"/api/tables/{first}/join", {"seat": 2}, bea)
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=table-{first}]').innerText.includes('Bea')"
    )
    assert page.get_by_test_id(f"join-{first}-2").count() == 0
    assert page.get_by_test_id(f"join-{first}-1").count() == 1
    # unstarted tables expire and leave the list
    page.get_by_test_id("no-tables").wait_for(timeout=(EXPIRE_SECONDS + 6) * 1000)
    # an expired table's page says so, and offers no seat
    page.goto(f"{lobby_server.base_url}/table.html?t={first}")
    page.get_by_test_id("table-expired").wait_for()
    assert page.get_by_test_id("sit-1").count() == 0
    assert page.js_errors == []
