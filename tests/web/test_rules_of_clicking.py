"""(c) A dimmed card carries its reason and sends nothing; a disabled bid button cannot be sent."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.driver import act_randomly, create_table, sign_in, snapshot

REASONS = ("you must follow suit", "you must beat", "you must play a trump", "you must overtrump", "the trump 7")


def _table_seq(page: Any) -> str:
    return str(page.get_by_test_id("table").get_attribute("data-seq"))


def test_dimmed_card_and_disabled_bid_send_nothing(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Csaba")
    create_table(page, ("me", "bot.heuristic", "bot.random"), deals=6)
    rng = random.Random(7)
    checked_bid = checked_card = False
    deadline = time.monotonic() + 90
    while not (checked_bid and checked_card):
        assert time.monotonic() < deadline, f"no dimmed card met in time: {snapshot(page)}"
        snap = snapshot(page)
        if snap["myTurn"] == "1" and not checked_bid and snap["phase"] == "auction" and snap["mustDiscard"] == "0":
            disabled = page.locator("#controls button.bid[disabled]")
            if disabled.count():
                button = disabled.first
                seq = _table_seq(page)
                button.click(force=True)  # a person's click on a disabled button
                button.dispatch_event("click")  # even a synthetic click event
                page.wait_for_timeout(300)
                after = snapshot(page)
                assert after["sent"] == snap["sent"]
                assert _table_seq(page) == seq
                assert after["myTurn"] == "1"
                checked_bid = True
        if snap["myTurn"] == "1" and not checked_card and snap["refused"] and snap["playable"]:
            card = page.get_by_test_id(snap["refused"][0])
            title = card.get_attribute("title") or ""
            label = card.get_attribute("aria-label") or ""
            assert title.startswith(REASONS), title
            assert title in label and "not playable" in label
            assert card.get_attribute("aria-disabled") == "true"
            seq = _table_seq(page)
            card.click(force=True)  # a real tap; force only skips Playwright's wait for "enabled" (aria-disabled)
            page.wait_for_timeout(400)
            assert snapshot(page)["sent"] == snap["sent"]
            assert _table_seq(page) == seq
            toast = page.get_by_test_id("toast")
            assert toast.is_visible() and title in toast.inner_text()
            page.screenshot(path=str(SCREENSHOTS / "dimmed_card_reason_desktop.png"))
            checked_card = True
        if not act_randomly(page, rng):
            time.sleep(0.03)
    assert page.js_errors == []
