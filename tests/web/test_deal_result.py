"""Between deals, in the page: the result stays until "Next deal", reopens from "Last deal" and from the
score sheet and says where the points came from; every seat has its own name (two bots of one
level too, in the winner banner); an invited friend's seat is never given to a bot by the start.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.driver import create_table, play_until, sign_in, snapshot


def table_view(base_url: str, table_id: str) -> Any:
    """The table as a spectator without a session sees it (the lobby list's entry is enough here)."""
    with urllib.request.urlopen(f"{base_url}/api/tables") as response:
        tables = json.load(response)["tables"]
    return next((t for t in tables if t["table_id"] == table_id), None)


def test_the_result_stays_until_next_deal_and_reopens_from_last_deal_and_the_sheet(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Anna")
    create_table(page, ("me", "bot.random", "bot.random"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    rng = random.Random(7)
    play_until(page, rng, lambda s: s["phase"] == "done", timeout=90)

    # the result is on the table, with the button, and it stays there: the bots are ready, Anna is not
    controls = page.get_by_test_id("controls")
    assert controls.get_by_test_id("deal-result").is_visible()
    assert page.get_by_test_id("next-deal").is_enabled()
    deal = page.evaluate("() => (async () => { const m = await import('/js/api.js');"
                         " const id = new URLSearchParams(location.search).get('t');"
                         " return (await m.api.table(id)).deal; })()")
    result = deal["result"]
    time.sleep(2.0)  # many times the server's --between-deals 0.3
    snap = snapshot(page)
    assert (snap["phase"], snap["dealIndex"]) == ("done", "0")
    assert controls.get_by_test_id("deal-result").is_visible()

    # the result says where the points came from, line by line, from the server's numbers
    detail = result.get("detail")
    if detail is not None:
        cards = page.get_by_test_id("res-cards").first.inner_text()
        assert str(detail["declarer"]["cards"]) in cards and str(detail["defenders"]["cards"]) in cards
        assert str(detail["defenders"]["talon"]) in page.get_by_test_id("res-talon").first.inner_text()
        marriages = page.get_by_test_id("res-marriages").first.inner_text()
        assert str(detail["declarer"]["marriages"]) in marriages
        assert page.get_by_test_id("result-ulti-extra").count() == (1 if detail["lost_ulti"] else 0)
    else:
        assert page.get_by_test_id("res-cards").count() == 0
    # the log names every trick: who played what, who took it
    log = page.get_by_test_id("log-list")
    assert log.locator("[data-testid^=log-trick-]").count() == len(deal["tricks"])
    names = ["Anna", "Bot · random", "Bot · random 2"]
    for k, trick in enumerate(deal["tricks"]):
        line = log.get_by_test_id(f"log-trick-{k}").inner_text()
        assert line.startswith(f"Trick {k + 1}: {names[trick['leader']]} ") and line.endswith(
            f"– {names[trick['winner']]} takes it"), line
    page.screenshot(path=str(SCREENSHOTS / "deal_result_waits_desktop.png"))

    # "Next deal": the next deal is dealt (the bots were ready at once) and the result leaves the table
    page.get_by_test_id("next-deal").click()
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.dealIndex === '1'")
    assert controls.get_by_test_id("deal-result").count() == 0

    # "Last deal" reopens it
    page.get_by_test_id("last-deal-btn").click()
    dialog = page.get_by_test_id("result-dialog")
    dialog.wait_for()
    assert dialog.get_by_test_id("result-title").inner_text() == "Result of deal 1"
    assert dialog.get_by_test_id("deal-result").is_visible()
    page.screenshot(path=str(SCREENSHOTS / "last_deal_dialog_desktop.png"))
    dialog.get_by_test_id("result-dialog-close").click()
    assert not dialog.is_visible()

    # and so does the score sheet, from the deal's row
    page.get_by_test_id("sheet-btn").click()
    page.get_by_test_id("sheet-open-0").click()
    dialog.wait_for()
    assert dialog.get_by_test_id("result-title").inner_text() == "Result of deal 1"
    assert page.js_errors == []


def test_two_bots_of_one_level_have_their_own_names_in_the_seats_the_sheet_and_the_winner_banner(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Host")
    # three random bots: the match plays itself, no result waits for anybody
    table_id = page.evaluate("""async () => {
      const { api } = await import('/js/api.js');
      const seats = [0, 1, 2].map(() => ({ kind: 'bot', level: 'random' }));
      const { table_id } = await api.createTable({ deals: 6, move_seconds: 0, seats });
      await api.start(table_id, false);
      return table_id;
    }""")
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    banner = page.get_by_test_id("match-winner")
    banner.wait_for(timeout=120_000)
    names = ["Bot · random", "Bot · random 2", "Bot · random 3"]
    winner = int(page.get_by_test_id("table").get_attribute("data-winner") or "-1")
    assert winner in (0, 1, 2)
    assert f"{names[winner]} wins the match" in banner.inner_text()
    seats = page.get_by_test_id("felt").inner_text()
    assert all(n in seats for n in names)
    page.get_by_test_id("sheet-btn").first.click()
    head = page.get_by_test_id("sheet-table").locator("thead").inner_text()
    assert all(n in head for n in names)
    page.screenshot(path=str(SCREENSHOTS / "bots_named_apart_desktop.png"))
    assert page.js_errors == []


def test_an_invited_seat_is_not_filled_by_a_bot_when_the_match_starts(web_server: Any, new_page: Any) -> None:
    host = new_page(DESKTOP)
    sign_in(host, web_server.base_url, "Hanna")
    table_id = create_table(host, ("me", "invite", "open"), start_now=False)
    host.get_by_test_id("waiting-room").wait_for()
    link = host.get_by_test_id("invite-link-1").input_value()
    assert host.get_by_test_id("fill-bots").is_checked()  # fills the open seat, never the invite seat
    host.get_by_test_id("start-match").click()
    host.get_by_text("kept for invited players").first.wait_for()
    time.sleep(0.5)
    entry = table_view(web_server.base_url, table_id)
    assert entry is not None and entry["status"] == "open"
    assert [s["kind"] for s in entry["seats"]] == ["player", "invite", "open"]
    assert host.get_by_test_id("wait-seat-1").get_attribute("class").split()[-1] == "invite"

    # the invitee's page names the host, the table and the match's length, and links the rules
    friend = new_page(DESKTOP)
    friend.goto(link)
    info = friend.get_by_test_id("invite-info")
    info.wait_for()
    words = info.inner_text()
    assert "Hanna" in words and table_id in words and "6 deals" in words
    assert friend.get_by_test_id("invite-rules").get_attribute("href") == "/rules.html"
    friend.get_by_test_id("name-input").fill("Feri")
    friend.get_by_test_id("name-submit").click()
    friend.get_by_test_id("waiting-room").wait_for()
    assert "Hanna" in friend.get_by_test_id("waiting-room").get_by_test_id("invite-info").inner_text()

    # now the start fills the open seat only, and the friend plays seat 2
    host.get_by_test_id("wait-seat-1").get_by_text("Feri").wait_for()
    host.get_by_test_id("start-match").click()
    host.get_by_test_id("felt").wait_for()
    friend.get_by_test_id("felt").wait_for()
    state = friend.evaluate(f"async () => (await (await import('/js/api.js')).api.table('{table_id}')).table")
    assert [s["kind"] for s in state["seats"]] == ["player", "player", "bot"]
    assert state["seats"][1]["name"] == "Feri"
    assert host.js_errors == [] and friend.js_errors == []
