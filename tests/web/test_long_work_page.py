"""The replay page under the long-work request rate (docs/protocol/analysis.md §22.6): refused with
``retry_after`` while it polls a deal's analysis, it waits as told and goes on until the analysis shows."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.web.driver import sign_in

RANDOM_BOTS = [{"kind": "bot", "level": "random"}] * 3


@pytest.fixture
def slow_quota_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose accounts may make two long-work requests every four seconds."""
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
                        args=("--fast", "--work-quota", "requests_per_player=2 per 4 seconds"))
    srv.start(tmp_path / "server.log")
    yield srv
    srv.stop()


def finished_match(base_url: str) -> str:
    """A 6-deal match of three random bots, played to its end (its analyses are open to any session)."""
    with httpx2.Client(base_url=base_url, timeout=30) as client:
        token = client.post("/api/session", json={"name": "Host"}).json()["token"]
        headers = {"authorization": f"Bearer {token}"}
        table_id: str = client.post("/api/tables", json={"deals": 6, "seats": RANDOM_BOTS, "move_seconds": 0},
                                    headers=headers).json()["table_id"]
        client.post(f"/api/tables/{table_id}/start", json={}, headers=headers)
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}", headers=headers).json()["table"]["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not finish"
            time.sleep(0.1)
    return table_id


def test_the_replay_page_waits_out_a_long_work_refusal_and_shows_the_analysis(
    slow_quota_server: ServerProcess, new_page: Any
) -> None:
    table_id = finished_match(slow_quota_server.base_url)
    page = new_page()
    sign_in(page, slow_quota_server.base_url, "Rita")
    refusals: list[int] = []
    page.on("response", lambda r: refusals.append(r.status) if "/analysis" in r.url and r.status == 429 else None)
    page.goto(f"{slow_quota_server.base_url}/matches.html?t={table_id}&k=0")
    page.get_by_test_id("an-graph").wait_for(timeout=90_000)
    assert refusals, "the page was never refused: the test proves nothing"
    assert page.get_by_test_id("an-refused").count() == 0
    assert page.js_errors == []
