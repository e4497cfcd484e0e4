"""(issue 41) The puzzle page in Chromium: a guest solves a puzzle, a wrong card is shown why it is wrong, an
account's rating moves and stays; a phone-sized viewport, both languages, the link from every page's menu."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.test_puzzle_routes import ONE_MOVE, TWO_MOVES, wrong_card
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.test_account_page import register_on_the_page

#: the puzzle board's data attributes (the puzzle shown, its move) in the page's script
BOARD = "document.querySelector('[data-testid=puzzle-board]').dataset"


def open_as_guest(page: Any, base_url: str, puzzle_id: str, name: str) -> None:
    """Open the puzzle ``puzzle_id``; a first visit gives a name (a guest session) and the puzzle shows."""
    page.goto(f"{base_url}/puzzles.html?id={puzzle_id}")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-submit").click()
    page.wait_for_function(f"{BOARD}.puzzle === '{puzzle_id}'")


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def status(page: Any) -> str:
    page.wait_for_function("document.querySelector('[data-testid=puzzle-feedback]').dataset.status")
    value: str = page.get_by_test_id("puzzle-feedback").get_attribute("data-status")
    return value


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_guest_solves_a_puzzle_from_the_seats_view_and_then_sees_the_whole_deal(
    web_server: Any, new_page: Any, viewport: dict[str, int]
) -> None:
    kind = "desktop" if viewport == DESKTOP else "phone"
    page = new_page(viewport)
    open_as_guest(page, web_server.base_url, ONE_MOVE["id"], f"Solver {kind}")
    seat = ONE_MOVE["seat"]
    hand = ONE_MOVE["view"]["hands"][str(seat)]
    assert page.locator("[data-testid=puzzle-hand] button.puzzle-card").count() == len(hand)
    assert page.get_by_test_id("puzzle-contract").is_visible() and page.get_by_test_id("puzzle-others").is_visible()
    assert page.locator("[data-testid=puzzle-tricks] li").count() == len(ONE_MOVE["view"]["tricks"])
    assert page.get_by_test_id("puzzle-reveal").count() == 0  # no other hand before the end
    assert page.get_by_test_id("puzzle-rating").get_attribute("data-rating") == "1500"
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / f"puzzle_position_{kind}.png"))
    page.get_by_test_id(f"puzzle-card-{ONE_MOVE['moves'][0]['answer'][0]}").click()
    assert status(page) == "solved"
    assert "good" in (page.get_by_test_id("puzzle-feedback").get_attribute("class") or "")
    assert page.get_by_test_id("puzzle-verdict").inner_text() == "Solved!"
    for other in range(3):  # the whole deal, now that it is over
        page.get_by_test_id(f"puzzle-reveal-{other}").wait_for()
    assert int(page.get_by_test_id("puzzle-rating").get_attribute("data-rating")) > 1500
    assert "→" in page.get_by_test_id("puzzle-rating-change").inner_text()
    assert page.locator("[data-testid=puzzle-hand] button.puzzle-card:enabled").count() == 0  # nothing more to play
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / f"puzzle_solved_{kind}.png"))
    assert page.js_errors == []


def test_a_wrong_card_is_shown_with_each_cards_value_and_the_line_after_it(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE)
    open_as_guest(page, web_server.base_url, ONE_MOVE["id"], "Wrong Walter")
    card = wrong_card(ONE_MOVE)
    answer = ONE_MOVE["moves"][0]["answer"][0]
    page.get_by_test_id(f"puzzle-card-{card}").click()
    assert status(page) == "failed"
    assert "wrong" in (page.get_by_test_id("puzzle-feedback").get_attribute("class") or "")
    table = page.get_by_test_id("puzzle-values")
    assert table.locator(f"tr[data-card='{card}']").count() == 1
    assert table.locator(f"tr[data-card='{answer}']").count() == 1
    assert "answer" in (table.locator(f"tr[data-card='{answer}']").get_attribute("class") or "")
    assert "played" in (table.locator(f"tr[data-card='{card}']").get_attribute("class") or "")
    why = page.get_by_test_id("puzzle-why").inner_text()
    assert "is worth" in why and page.get_by_test_id("puzzle-line").is_visible()
    assert page.get_by_test_id("puzzle-best-line").is_visible()
    assert int(page.get_by_test_id("puzzle-rating").get_attribute("data-rating")) < 1500
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / "puzzle_wrong_phone.png"))
    # the next puzzle comes from the button under the answer
    page.get_by_test_id("puzzle-next-after").click()
    page.wait_for_function(f"{BOARD}.puzzle !== '{ONE_MOVE['id']}'")
    assert page.js_errors == []


def test_a_puzzle_of_several_moves_asks_again_after_the_others_answer(web_server: Any, new_page: Any) -> None:
    page = new_page()
    open_as_guest(page, web_server.base_url, TWO_MOVES["id"], "Many Moves")
    page.get_by_test_id(f"puzzle-card-{TWO_MOVES['moves'][0]['answer'][0]}").click()
    assert status(page) == "open"
    page.wait_for_function(f"{BOARD}.move === '1'")
    assert page.get_by_test_id("puzzle-replies").is_visible() and page.get_by_test_id("puzzle-reveal").count() == 0
    assert "Move 2 of" in page.get_by_test_id("puzzle-ask").inner_text()
    assert page.js_errors == []


def test_an_accounts_rating_moves_and_stays_and_the_history_shows_it(web_server: Any, new_page: Any) -> None:
    page = new_page()
    register_on_the_page(page, web_server.base_url, "Puzzle Pál")
    page.goto(f"{web_server.base_url}/index.html")
    page.get_by_test_id("nav-puzzles").click()  # the menu leads here
    page.wait_for_url("**/puzzles.html**")
    page.wait_for_function(f"{BOARD}.puzzle")
    page.goto(f"{web_server.base_url}/puzzles.html?id={ONE_MOVE['id']}")
    page.wait_for_function(f"{BOARD}.puzzle === '{ONE_MOVE['id']}'")
    assert page.get_by_test_id("puzzle-rating").get_attribute("data-rating") == "1500"
    page.get_by_test_id(f"puzzle-card-{ONE_MOVE['moves'][0]['answer'][0]}").click()
    assert status(page) == "solved"
    after = page.get_by_test_id("puzzle-rating").get_attribute("data-rating")
    assert int(after) > 1500
    page.reload()
    page.wait_for_function("document.querySelector('[data-testid=puzzle-rating]').dataset.rating")
    assert page.get_by_test_id("puzzle-rating").get_attribute("data-rating") == after  # kept by the account
    page.get_by_test_id("puzzle-history-btn").click()
    page.locator("[data-testid=puzzle-history] li[data-status=solved]").wait_for()
    assert f"1500 → {after}" in page.get_by_test_id("puzzle-history").inner_text()
    page.get_by_test_id("puzzle-mistakes-btn").click()
    page.get_by_test_id("puzzle-mistakes").wait_for()
    assert page.js_errors == []


def test_the_page_speaks_hungarian_and_offers_themes_phases_and_the_daily_puzzle(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(PHONE, lang="hu")
    open_as_guest(page, web_server.base_url, ONE_MOVE["id"], "Magyar Mari")
    assert page.locator("h1").inner_text() == "Feladványok"
    assert "Bemondás" in page.get_by_test_id("puzzle-contract").inner_text()
    page.get_by_test_id("puzzle-theme").select_option("catch_seven")
    page.get_by_test_id("puzzle-phase").select_option("endgame")
    assert page.get_by_test_id("puzzle-theme").locator("option:checked").inner_text() == "A hetes megfogása"
    page.get_by_test_id("puzzle-next").click()
    page.wait_for_function(f"{BOARD}.puzzle !== '{ONE_MOVE['id']}'")
    assert "A hetes megfogása" in page.get_by_test_id("puzzle-about").inner_text()
    page.get_by_test_id("puzzle-daily").click()
    page.wait_for_function("new URL(location.href).searchParams.get('daily') === '1'")
    assert "feladványa" in page.locator("[data-testid=puzzle-board] h2").inner_text()
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / "puzzle_daily_phone_hu.png"))
    assert page.js_errors == []
