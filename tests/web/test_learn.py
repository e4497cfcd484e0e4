"""(issue 35, item 2) The guided first deal: the rules in small steps on real cards, skippable, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS

STEPS = ["pack", "talon", "bid", "follow", "trick", "score", "done"]


def step_name(page: Any) -> str:
    name: str = page.get_by_test_id("learn-step").get_attribute("data-step")
    return name


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_guided_deal_walks_through_talon_bid_suit_trick_and_score_on_real_cards(
    web_server: Any, new_page: Any, viewport: dict[str, int], lang: str
) -> None:
    page = new_page(viewport, lang=lang)
    page.goto(web_server.base_url + "/")
    page.get_by_test_id("learn-link").click()  # offered on the first visit
    page.wait_for_url("**/learn.html")
    kind = "desktop" if viewport == DESKTOP else "phone"
    assert step_name(page) == "pack"
    assert page.locator("[data-testid=learn-order] svg.card-svg").count() == 8  # real cards, drawn by cards.js
    page.get_by_test_id("learn-next").click()

    # the talon: lay two cards away
    assert step_name(page) == "talon"
    assert page.locator("[data-testid=learn-hand] button.learn-card").count() == 12
    page.get_by_test_id("learn-card-9D").click()
    page.get_by_test_id("learn-card-8D").click()
    page.get_by_test_id("learn-talon").wait_for()
    assert page.locator("[data-testid=learn-talon] .learn-card").count() == 2
    page.screenshot(path=str(SCREENSHOTS / f"learn_talon_{kind}_{lang}.png"))
    page.get_by_test_id("learn-next").click()

    # a bid: a weaker choice is explained, the good one praised
    assert step_name(page) == "bid"
    page.get_by_test_id("learn-answer-pass").click()
    assert "wrong" in (page.get_by_test_id("learn-feedback").get_attribute("class") or "")
    page.get_by_test_id("learn-answer-hearts").click()
    assert "good" in (page.get_by_test_id("learn-feedback").get_attribute("class") or "")
    page.get_by_test_id("learn-next").click()

    # following suit: a card of another suit, then a spade that does not beat, then the ace
    assert step_name(page) == "follow"
    page.get_by_test_id("learn-card-AH").click()
    wrong_suit = page.get_by_test_id("learn-feedback").inner_text()
    page.get_by_test_id("learn-card-7S").click()
    wrong_low = page.get_by_test_id("learn-feedback").inner_text()
    assert wrong_suit != wrong_low
    page.get_by_test_id("learn-card-AS").click()
    assert "good" in (page.get_by_test_id("learn-feedback").get_attribute("class") or "")
    page.get_by_test_id("learn-next").click()

    # a trick: a trump takes it
    assert step_name(page) == "trick"
    assert page.locator("[data-testid=learn-trick] svg.card-svg").count() == 3
    page.get_by_test_id("learn-answer-bela").click()
    assert "good" in (page.get_by_test_id("learn-feedback").get_attribute("class") or "")
    page.screenshot(path=str(SCREENSHOTS / f"learn_trick_{kind}_{lang}.png"))
    page.get_by_test_id("learn-next").click()

    # the score: aces and tens, and the last trick
    assert step_name(page) == "score"
    page.get_by_test_id("learn-answer-60").click()
    assert "60" in page.get_by_test_id("learn-feedback").inner_text()
    page.get_by_test_id("learn-next").click()

    # the end leads to a game
    assert step_name(page) == "done"
    assert page.evaluate("() => localStorage.getItem('ulti.learned')") == "1"
    # no horizontal scroll on any step
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    page.get_by_test_id("learn-play").click()
    page.wait_for_selector("#hand button.card", timeout=20_000)
    assert page.js_errors == []


def test_every_step_is_skippable_and_back_works(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(web_server.base_url + "/learn.html")
    page.get_by_test_id("learn-next").click()
    page.get_by_test_id("learn-next").click()
    assert step_name(page) == "bid"  # nothing needs answering to go on
    page.get_by_test_id("learn-back").click()
    assert step_name(page) == "talon"
    page.get_by_test_id("learn-skip").click()
    page.wait_for_url("**/index.html")
    page.get_by_test_id("play-now").wait_for()
    assert page.js_errors == []


def test_the_guided_deal_draws_the_hungarian_pack_when_it_is_chosen(web_server: Any, new_page: Any) -> None:
    page = new_page(lang="hu")
    page.goto(web_server.base_url + "/learn.html")
    page.get_by_test_id("pack-toggle").click()
    page.wait_for_function("() => document.querySelector('[data-testid=learn-order] svg.card-svg.hu')")
    assert page.locator("[data-testid=learn-order] svg[data-pack=hungarian]").count() == 8
    assert "tízes" in page.get_by_test_id("learn-step").inner_text()
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_rules_page_shows_card_pictures_in_the_chosen_pack(web_server: Any, new_page: Any, lang: str) -> None:
    page = new_page(PHONE, lang=lang)
    page.goto(web_server.base_url + "/rules.html")
    order = page.get_by_test_id(f"rules-order-{lang}")
    order.locator("svg.card-svg").first.wait_for()
    assert order.locator("svg.card-svg").count() == 8
    assert page.get_by_test_id(f"rules-trick-{lang}").locator("svg.card-svg").count() == 3
    assert order.locator("svg[data-pack=hungarian]").count() == 0  # the French pack by default
    page.get_by_test_id("pack-toggle").click()
    hungarian = f"[data-testid=rules-order-{lang}] svg[data-pack=hungarian]"
    page.wait_for_function(f"() => document.querySelectorAll('{hungarian}').length === 8")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SCREENSHOTS / f"rules_cards_phone_{lang}.png"))
    assert page.js_errors == []
