"""Whose turn it is is never in doubt: one marker, both defenders marked (and told) when either may say
the chain's step, and a log whose title follows the deal's phase (Bidding, Play, Result)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from tests.server.helpers import three_players
from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.scripted import Scripted, to_defenders_step
from ulti.client import GameClient, ServerError

ON_TURN_JS = "() => [0, 1, 2].filter((s) => document.querySelector(`[data-testid=seat-${s}]`)?.dataset.onTurn === '1')"


async def play_out(clients: list[GameClient], timeout: float = 60) -> None:
    """Random legal actions for every seat that may act (both defenders in the chain) until the deal ends."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (clients[0].state and clients[0].state["deal"]["phase"] == "done"):
        assert asyncio.get_running_loop().time() < deadline, "the deal did not end"
        for salt, client in enumerate(clients):
            if client.my_choices():
                with contextlib.suppress(ServerError):  # the other defender spoke first: look again
                    await client.act(client.random_action(salt))
        await asyncio.sleep(0.05)


def test_both_defenders_are_marked_and_told_in_the_kontra_chain(web_server: Any, new_page: Any) -> None:
    script = Scripted()
    table_id, clients = script.run(lambda: three_players(web_server.base_url, deals=6, names="Turn"))
    try:
        # every seat's page and a spectator's open the table during the auction
        script.run(lambda: clients[0].http("POST", f"/api/tables/{table_id}/start", {}))
        script.run(lambda: clients[0].wait_for(lambda: bool(clients[0].state and clients[0].state["deal"]), 10))
        pages: dict[int, Any] = {}
        for seat in range(3):
            page = new_page(DESKTOP)
            page.context.add_cookies([{"name": "ulti_session", "value": clients[seat].token,
                                       "url": web_server.base_url}])
            page.goto(f"{web_server.base_url}/table.html?t={table_id}")
            pages[seat] = page
        watcher = new_page(DESKTOP)
        watcher.goto(f"{web_server.base_url}/table.html?t={table_id}")
        # (the spectator's page asks a name first)
        watcher.get_by_test_id("name-input").fill("Onlooker")
        watcher.get_by_test_id("name-submit").click()
        watcher.get_by_test_id("log-title").wait_for()
        # the auction: the log is the bidding, one seat is marked
        assert pages[0].get_by_test_id("log-title").inner_text() == "Bidding"
        assert len(pages[0].evaluate(ON_TURN_JS)) == 1

        script.run(lambda: to_defenders_step(clients))
        deal = clients[0].state["deal"]  # type: ignore[index]
        declarer = deal["contract"]["declarer"]
        defenders = [s for s in range(3) if s != declarer]
        for page in [*pages.values(), watcher]:
            page.wait_for_function(f"() => {ON_TURN_JS}().length === 2")
            assert page.evaluate(ON_TURN_JS) == defenders
            assert page.get_by_test_id("log-title").inner_text() == "Play"
        for seat in defenders:
            told = pages[seat].get_by_test_id("your-turn")
            assert told.get_attribute("data-either") == "1"
            assert "either defender may say Szubkontra" in told.inner_text()
            assert pages[seat].get_by_test_id("kontra-box").is_visible()
        names = [f"Turn {s}" for s in defenders]
        for page in (pages[declarer], watcher):
            line = page.get_by_test_id("status-line").inner_text()
            assert all(name in line for name in names) and "either defender may say Szubkontra" in line, line
        pages[defenders[0]].screenshot(path=str(SCREENSHOTS / "kontra_chain_both_defenders_desktop.png"))

        # one defender declines: only the other is marked, and told it is their turn alone
        first = clients[defenders[0]]
        script.run(lambda: first.act({"action": "kontra", "parts": []}))
        other = pages[defenders[1]]
        other.wait_for_function(f"() => {ON_TURN_JS}().length === 1")
        assert other.evaluate(ON_TURN_JS) == [defenders[1]]
        assert other.get_by_test_id("your-turn").inner_text() == "Your turn"

        # the deal is played out: the log's title becomes the result
        script.run(lambda: play_out(clients))
        pages[0].wait_for_function("() => document.querySelector('[data-testid=log-title]').textContent === 'Result'")
        assert pages[0].evaluate(ON_TURN_JS) == []
        for page in [*pages.values(), watcher]:
            assert page.js_errors == []
    finally:
        script.close(clients)
