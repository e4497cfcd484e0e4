"""A phone layout that holds (issue 35, item 7): with the longest allowed name, unbroken, no page is ever
wider than a 390×844 or an 844×390 screen (a lone name ends in an ellipsis); the header is one compact row;
nothing covers anything else that can be clicked: in landscape the result's dock stays below the header.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.conftest import PHONE, SCREENSHOTS
from tests.web.driver import act_randomly, create_table, sign_in, snapshot

LANDSCAPE = {"width": 844, "height": 390}
LONG_NAME = "W" * 32  # the longest name allowed, one unbroken word of the widest letter

# The document's width against the viewport's, and which of `sel`'s visible elements are covered at their
# centre. An element scrolled out of a box that scrolls (the header's menu, the bid ladder) is left out.
LAYOUT_JS = """(sel) => { window.scrollTo(0, 0);
  const clipped = (el, x, y) => { for (let a = el.parentElement; a; a = a.parentElement) {
    const st = getComputedStyle(a); if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect(); if (x < b.left || x > b.right || y < b.top || y > b.bottom) return true; }
    return false; };
  const covered = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.offsetParent === null) continue;
    const r = el.getBoundingClientRect(); const x = r.left + r.width / 2; const y = r.top + r.height / 2;
    if (r.width === 0 || y < 0 || y > innerHeight || x < 0 || x > innerWidth) continue;
    if (clipped(el, x, y)) continue;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      covered.push([el.dataset.testid || el.className, hit && (hit.id || hit.className)]);
    }
  }
  const header = document.getElementById('site-header');
  return {doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, vw: innerWidth,
          header: header ? header.getBoundingClientRect().height : 0, covered}; }"""

CLICKABLE = ("#site-header a, #site-header button, [data-testid=next-deal], [data-testid=result-sheet-btn], "
             ".top-buttons button, #controls button.act, #hand button.card")


# For a failure's message: the innermost elements that reach beyond the screen's right edge.
WIDE_JS = """() => { const out = (e) => e.getBoundingClientRect().right > innerWidth + 0.5;
  return [...document.querySelectorAll('body *')].filter((e) => out(e) && ![...e.children].some(out)).slice(0, 8)
    .map((e) => `${e.tagName}.${e.getAttribute('class') || ''}#${e.dataset.testid || ''}`); }"""


def check_layout(page: Any, where: str) -> dict[str, Any]:
    """The page is exactly as wide as the screen and nothing clickable is covered."""
    got: dict[str, Any] = page.evaluate(LAYOUT_JS, CLICKABLE)
    if got["doc"] != got["vw"] or got["body"] > got["vw"] or got["covered"]:
        got["wide"] = page.evaluate(WIDE_JS)
        page.screenshot(path=str(SCREENSHOTS / f"phone_layout_broken_{where}.png"))
    assert got["doc"] == got["vw"] and got["body"] <= got["vw"], (where, got.get("wide"), got)
    assert got["covered"] == [], (where, got)
    return got


@pytest.mark.parametrize("size", ["upright", "landscape"])
def test_a_32_character_name_never_widens_the_page_and_nothing_is_covered(
    web_server: Any, new_page: Any, size: str
) -> None:
    viewport = PHONE if size == "upright" else LANDSCAPE
    page = new_page(viewport)
    sign_in(page, web_server.base_url, LONG_NAME)
    lobby = check_layout(page, f"lobby_{size}")
    # a compact header: one row of 44 px targets, not three rows of links (about 180 px before)
    assert lobby["header"] <= 56, lobby

    create_table(page, ("me", "bot.random", "bot.random"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    name = page.get_by_test_id("seat-name-0")
    assert name.inner_text() == LONG_NAME
    # the seat's name ends in an ellipsis inside its box: it is clipped, not spilled
    clipped = page.evaluate("""() => { const el = document.querySelector('[data-testid=seat-name-0]');
      return [el.scrollWidth > el.clientWidth, getComputedStyle(el).textOverflow]; }""")
    assert clipped == [True, "ellipsis"], clipped
    table = check_layout(page, f"auction_{size}")
    assert table["header"] <= 56, table

    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(400):
        snap = snapshot(page)
        if snap["phase"] == "done":
            break
        if snap["phase"] not in seen:
            seen.add(snap["phase"])
            check_layout(page, f"{snap['phase']}_{size}")
        if not act_randomly(page, rng, snap=snap):
            page.wait_for_timeout(30)
    page.get_by_test_id("next-deal").wait_for()
    check_layout(page, f"result_{size}")
    # each seat's score stays readable beside the long name: the name gives way, never the number
    scores = page.evaluate("""() => [0, 1, 2].map((i) => {
      const li = document.querySelector(`[data-testid=res-score-${i}]`);
      const s = li.querySelector('strong').getBoundingClientRect(); const b = li.getBoundingClientRect();
      const inside = s.width > 0 && s.left >= b.left - 0.5 && s.right <= b.right + 0.5 && s.right <= innerWidth;
      return [inside, li.innerText]; })""")
    assert all(ok for ok, _ in scores), scores
    page.screenshot(path=str(SCREENSHOTS / f"phone_layout_result_{size}.png"))
    # the score sheet, with the long name in its head
    page.get_by_test_id("sheet-btn").first.click()
    page.get_by_test_id("sheet-table").wait_for()
    got = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert got[0] == got[1], got
    page.get_by_test_id("sheet-close").click()

    # every other page: the same one-row header, never wider than the screen, the name's own page too
    for path in ("/rules.html", "/matches.html", "/leaderboard.html", "/account.html", f"/@/{LONG_NAME}"):
        page.goto(web_server.base_url + path)
        page.wait_for_load_state("networkidle")
        got = check_layout(page, f"{path.strip('/').split('.')[0].replace('@/', 'player_')}_{size}")
        assert got["header"] <= 56, (path, got)
    assert page.js_errors == []
