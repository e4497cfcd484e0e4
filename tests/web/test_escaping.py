"""Names and chat lines that hold HTML are shown as text everywhere they appear, and never run.

The server refuses control characters in names and chat but takes ``<``, ``>``, ``&`` and quotes, so
two people named like markup sit at one table, talk in the lobby and at the table, play a deal, and
look at it in Past matches: the lobby list, the waiting room, the seats, the log, the result, the
score sheet and its chart, the match list and the replay all show the very characters typed, in text
and in attributes (aria-label, input values), no element comes out of them and no script runs.
The static side of the same promise (no HTML sink but the helper's) is tests/web/test_html_sinks.py.
"""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import DESKTOP
from tests.web.driver import act_randomly, create_table, sign_in, snapshot

ANNA = "<img src=x onerror=alert(1)>"  # 28 characters: names are 1 to 32
BELA = "</script><b>\"'&amp;</b> Béla"
CILI = "Cili & <i>co</i>"
LOBBY_LINE = "<img src=x onerror=alert(2)> </script><script>alert(3)</script> \"'&amp;"
TABLE_LINE = "<svg onload=alert(4)> & <b>bold</b> \"quoted\" 'single'"

#: Before any page script: alert() only records, so a script that ran would show in window.__alerts.
TRAP_JS = "window.__alerts = []; window.alert = (m) => { window.__alerts.push(String(m)); };"

#: Nothing in the page came out of a name or a line: no image, bold, italic, svg handler, or stray script.
INJECTED_JS = """() => ({
  alerts: window.__alerts || [],
  injected: [...document.querySelectorAll('img, b, i, svg[onload], [onerror], [onload], script:not([type=module])')]
    .map((e) => e.outerHTML.slice(0, 80)),
})"""

TEXTS_JS = "(sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent)"


def _page(new_page: Any) -> Any:
    page = new_page(DESKTOP)
    page.add_init_script(TRAP_JS)
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: page.console_errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return page


def _errors(page: Any) -> list[str]:
    """The console's errors, but for the first visit's question who is signed in (401 without a session)."""
    expected = {"Failed to load resource: the server responded with a status of 401 (Unauthorized)"}
    return [e for e in page.console_errors if e not in expected and not (e.startswith("401 ") and e.endswith("/me"))]


