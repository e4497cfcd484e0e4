"""A person plays at a table of four with three bots in a real Chromium: four nameplates, the deal they
sit out shown as a spectator's, and the four-column score sheet, in both languages."""

from __future__ import annotations

import random
from typing import Any

from tests.web.conftest import DESKTOP
from tests.web.driver import choose, more_options, play_until, sign_in

CREATE_JS = """async () => {
  const seats = [{kind: 'me'}, {kind: 'bot', level: 'random'}, {kind: 'bot', level: 'heuristic'},
                 {kind: 'bot', level: 'random'}];
  const res = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
    headers: {'content-type': 'application/json'}, body: JSON.stringify({deals: 12, seats})});
  return (await res.json()).table_id;
}"""
START_JS = """async (id) => {
  await fetch(`/api/tables/${id}/start`, {method: 'POST', credentials: 'same-origin',
    headers: {'content-type': 'application/json'}, body: '{}'});
}"""


def test_a_person_plays_a_table_of_four_with_three_bots_sitting_out_the_first_deal(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP, lang="en")
    sign_in(page, web_server.base_url, "Anna")
    table_id = page.evaluate(CREATE_JS)
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    page.get_by_test_id("table").wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.status === 'open'")
    page.evaluate(START_JS, table_id)

    # deal 1: seat 0 (Anna) deals and sits it out: she watches it as a spectator, with no hand to play
    # (the bots play it at their pace; the next deal does not wait for the one who sat out)
    out = page.locator('[data-testid=sits-out][data-seat="0"]')
    out.wait_for()
    assert "You deal and sit out this deal" in out.inner_text()
    assert page.get_by_test_id("seat-out-name").inner_text() == "Anna"
    assert page.get_by_test_id("watching").is_visible()
    assert page.locator("#hand button.card.playable").count() == 0
    # four nameplates: the three playing (bots) and the one sitting out
    names = [page.get_by_test_id(f"seat-name-{s}").inner_text() for s in range(3)]
    assert len(set(names)) == 3 and "Anna" not in names and all(n.startswith("Bot") for n in names)

    # Anna plays the next two deals (the bots play around her) and clicks "Next deal" after each
    rng = random.Random(44)
    play_until(page, rng, lambda s: s["dealsPlayed"] >= 1 and s["dealIndex"] == "1", timeout=120)
    page.get_by_test_id("sits-out").wait_for()
    assert page.get_by_test_id("sits-out").get_attribute("data-seat") == "1"
    assert page.get_by_test_id("watching").count() == 0
    assert "Anna" in [page.get_by_test_id(f"seat-name-{s}").inner_text() for s in range(3)]
    play_until(page, rng, lambda s: s["dealsPlayed"] >= 3, timeout=240)

    # the sheet has four columns by table seat: Anna's first row marked as sat out (0), each row adding up to 0
    page.get_by_test_id("sheet-btn").click()
    page.get_by_test_id("sheet-dialog").wait_for()
    assert page.get_by_test_id("four-sheet-note").is_visible()
    assert page.get_by_test_id("sheet-out-0-0").is_visible()
    assert page.get_by_test_id("sheet-out-1-1").is_visible()
    totals = [int(page.get_by_test_id(f"sheet-total-{s}").inner_text()) for s in range(4)]
    assert sum(totals) == 0
    assert page.get_by_test_id("sheet-chart").locator("polyline").count() == 4
    header = page.get_by_test_id("sheet-table").locator("thead th").all_inner_texts()
    assert header[2] == "Anna" and len(header) == 6

    # the same table in Hungarian: the sheet's note and the sitter-out's words
    page.evaluate("async () => { const m = await import('/js/i18n.js'); m.setLang('hu'); }")
    assert "Négyes asztal" in page.get_by_test_id("four-sheet-note").inner_text()
    page.get_by_test_id("sheet-close").click()
    assert "kimarad" in page.get_by_test_id("sits-out").inner_text()
    assert page.js_errors == []

    # the match's page names each deal's three players: Anna sat deal 1 out and played deal 2
    page.evaluate("async () => { const m = await import('/js/i18n.js'); m.setLang('en'); }")
    page.goto(f"{web_server.base_url}/matches.html?t={table_id}")
    page.get_by_test_id("deal-1").wait_for()
    assert "Anna" not in page.get_by_test_id("deal-0").inner_text()
    assert "Anna" in page.get_by_test_id("deal-1").inner_text()
    page.get_by_test_id("replay-1").click()
    page.get_by_test_id("replay-step").wait_for()
    assert "Anna" in page.locator("#replay").inner_text()
    assert page.js_errors == []


