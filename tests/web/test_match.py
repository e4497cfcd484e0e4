"""(a) A person plays a whole 6-deal match against two bots by clicking, and the sheet matches the record."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.driver import create_table, play_until, sign_in
from ulti.engine.record import deal_from_record, score_record


def test_whole_match_against_bots_by_clicking(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Anna")
    table_id = create_table(page, ("me", "bot.random", "bot.heuristic"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()

    rng = random.Random(20261129)
    play_until(page, rng, lambda s: s["winner"] != "", timeout=180)

    # The match is over: the winner is named and the score sheet is on the page.
    assert page.get_by_test_id("match-winner").is_visible()
    page.get_by_test_id("sheet-btn").click()
    dialog = page.get_by_test_id("sheet-dialog")
    dialog.wait_for()
    shown = [int(page.get_by_test_id(f"sheet-total-{s}").inner_text()) for s in range(3)]
    rows = page.locator("[data-testid^=sheet-row-]").count()
    assert page.get_by_test_id("sheet-chart").locator("polyline").count() == 3
    page.screenshot(path=str(SCREENSHOTS / "match_end_sheet_desktop.png"))

    with urllib.request.urlopen(f"{web_server.base_url}/api/tables/{table_id}/record") as response:
        record = json.load(response)
    scored = score_record(record)
    assert scored["complete"]
    assert shown == scored["totals"]
    assert rows == len(record["deals"]) >= 6
    assert sum(shown) == 0

    # Past matches: the match is listed, and the replay of deal 1 (rebuilt in the page from the
    # record) ends with the tricks the engine counts.
    page.get_by_test_id("sheet-close").click()
    page.get_by_test_id("nav-matches").click()
    page.get_by_test_id(f"show-{table_id}").click()
    page.get_by_test_id("replay-0").click()
    assert page.get_by_test_id("replay-step").inner_text().startswith("Step 0 of")
    page.get_by_test_id("replay-next-trick").click()
    page.get_by_test_id("replay-last").click()
    won = [page.get_by_test_id(f"replay-won-{s}").inner_text() for s in range(3)]
    engine = deal_from_record(record["deals"][0]).won
    assert won == [f"{n} tricks" for n in engine]
    assert page.get_by_test_id("deal-result").is_visible()
    assert page.get_by_test_id("download-match").get_attribute("href") == f"/api/tables/{table_id}/record"
    page.screenshot(path=str(SCREENSHOTS / "replay_desktop.png"), full_page=True)
    assert page.js_errors == []
