"""(issue 35, item 2) "Play now" is in the first screenful of the first page and deals a hand in one click."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import sign_in

#: the table's view for the page's player, read through the page's own session
TABLE_VIEW_JS = "() => fetch('/api/tables/' + new URL(location.href).searchParams.get('t')).then((r) => r.json())"


def inside_first_viewport(page: Any, testid: str) -> bool:
    """Whether the element is entirely inside the first screenful (no scrolling)."""
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    if not box:
        return False
    fits_down = box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
    return bool(fits_down and box["x"] + box["width"] <= size["width"])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_play_now_is_in_the_first_viewport_and_deals_a_hand_in_one_click(
    web_server: Any, new_page: Any, viewport: dict[str, int], lang: str
) -> None:
    page = new_page(viewport, lang=lang)  # a first visit: no session
    page.goto(web_server.base_url + "/")
    page.get_by_test_id("play-now").wait_for()
    assert page.evaluate("() => window.scrollY") == 0
    assert inside_first_viewport(page, "play-now")
    # a newcomer is told where to start, the guided deal among it
    page.get_by_test_id("newcomer").wait_for()
    assert page.get_by_test_id("learn-link").get_attribute("href") == "/learn.html"
    kind = "desktop" if viewport == DESKTOP else "phone"
    page.screenshot(path=str(SCREENSHOTS / f"first_page_{kind}_{lang}.png"))
    page.get_by_test_id("play-now").click()
    page.wait_for_url("**/table.html?t=*")
    page.wait_for_selector("#hand button.card", timeout=20_000)
    assert page.locator("#hand button.card").count() in (10, 12)
    # two bots of the lowest rung (a newcomer's: GET /api/bot_levels), six deals, the visitor under a guest name
    view = page.evaluate(TABLE_VIEW_JS)
    seats = view["table"]["seats"]
    assert [s["kind"] for s in seats] == ["player", "bot", "bot"]
    assert {s["level"] for s in seats[1:]} == {"beginner"}
    assert view["table"]["deals_planned"] == 6 and view["table"]["status"] == "playing"
    assert seats[0]["name"].startswith("Guest " if lang == "en" else "Vendég ")
    assert page.js_errors == []


def test_play_now_keeps_a_returning_players_name_and_the_full_form_is_behind_more_options(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Piroska")
    page.get_by_test_id("newcomer").wait_for()  # no table yet: shown where to start
    # the full table form is folded away until asked for
    assert not page.get_by_test_id("create-table").is_visible()
    page.get_by_test_id("more-options-toggle").click()
    page.get_by_test_id("create-table").wait_for()
    page.get_by_test_id("play-now").click()
    page.wait_for_selector("#hand button.card", timeout=20_000)
    view = page.evaluate(TABLE_VIEW_JS)
    assert view["table"]["seats"][0]["name"] == "Piroska"
    # once they have sat at a table, the lobby no longer greets them as a newcomer
    page.goto(web_server.base_url + "/")
    page.get_by_test_id("more-options").wait_for()
    page.wait_for_load_state("networkidle")
    assert not page.get_by_test_id("newcomer").is_visible()
    assert page.js_errors == []
