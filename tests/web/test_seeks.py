"""(issue 35, item 8) The lobby counts who is online and playing, and a seek pairs two browsers into one table."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import sign_in

#: the table's view for the page's player, read through the page's own session
TABLE_VIEW_JS = "() => fetch('/api/tables/' + new URL(location.href).searchParams.get('t')).then((r) => r.json())"


def test_a_seek_pairs_two_browser_contexts_into_one_table(web_server: Any, new_page: Any) -> None:
    anna, bea = new_page(DESKTOP), new_page(PHONE, lang="hu")
    sign_in(anna, web_server.base_url, "Anna Seek")
    sign_in(bea, web_server.base_url, "Bea Seek")
    # both are counted online; nobody plays yet
    anna.wait_for_function("() => document.querySelector('[data-testid=people-online]')?.innerText.match(/^[2-9]/)")
    assert "0" in anna.get_by_test_id("people-playing").inner_text()
    # Anna seeks with the shortest wait; Bea sees her seek in the list, then seeks too
    anna.get_by_test_id("seek-wait").select_option("10")
    anna.get_by_test_id("seek-start").click()
    anna.get_by_test_id("seeking").wait_for()
    bea.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=seek-entry]')]"
        ".some((e) => e.innerText.includes('Anna Seek'))"
    )
    bea.screenshot(path=str(SCREENSHOTS / "lobby_seeks_phone_hu.png"), full_page=True)
    anna.screenshot(path=str(SCREENSHOTS / "lobby_seeks_desktop_en.png"), full_page=True)
    # the other language of each: the lobby is drawn again in it, the seek still shown
    bea.get_by_test_id("lang-toggle").click()
    anna.get_by_test_id("lang-toggle").click()
    assert "Anna Seek" in bea.get_by_test_id("seek-list").inner_text()
    assert anna.get_by_test_id("seeking").is_visible()
    bea.screenshot(path=str(SCREENSHOTS / "lobby_seeks_phone_en.png"), full_page=True)
    anna.screenshot(path=str(SCREENSHOTS / "lobby_seeks_desktop_hu.png"), full_page=True)
    bea.get_by_test_id("seek-wait").select_option("120")
    bea.get_by_test_id("seek-start").click()
    # when Anna's wait is up both are taken to one table, the third seat a bot
    anna.wait_for_url("**/table.html?t=*", timeout=30_000)
    bea.wait_for_url("**/table.html?t=*", timeout=30_000)
    assert anna.url.split("t=", 1)[1] == bea.url.split("t=", 1)[1]
    anna.wait_for_selector("#hand button.card", timeout=20_000)
    bea.wait_for_selector("#hand button.card", timeout=20_000)
    view = anna.evaluate(TABLE_VIEW_JS)
    seats = view["table"]["seats"]
    assert [s["name"] for s in seats[:2]] == ["Anna Seek", "Bea Seek"] and seats[2]["kind"] == "bot"
    assert anna.js_errors == [] and bea.js_errors == []


def test_a_seek_can_be_cancelled_and_the_count_shows_players(web_server: Any, new_page: Any) -> None:
    cili, dani = new_page(), new_page()
    sign_in(cili, web_server.base_url, "Cili")
    cili.get_by_test_id("seek-start").click()
    cili.get_by_test_id("seeking").wait_for()
    cili.get_by_test_id("seek-cancel").click()
    cili.get_by_test_id("seek-start").wait_for()
    assert cili.get_by_test_id("seeking").count() == 0
    # Dani plays against bots: the lobby counts him as playing
    sign_in(dani, web_server.base_url, "Dani")
    dani.get_by_test_id("play-now").click()
    dani.wait_for_selector("#hand button.card", timeout=20_000)
    cili.wait_for_function(
        "() => /^[1-9]/.test(document.querySelector('[data-testid=people-playing]')?.innerText || '')", timeout=10_000
    )
    assert cili.js_errors == []


#: a slow network: the lobby's list of tables arrives, and the page's WebSockets open, 2.5 s after the page
#: loads however fast the server answers; so the lobby is shown before its socket is even made
SLOW_OPENING = """
window.__openAt = performance.now() + 2500;
const untilOpen = () => Math.max(0, window.__openAt - performance.now());
const later = (value) => new Promise((done) => setTimeout(() => done(value), untilOpen()));
const realFetch = window.fetch;
window.fetch = (url, opts) =>
  String(url).endsWith("/api/tables") ? realFetch(url, opts).then(later) : realFetch(url, opts);
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  get readyState() { return performance.now() < window.__openAt ? RealSocket.CONNECTING : super.readyState; }
  set onopen(handler) {
    super.onopen = (ev) => setTimeout(() => handler.call(this, ev), Math.max(0, window.__openAt - performance.now()));
  }
  get onopen() { return super.onopen; }
};
"""


def test_a_seek_asked_while_the_connection_opens_is_sent_once_it_is_open(web_server: Any, new_page: Any) -> None:
    erik = new_page()
    erik.context.add_init_script(SLOW_OPENING)
    sign_in(erik, web_server.base_url, "Erik")
    assert erik.evaluate("() => performance.now() < window.__openAt")  # still opening: the click comes first
    erik.get_by_test_id("seek-start").click()
    erik.get_by_test_id("seeking").wait_for(timeout=15_000)
    assert erik.get_by_test_id("seek-error").inner_text() == ""
    erik.get_by_test_id("seek-cancel").click()
    erik.get_by_test_id("seek-start").wait_for()
    assert erik.js_errors == []