def test_the_lobby_form_creates_a_table_of_four_with_an_invited_fourth_player(
    web_server: Any, new_page: Any
) -> None:
    host = new_page(DESKTOP, lang="en")
    sign_in(host, web_server.base_url, "Hanna")
    more_options(host)
    assert host.get_by_test_id("seat-kind-3").count() == 0
    assert not host.get_by_test_id("four-rule").is_visible()
    host.get_by_test_id("deals-9").check()
    host.get_by_test_id("four-seats").check()
    # four seats, twelve deals and no other number, the rule said beside it
    host.get_by_test_id("seat-kind-3").wait_for()
    assert host.get_by_test_id("deals-12").is_checked()
    assert host.get_by_test_id("deals-6").is_disabled() and host.get_by_test_id("deals-9").is_disabled()
    assert "12 deals" in host.get_by_test_id("four-rule").inner_text()
    host.evaluate("async () => { const m = await import('/js/i18n.js'); m.setLang('hu'); }")
    assert "12 leosztás" in host.get_by_test_id("four-rule").inner_text()
    assert host.get_by_test_id("seat-kind-3").count() == 1  # the language switch keeps the fourth seat
    host.evaluate("async () => { const m = await import('/js/i18n.js'); m.setLang('en'); }")
    # unticked: three seats again and the deals chosen before
    host.get_by_test_id("four-seats").uncheck()
    assert host.get_by_test_id("seat-kind-3").count() == 0
    assert host.get_by_test_id("deals-9").is_checked() and not host.get_by_test_id("deals-6").is_disabled()
    host.get_by_test_id("four-seats").check()

    for i, kind in enumerate(("me", "bot.random", "bot.heuristic", "invite")):
        choose(host, f"seat-kind-{i}", kind)
    assert not host.get_by_test_id("start-now").is_checked()  # a seat kept for a person: no start at once
    host.get_by_test_id("create-table").click()
    host.wait_for_url("**/table.html?t=*")
    table_id = host.url.split("t=", 1)[1].split("&", 1)[0]
    host.get_by_test_id("waiting-room").wait_for()
    link = host.get_by_test_id("invite-link-3").input_value()

    # the invited friend takes the fourth seat by the link; the match starts with four players
    friend = new_page(DESKTOP, lang="en")
    friend.goto(link)
    info = friend.get_by_test_id("invite-info")
    info.wait_for()
    assert "Hanna" in info.inner_text() and "12 deals" in info.inner_text()
    friend.get_by_test_id("name-input").fill("Feri")
    friend.get_by_test_id("name-submit").click()
    friend.get_by_test_id("waiting-room").wait_for()
    host.get_by_test_id("wait-seat-3").get_by_text("Feri").wait_for()
    host.get_by_test_id("start-match").click()
    host.get_by_test_id("felt").wait_for()
    friend.get_by_test_id("felt").wait_for()
    state = friend.evaluate(f"async () => (await (await import('/js/api.js')).api.table('{table_id}')).table")
    assert [s["kind"] for s in state["seats"]] == ["player", "bot", "bot", "player"]
    assert state["seats"][3]["name"] == "Feri" and state["deals_planned"] == 12
    assert host.js_errors == [] and friend.js_errors == []


def test_the_sheet_of_four_opens_each_past_deal_naming_that_deals_players(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="en")
    sign_in(page, web_server.base_url, "Dóra")
    table_id = page.evaluate(CREATE_JS)
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    page.get_by_test_id("table").wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.status === 'open'")
    page.evaluate(START_JS, table_id)
    # Dóra sits deal 1 out and plays deal 2; in deal 3 the sheet opens both past deals
    play_until(page, random.Random(39), lambda s: s["dealsPlayed"] >= 2 and s["dealIndex"] == "2", timeout=240)
    raw = page.evaluate(f"async () => (await (await import('/js/api.js')).api.table('{table_id}'))")
    deal_seats = raw["match"]["deal_seats"]
    page.get_by_test_id("sheet-btn").click()
    page.get_by_test_id("sheet-dialog").wait_for()
    header = page.get_by_test_id("sheet-table").locator("thead th").all_inner_texts()
    names = header[2:6]  # the four table seats' names, as the sheet heads its columns
    assert names[0] == "Dóra"
    page.get_by_test_id("sheet-open-0").click()
    dialog = page.get_by_test_id("result-dialog")
    dialog.wait_for()
    for k in (0, 1):
        assert dialog.get_by_test_id("result-title").inner_text() == f"Result of deal {k + 1}"
        shown = [dialog.get_by_test_id(f"res-score-{i}").locator(".res-name").inner_text() for i in range(3)]
        assert shown == [names[p] for p in deal_seats[k]], (k, shown, deal_seats[k])
        if k == 0:
            assert "Dóra" not in shown  # she sat the first deal out
            dialog.get_by_test_id("result-next").click()
    assert "Dóra" in shown
    assert page.js_errors == []
