"""(b) Three people in three browsers play one deal at one table: seat link, invite link, start, play."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import act_randomly, create_table, sign_in, snapshot


def _join_by_link(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_test_id("name-input").fill(name)  # a first visit: the page asks for a name
    page.get_by_test_id("name-submit").click()
    page.get_by_test_id("waiting-room").wait_for()


def test_three_people_play_a_deal(web_server: Any, new_page: Any) -> None:
    host, bea, cili = new_page(DESKTOP), new_page(PHONE), new_page(DESKTOP, lang="hu")
    sign_in(host, web_server.base_url, "Aladár")
    table_id = create_table(host, ("me", "open", "invite"), start_now=False)
    host.get_by_test_id("waiting-room").wait_for()
    seat_link = host.get_by_test_id("seat-link-1").input_value()
    invite_link = host.get_by_test_id("invite-link-2").input_value()
    assert table_id in seat_link and "seat=1" in seat_link
    assert "seat=2" in invite_link and "invite=" in invite_link

    _join_by_link(bea, seat_link, "Bea")
    _join_by_link(cili, invite_link, "Cili")
    host.wait_for_function("() => document.querySelector('[data-testid=wait-seat-2]').innerText.includes('Cili')")
    assert "Bea" in host.get_by_test_id("wait-seat-1").inner_text()
    host.screenshot(path=str(SCREENSHOTS / "waiting_room_desktop.png"))
    host.get_by_test_id("start-match").click()

    pages = [host, bea, cili]
    for page in pages:
        page.get_by_test_id("hand").locator("button.card").first.wait_for()
    seats = sorted(int(p.get_by_test_id("table").get_attribute("data-you")) for p in pages)
    assert seats == [0, 1, 2]

    rng = random.Random(11)
    deadline = time.monotonic() + 90
    while not all(snapshot(p)["dealsPlayed"] >= 1 for p in pages):
        assert time.monotonic() < deadline, [snapshot(p) for p in pages]
        acted = False
        for page in pages:
            if snapshot(page)["dealsPlayed"] < 1:
                acted = act_randomly(page, rng, pass_weight=10) or acted
        if not acted:
            time.sleep(0.03)
    for page in pages:
        page.get_by_test_id("sheet-btn").click()
        page.get_by_test_id("sheet-row-0").wait_for()
        page.get_by_test_id("sheet-close").click()
    totals = [[int(p.get_by_test_id("sheet-total-0").text_content() or 0)] for p in pages]
    assert totals[0] == totals[1] == totals[2]
    bea.screenshot(path=str(SCREENSHOTS / "three_people_phone.png"), full_page=True)
    assert all(p.js_errors == [] for p in pages)
