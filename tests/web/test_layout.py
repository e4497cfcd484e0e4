"""(e) The phone layout shows the whole hand without horizontal scrolling; (f) screenshots at both sizes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import click, create_table, play_until, sign_in, snapshot

FITS_JS = """() => {
  const doc = document.documentElement;
  const cards = [...document.querySelectorAll('#hand button.card')].map((b) => {
    const r = b.getBoundingClientRect();
    const s = b.querySelector('svg').getBoundingClientRect();
    return {left: Math.min(r.left, s.left), right: Math.max(r.right, s.right), top: r.top, bottom: r.bottom};
  });
  return {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, width: window.innerWidth, cards};
}"""


def _assert_hand_fits(page: Any, expected: int) -> None:
    page.get_by_test_id("hand").scroll_into_view_if_needed()
    fit = page.evaluate(FITS_JS)
    assert len(fit["cards"]) == expected
    assert fit["scrollWidth"] <= fit["clientWidth"]
    for box in fit["cards"]:
        assert box["left"] >= 0 and box["right"] <= fit["width"], box


def test_phone_hand_fits_without_horizontal_scroll(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE)
    sign_in(page, web_server.base_url, "Emese")
    create_table(page, ("me", "bot.heuristic", "bot.heuristic"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    snap = snapshot(page)
    if snap["mustDiscard"] != "1":
        _assert_hand_fits(page, 10)
        assert click(page, "act-take")
        page.wait_for_selector("[data-testid=table][data-must-discard='1'][data-my-turn='1']")
    _assert_hand_fits(page, 12)  # the longest hand: 12 cards after taking the talon
    page.screenshot(path=str(SCREENSHOTS / "phone_hand_12_cards.png"))
    assert page.js_errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots(web_server: Any, new_page: Any, size: str) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    page = new_page(viewport)
    sign_in(page, web_server.base_url, f"Feri {size}")
    page.screenshot(path=str(SCREENSHOTS / f"lobby_{size}.png"), full_page=True)
    create_table(page, ("me", "bot.heuristic", "bot.random"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1'][data-phase=auction]")
    page.screenshot(path=str(SCREENSHOTS / f"auction_{size}.png"), full_page=size == "phone")
    rng = random.Random(3)
    play_until(page, rng, lambda s: s["phase"] == "play" and s["myTurn"] == "1" and bool(s["playable"]), timeout=60)
    page.screenshot(path=str(SCREENSHOTS / f"play_{size}.png"), full_page=size == "phone")
    play_until(page, rng, lambda s: s["dealsPlayed"] >= 2, timeout=90)
    page.get_by_test_id("sheet-btn").click()
    page.get_by_test_id("sheet-chart").wait_for()
    page.screenshot(path=str(SCREENSHOTS / f"score_sheet_{size}.png"))
    page.get_by_test_id("sheet-close").click()
    if size == "phone":
        fit = page.evaluate(FITS_JS)
        assert fit["scrollWidth"] <= fit["clientWidth"]
    assert page.js_errors == []
