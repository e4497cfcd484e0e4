"""Readable analysis (issue 35, item 9): the deal's graph has a y axis with values, a zero line, the tricks
along the x axis, labels on both axes and the replay's current move marked with its value; the what-if
cards are of the hand's size; the replay page with its analysis fits a 390 px phone (no sideways scroll).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import create_table, play_until, sign_in

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
GRAPH_JS = """() => { const g = document.querySelector('[data-testid=an-graph]');
  const box = g.getBoundingClientRect(); const one = (id) => g.querySelector(`[data-testid=${id}]`);
  const ticks = [...g.querySelectorAll('[data-testid=an-ytick]')]
    .map((e) => [Number(e.dataset.value), e.textContent.trim()]);
  const cursor = one('an-cursor');
  return {ticks, zero: !!one('an-zero'), xticks: g.querySelectorAll('[data-testid=an-xtick]').length,
          ylabel: (one('an-ylabel') || {}).textContent || '', xlabel: (one('an-xlabel') || {}).textContent || '',
          cursor: cursor ? Number(cursor.getAttribute('x1')) : null,
          here: (one('an-here-label') || {}).textContent || '',
          tickHeight: Math.min(...[...g.querySelectorAll('.an-tick')].map((e) => e.getBoundingClientRect().height)),
          width: box.width, doc: document.documentElement.scrollWidth, vw: innerWidth}; }"""

# For a failure's message: the innermost elements that reach beyond the screen's right edge.
WIDE_JS = """() => { const out = (e) => e.getBoundingClientRect().right > innerWidth + 0.5;
  return [...document.querySelectorAll('body *')].filter((e) => out(e) && ![...e.children].some(out)).slice(0, 12)
    .map((e) => `${e.tagName}#${e.dataset.testid || ''}:${Math.round(e.getBoundingClientRect().right)}`); }"""


def _step_into_the_play(page: Any) -> None:
    for _ in range(60):
        if page.get_by_test_id("whatif-open").count():
            return
        page.get_by_test_id("replay-next").click()
    raise AssertionError("the replay never reached the play")


def test_the_graph_has_axes_values_a_zero_line_labels_and_the_current_move_and_fits_a_phone(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Grafikon")
    create_table(page, ("me", "bot.random", "bot.random"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    play_until(page, random.Random(21), lambda s: s["nextDeal"], timeout=120)
    page.get_by_test_id("analysis-link").click()
    page.wait_for_url("**/matches.html?t=*")
    replay_url = page.url
    page.locator("[data-testid=an-graph], [data-testid=an-graph-none]").first.wait_for(timeout=90_000)
    if page.get_by_test_id("an-graph-none").count():
        return  # a deal given up has no play to draw (random bots rarely do it; the seed avoids it)

    _step_into_the_play(page)
    g = page.evaluate(GRAPH_JS)
    values = [v for v, _ in g["ticks"]]
    assert len(values) >= 2 and 0 in values, g  # values on the axis, zero among them
    assert all(text == (f"+{v:g}" if v > 0 else f"{v:g}") for v, text in g["ticks"]), g["ticks"]
    assert g["zero"] and g["xticks"] >= 1, g
    assert g["ylabel"] == "Declarer, per defender" and g["xlabel"] == "Trick", g
    assert g["cursor"] is not None and g["here"].startswith("now "), g
    assert g["tickHeight"] >= 14, g  # the axis's numbers are of a readable size
    # the marker follows the replay
    page.get_by_test_id("replay-next").click()
    moved = page.evaluate(GRAPH_JS)
    assert moved["cursor"] is not None and moved["cursor"] > g["cursor"], (g, moved)

    # the what-if explorer's cards are of the hand's size, not 30 px stamps
    page.get_by_test_id("whatif-open").click()
    page.locator("button.whatif-card").first.wait_for(timeout=60_000)
    size = page.evaluate("""() => { const r = document.querySelector('button.whatif-card svg').getBoundingClientRect();
      return [r.width, r.height]; }""")
    assert size[0] >= 70 and size[1] >= 98, size
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("an-panel").screenshot(path=str(DOCS_SCREENSHOTS / "analysis_graph_desktop_en.png"))

    # the same replay on a 390 px phone (the same player: nobody else sees the analysis before the match's end)
    phone = page
    phone.set_viewport_size(PHONE)
    phone.goto(replay_url)
    phone.get_by_test_id("an-graph").wait_for(timeout=60_000)
    _step_into_the_play(phone)
    got = phone.evaluate(GRAPH_JS)
    wide = phone.evaluate(WIDE_JS)
    assert got["doc"] == got["vw"] == PHONE["width"], (got, wide)
    assert 300 <= got["width"] <= PHONE["width"], got
    assert got["tickHeight"] >= 12, got  # drawn narrower for the phone: its numbers stay readable
    phone.get_by_test_id("whatif-open").click()
    phone.locator("button.whatif-card").first.wait_for(timeout=60_000)
    width = phone.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] == width[1], width
    phone.get_by_test_id("an-panel").screenshot(path=str(DOCS_SCREENSHOTS / "analysis_graph_phone_en.png"))
    assert page.js_errors == []