def _texts(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.evaluate(TEXTS_JS, selector)
    return texts


def _clean(page: Any) -> None:
    got = page.evaluate(INJECTED_JS)
    assert got == {"alerts": [], "injected": []}, got
    assert page.js_errors == [] and _errors(page) == [], _errors(page)


def test_markup_in_names_and_chat_is_shown_as_text_everywhere(web_server: Any, new_page: Any) -> None:
    base = web_server.base_url
    anna, bela, cili = _page(new_page), _page(new_page), _page(new_page)

    # The lobby: the greeting, the name form's value, the list of tables, the lobby chat.
    sign_in(anna, base, ANNA)
    assert anna.get_by_test_id("player-name").text_content() == f"Hello, {ANNA}!"
    anna.get_by_test_id("change-name").click()
    assert anna.get_by_test_id("name-input").input_value() == ANNA
    anna.get_by_test_id("name-submit").click()
    anna.get_by_test_id("name-form").wait_for(state="detached")
    sign_in(cili, base, CILI)
    table_id = create_table(anna, ("me", "open", "bot.heuristic"), start_now=False)
    seat_link = anna.get_by_test_id("seat-link-1").input_value()
    sign_in(bela, base, BELA)
    bela.goto(seat_link)
    bela.get_by_test_id("waiting-room").wait_for()

    cili.wait_for_function(
        "(n) => [...document.querySelectorAll('.seat-nm')].some((e) => e.textContent === n)", arg=BELA
    )
    seats = _texts(cili, f"[data-testid='table-{table_id}'] .seat-nm")
    assert seats[:2] == [ANNA, BELA], seats
    cili.get_by_test_id("lobby-chat-input").fill(LOBBY_LINE)
    cili.get_by_test_id("lobby-chat-send").click()
    cili.get_by_test_id("lobby-chat-line").filter(has_text="alert(3)").wait_for()
    assert _texts(cili, "[data-testid=lobby-chat-line] .chat-name") == [CILI]
    assert _texts(cili, "[data-testid=lobby-chat-line] .chat-text") == [LOBBY_LINE]
    _clean(cili)

    # The waiting room and the table chat.
    anna.wait_for_function(
        "(n) => document.querySelector('[data-testid=wait-seat-1]').textContent.includes(n)", arg=BELA
    )
    assert _texts(anna, ".ws-name")[:2] == [f"1 {ANNA} you", f"2 {BELA}"]
    bela.get_by_test_id("chat-input").fill(TABLE_LINE)
    bela.get_by_test_id("chat-send").click()
    for page in (anna, bela):
        page.get_by_test_id("chat-line").filter(has_text="bold").wait_for()
        assert _texts(page, "[data-testid=chat-line] .chat-name") == [BELA]
        assert _texts(page, "[data-testid=chat-line] .chat-text") == [TABLE_LINE]

    # The match: seats, hands' labels, log, result, score sheet and chart.
    anna.get_by_test_id("start-match").click()
    for page in (anna, bela):
        page.get_by_test_id("hand").locator("button.card").first.wait_for()
    assert anna.get_by_test_id("seat-name-0").text_content() == ANNA
    assert anna.get_by_test_id("seat-name-1").text_content() == BELA
    assert bela.get_by_test_id("seat-name-0").text_content() == ANNA
    rng = random.Random(5)
    deadline = time.monotonic() + 90
    log: set[str] = set()
    while not all(snapshot(p)["dealsPlayed"] >= 1 for p in (anna, bela)):
        assert time.monotonic() < deadline, [snapshot(p) for p in (anna, bela)]
        if snapshot(anna)["dealsPlayed"] < 1:
            log.update(_texts(anna, "[data-testid=log-list] li"))  # the auction in words, while deal 1 lasts
        acted = False
        for page in (anna, bela):
            if snapshot(page)["dealsPlayed"] < 1:
                acted = act_randomly(page, rng, pass_weight=10) or acted
        if not acted:
            time.sleep(0.03)
    # both people speak in every auction (the opener bids, the others say pass or bid at least once)
    assert any(line.startswith((f"{ANNA}: ", f"{ANNA} ")) for line in log), log
    assert any(line.startswith((f"{BELA}: ", f"{BELA} ")) for line in log), log
    anna.get_by_test_id("sheet-btn").click()
    anna.get_by_test_id("sheet-row-0").wait_for()
    assert _texts(anna, "[data-testid=sheet-table] thead th")[2:4] == [ANNA, BELA]
    assert _texts(anna, "[data-testid=sheet-chart] .legend-item")[:2] == [ANNA, BELA]
    anna.get_by_test_id("sheet-close").click()
    _clean(anna)
    _clean(bela)

    # Past matches: the match list, the deals of the match, the replay (text and aria-label).
    bela.goto(f"{base}/matches.html")
    item = bela.get_by_test_id(f"match-{table_id}")
    item.wait_for()
    assert f": {ANNA}, {BELA}, " in _texts(bela, f"[data-testid='match-{table_id}'] .players")[0]
    assert _texts(bela, f"[data-testid='match-{table_id}'] .players strong") == [BELA]  # one's own seat
    bela.get_by_test_id(f"show-{table_id}").click()
    bela.get_by_test_id("replay-0").click()
    bela.get_by_test_id("replay-title").wait_for()
    assert bela.get_by_test_id("replay-seat-0").locator("strong").first.text_content() == ANNA
    assert bela.get_by_test_id("replay-seat-1").locator("strong").first.text_content() == BELA
    hand = bela.get_by_test_id("replay-seat-0").locator(".replay-hand")
    assert hand.get_attribute("aria-label") == f"Hand of {ANNA}"
    assert _texts(bela, "[data-testid=deal-list-panel] h2")[0].startswith(f"Deals: {ANNA}, {BELA}, ")
    bela.get_by_test_id("replay-last").click()
    scores = _texts(bela, "[data-testid=replay] [data-testid=deal-result] .scores li")
    assert scores[0].startswith(f"{ANNA}: ") and scores[1].startswith(f"{BELA}: "), scores
    _clean(bela)


def test_the_helper_escapes_and_refuses_plain_strings(web_server: Any, new_page: Any) -> None:
    page = _page(new_page)
    page.goto(web_server.base_url + "/rules.html")
    got = page.evaluate(
        """async (name) => {
          const { html, raw, join, setHTML, updateHTML } = await import('/js/html.js');
          const el = document.createElement('div');
          setHTML(el, html`<p title="${name}">${name} ${[1, html`<i>x</i>`, null, undefined, false]}</p>`);
          const refused = [];
          for (const bad of [`<b>${name}</b>`, 42, null, {toString: () => '<b>x</b>'}]) {
            try { setHTML(el, bad); } catch (e) { refused.push(e instanceof TypeError); }
            try { updateHTML(el, bad); } catch (e) { refused.push(e instanceof TypeError); }
          }
          const joined = document.createElement('div');
          setHTML(joined, join([html`<i>a</i>`, name], html`<br>`));
          return {
            title: el.firstChild.getAttribute('title'), text: el.textContent, children: el.querySelectorAll('*').length,
            refused, raw: String(raw('<i>ok</i>')), joined: joined.innerHTML,
            same: updateHTML(joined, join([html`<i>a</i>`, name], html`<br>`)),
          };
        }""",
        ANNA,
    )
    assert got["title"] == ANNA
    assert got["text"] == f"{ANNA} 1xfalse"
    assert got["children"] == 2  # the <p> and the <i> built by html`…`, nothing from the name
    assert got["refused"] == [True] * 8
    assert got["raw"] == "<i>ok</i>"
    assert got["joined"] == "<i>a</i><br>&lt;img src=x onerror=alert(1)&gt;"
    assert got["same"] is False  # setHTML put the very same markup there: updateHTML leaves it alone
    _clean(page)
