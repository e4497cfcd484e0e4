"""The deal's result reads at a glance (issue 35, item 4): who won what and each seat's score in the first
screenful at 1440×900 (on the felt beside the seats) and on a 390×844 phone (at the top of the dock); the
explanation below under headings that say what they hold; every hand face up at the table once the deal
is over, and not one card of another hand before.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import create_table, play_until, sign_in

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TABLE_VIEW_JS = """async () => { const m = await import('/js/api.js');
  const id = new URLSearchParams(location.search).get('t'); return await m.api.table(id); }"""

# The boxes of the score lines of `sel`, after scrolling to the top: the first screenful.
SCORE_BOXES_JS = """(sel) => { window.scrollTo(0, 0);
  return [...document.querySelectorAll(sel)].map((el) => { const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + r.height / 2);
    return {text: el.innerText, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            visible: el.offsetParent !== null, hit: !!hit && (hit === el || el.contains(hit)),
            vw: window.innerWidth, vh: window.innerHeight}; }); }"""


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _play_a_deal(page: Any, base_url: str, name: str) -> dict[str, Any]:
    """Sit with two random bots and play the first deal to its end; check that no other hand reaches the
    page before the end. Returns the table view at the end."""
    sign_in(page, base_url, name)
    create_table(page, ("me", "bot.random", "bot.random"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    during = page.evaluate(TABLE_VIEW_JS)
    assert during["deal"]["phase"] != "done"
    assert list(during["deal"]["hands"]) == ["0"], "only my own hand before the deal's end"
    assert "dealt" not in during["deal"]
    play_until(page, random.Random(11), lambda s: s["phase"] == "done", timeout=90)
    view: dict[str, Any] = page.evaluate(TABLE_VIEW_JS)
    assert view["deal"]["phase"] == "done" and view["deal_index"] == 0
    return view


def _assert_scores_in_first_screenful(page: Any, sel: str, scores: list[int]) -> None:
    boxes = page.evaluate(SCORE_BOXES_JS, sel)
    assert len(boxes) == 3, boxes
    for seat, b in enumerate(boxes):
        assert b["visible"] and b["hit"], (seat, b)
        assert b["top"] >= 0 and b["bottom"] <= b["vh"], ("below the fold", seat, b)
        assert b["left"] >= 0 and b["right"] <= b["vw"], ("beside the screen", seat, b)
        assert b["text"].endswith(_signed(scores[seat])), (seat, b["text"], scores)


def test_the_result_and_every_score_are_in_the_first_screenful_on_the_felt_at_1440x900(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    view = _play_a_deal(page, web_server.base_url, "Glance")
    result = view["deal"]["result"]

    # on the felt: the title, who won what, and each seat's score, all inside 1440×900 without a scroll
    felt = page.get_by_test_id("felt-result")
    felt.wait_for()
    _assert_scores_in_first_screenful(page, "[data-testid=felt-result] li[data-seat]", result["scores"])
    verdict = felt.get_by_test_id("felt-res-verdict").inner_text()
    declarer = page.get_by_test_id(f"seat-name-{result['declarer']}").inner_text()
    assert verdict.startswith(declarer), verdict
    parts = result.get("parts") or []
    if result.get("given_up"):
        assert "gave up" in verdict
    elif parts and all(p["won"] for p in parts):
        assert verdict.endswith("won the game")
    elif parts and not any(p["won"] for p in parts):
        assert verdict.endswith("lost the game")
    # the side column does not say it twice: its copy of the glance is for small screens
    assert not page.locator("#controls [data-testid=res-glance]").is_visible()
    assert page.get_by_test_id("next-deal").is_visible()

    # the explanation under headings that say what they hold: card points are not "Silent bonuses"
    explain = page.locator("#controls [data-testid=res-explain]")
    if result.get("detail"):
        heading = page.evaluate("""() => { let el = document.querySelector('#controls [data-testid=res-points]');
          while (el && el.tagName !== 'H4') el = el.previousElementSibling; return el && el.dataset.testid; }""")
        assert heading == "res-h-points"
        assert explain.get_by_test_id("res-h-points").inner_text() == "Where the card points came from"
    if parts:
        assert explain.get_by_test_id("res-h-parts").is_visible()
    assert explain.get_by_test_id("res-h-silent").count() == (1 if result.get("silent") else 0)

    # every hand at the table, face up: the cards each seat played with, as the server's view has them
    deal = view["deal"]
    for seat in range(3):
        played = [c for t in deal["tricks"] for i, c in enumerate(t["cards"]) if (t["leader"] + i) % 3 == seat]
        want = sorted(played + deal["hands"][str(seat)])
        shown = page.get_by_test_id(f"shown-hand-{seat}").locator(".mini-card")
        got = sorted(shown.nth(i).get_attribute("data-card") or "" for i in range(shown.count()))
        assert got == want, (seat, got, want)
        assert len(got) == 10
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_SCREENSHOTS / "result_desktop_en.png"))

    assert page.js_errors == []


def test_the_result_and_every_score_are_in_the_first_screenful_of_a_phone(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE)
    view = _play_a_deal(page, web_server.base_url, "Telefon")
    result = view["deal"]["result"]
    glance = page.locator("#dock [data-testid=res-glance]")
    glance.wait_for()
    assert not page.get_by_test_id("felt-result").is_visible()  # the dock says it: not twice on one screen
    _assert_scores_in_first_screenful(page, "#dock [data-testid=res-glance] li[data-seat]", result["scores"])
    boxes = page.evaluate(SCORE_BOXES_JS, "[data-testid=next-deal]")
    assert boxes and boxes[0]["bottom"] <= boxes[0]["vh"] and boxes[0]["hit"], boxes
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_SCREENSHOTS / "result_phone_en.png"))
    assert page.js_errors == []
