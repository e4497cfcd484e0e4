"""Two people and bots play a 6-deal duplicate event at two tables, through the pages (protocol §23).

The cross-table page shows each deal's matchpoints as the results give them, and hides from each person
the deals their own table has not finished.
"""

from __future__ import annotations

import random
from typing import Any

from tests.server.conftest import ServerProcess
from tests.web.conftest import SCREENSHOTS
from tests.web.driver import choose, play_until, sign_in
from ulti.duplicates import seat_matchpoints

CROSS_JS = """() => [...document.querySelectorAll('[data-testid^=deal-][data-visible]')].map((d) => ({
  visible: d.dataset.visible === '1',
  results: [...d.querySelectorAll('tr[data-mp]')].map((r) => ({
    table: r.dataset.testid.split('-')[2], mp: r.dataset.mp.split(',').map(Number),
    scores: r.dataset.scores.split(',').map(Number)})),
}))"""
STANDINGS_JS = """() => [...document.querySelectorAll('[data-testid^=standing-]')].map((r) => ({
  id: r.dataset.testid, mp: Number(r.dataset.mp)}))"""


def cross(page: Any) -> list[dict[str, Any]]:
    page.wait_for_selector("[data-testid=deal-0]")
    rows: list[dict[str, Any]] = page.evaluate(CROSS_JS)
    return rows


def finished(snap: dict[str, Any]) -> bool:
    return bool(snap["status"] == "finished")


def test_two_people_play_an_event_and_the_cross_table_hides_what_they_have_not_played(
    web_server: ServerProcess, new_page: Any
) -> None:
    anna, bela = new_page(), new_page()
    sign_in(anna, web_server.base_url, "Anna")
    sign_in(bela, web_server.base_url, "Béla")
    # Anna creates the event in the lobby (2 tables, 6 deals, heuristic bots: accepted, no longer offered,
    # the quickest that bid) and sits at table 1
    anna.get_by_test_id("event-tables").fill("2")
    choose(anna, "event-level", "heuristic")
    anna.get_by_test_id("create-event").click()
    anna.wait_for_url("**/event.html?e=*")
    event_url = anna.url
    anna.get_by_test_id("join-table-1").click()
    anna.wait_for_url("**/table.html?t=*")
    # Béla opens the event's page and sits at table 2
    bela.goto(event_url)
    bela.get_by_test_id("join-table-2").click()
    bela.wait_for_url("**/table.html?t=*")
    bela_table = bela.url
    # Anna starts it from the event's page; bots fill the four empty seats
    anna.goto(event_url)
    anna.get_by_test_id("start-event").click()
    anna.get_by_test_id("your-table").click()
    anna.wait_for_url("**/table.html?t=*")
    anna.get_by_test_id("event-link").wait_for()
    play_until(anna, random.Random(1), finished, timeout=240)

    # Béla has not played his first deal: every deal is hidden from him, even those table 1 finished
    bela_cross = bela.context.new_page()
    bela_cross.goto(event_url)
    hidden = cross(bela_cross)
    assert len(hidden) == 6 and not any(d["visible"] for d in hidden)
    assert bela_cross.get_by_test_id("deal-3-hidden").is_visible()
    # Anna finished all six: she sees table 1's results (only table 1's: table 2 has none yet)
    anna.goto(event_url)
    seen = cross(anna)
    assert all(d["visible"] and [r["table"] for r in d["results"]] == ["1"] for d in seen)
    anna.screenshot(path=str(SCREENSHOTS / "event-cross-table-partial.png"), full_page=True)

    # Béla plays his match to the end; then both see every deal with both tables' matchpoints
    bela.goto(bela_table)
    bela.bring_to_front()  # a tab in the background is throttled by the browser
    play_until(bela, random.Random(2), finished, timeout=240)
    for page in (anna, bela_cross):
        page.bring_to_front()
        page.reload()
        page.wait_for_selector("[data-testid=event-status]")
        page.wait_for_function("() => document.getElementById('event-root').dataset.status === 'finished'")
        deals = cross(page)
        assert all(d["visible"] and len(d["results"]) == 2 for d in deals)
        totals: dict[str, int] = {}
        for d in deals:
            for seat in range(3):
                want = seat_matchpoints([r["scores"][seat] for r in d["results"]])
                assert [r["mp"][seat] for r in d["results"]] == want
                for r, mp in zip(d["results"], want, strict=True):
                    key = f"standing-{r['table']}-{seat}"
                    totals[key] = totals.get(key, 0) + mp
        standings = {s["id"]: s["mp"] for s in page.evaluate(STANDINGS_JS)}
        assert standings == totals
    anna.get_by_test_id("event-record").wait_for()
    anna.screenshot(path=str(SCREENSHOTS / "event-cross-table.png"), full_page=True)
    assert anna.js_errors == [] and bela.js_errors == []
