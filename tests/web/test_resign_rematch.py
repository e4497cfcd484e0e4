"""Resign (with a confirmation; a bot plays the seat to the end) and rematch (the same seats, each person
accepting) from the table page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, SCREENSHOTS
from tests.web.driver import create_table, sign_in

FINISHED = "[data-testid=table][data-status='finished']"


def table_id(page: Any) -> str:
    url: str = page.url
    return url.split("t=", 1)[1].split("&", 1)[0]


def resign(page: Any) -> None:
    """Resign through the page: the button, then the confirmation's "Yes"."""
    page.get_by_test_id("resign-btn").click()
    page.get_by_test_id("resign-yes").click()
    page.get_by_test_id("you-resigned").wait_for()


def test_resign_asks_first_then_a_bot_finishes_and_a_rematch_starts_with_the_same_bots(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Quitter")
    old = create_table(page, ("me", "bot.random", "bot.heuristic"))
    page.wait_for_selector("[data-testid=table][data-status='playing']")
    # "Resign" asks first; "Keep playing" changes nothing
    page.get_by_test_id("resign-btn").click()
    assert "ranked last" in page.get_by_test_id("resign-confirm").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "resign_confirm_desktop.png"))
    page.get_by_test_id("resign-no").click()
    assert page.get_by_test_id("resign-confirm").count() == 0
    view = page.evaluate(f"fetch('/api/tables/{old}').then((r) => r.json())")
    assert not view["table"]["seats"][0]["away"]
    resign(page)
    assert page.get_by_test_id("back-btn").count() == 0  # nothing to take back
    page.wait_for_selector(FINISHED, timeout=90_000)
    view = page.evaluate(f"fetch('/api/tables/{old}').then((r) => r.json())")
    assert view["table"]["seats"][0]["resigned"] is True and view["match"]["deals_played"] >= 6
    # the match is over: a rematch, with the same bots, started at once (nobody else to wait for)
    page.get_by_test_id("rematch-btn").click()
    page.wait_for_function(f"!location.search.includes('{old}')")
    page.wait_for_selector("[data-testid=table][data-status='playing']")
    new = table_id(page)
    view = page.evaluate(f"fetch('/api/tables/{new}').then((r) => r.json())")
    assert [(s["kind"], s["level"]) for s in view["table"]["seats"]] == [
        ("player", None), ("bot", "random"), ("bot", "heuristic"),
    ]
    assert view["you"] == 0
    assert page.js_errors == []


def test_a_rematch_waits_for_the_other_person_to_accept(web_server: Any, new_page: Any) -> None:
    anna, bela = new_page(), new_page(PHONE)
    sign_in(anna, web_server.base_url, "Anna Re")
    sign_in(bela, web_server.base_url, "Bela Re")
    old = create_table(anna, ("me", "open", "bot.random"), start_now=False)
    bela.goto(f"{web_server.base_url}/table.html?t={old}")
    bela.get_by_test_id("sit-1").click()
    anna.get_by_test_id("wait-seat-1").filter(has_text="Bela Re").wait_for()
    anna.get_by_test_id("start-match").click()
    for page in (anna, bela):
        page.wait_for_selector("[data-testid=table][data-status='playing']")
        resign(page)
    # Bela sees that Anna resigned
    bela.get_by_test_id("resigned-0").wait_for()
    for page in (anna, bela):
        page.wait_for_selector(FINISHED, timeout=90_000)
    anna.get_by_test_id("rematch-btn").click()
    anna.wait_for_function(f"!location.search.includes('{old}')")
    new = table_id(anna)
    anna.get_by_test_id("waiting-room").wait_for()
    assert anna.get_by_test_id("wait-seat-1").get_attribute("class") == "wait-seat invite"
    # Bela's page, still at the old table, offers to accept
    bela.get_by_test_id("rematch-offer").wait_for()
    assert "Anna Re" in bela.get_by_test_id("rematch-offer").inner_text()
    assert bela.get_by_test_id("rematch-btn").inner_text() == "Accept the rematch"
    bela.screenshot(path=str(SCREENSHOTS / "rematch_offer_phone.png"))
    bela.get_by_test_id("rematch-btn").click()
    bela.wait_for_function(f"location.search.includes('{new}')")
    for page in (anna, bela):
        page.wait_for_selector("[data-testid=table][data-status='playing']")
    assert bela.evaluate("document.querySelector('[data-testid=table]').dataset.you") == "1"
    assert anna.js_errors == [] and bela.js_errors == []
