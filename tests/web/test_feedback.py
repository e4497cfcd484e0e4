"""Feedback for every click (UI issue, item 6) and the small things of item 8 that need a table.

- a click on a card out of turn says whose turn it is, and the hand looks inactive meanwhile;
- the ♦ trump button is drawn in full colour (not pale like a disabled button);
- a spectator sees that they are watching;
- chat is rate-limited visibly, beside the chat input;
- Past matches show the date, the players and the winner.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from datetime import UTC, datetime
from typing import Any

from tests.server.helpers import three_players as server_three_players
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import click, sign_in, snapshot, wait_sent
from tests.web.test_phone import three_players, web_server  # noqa: F401  (the module's server: deals 3 s apart)
from ulti.client import GameClient, play_randomly

COLOR_JS = """(el) => {
  const sym = el.querySelector('.suit-sym') || el;
  const parse = (c) => c.match(/[\\d.]+/g).map(Number);
  const cs = getComputedStyle(el);
  return {color: parse(getComputedStyle(sym).color), background: parse(cs.backgroundColor),
          text: parse(cs.color), opacity: Number(cs.opacity), disabled: el.disabled};
}"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_out_of_turn_click_trumps_and_spectator(web_server: Any, new_page: Any) -> None:  # noqa: F811
    pages = three_players(new_page, web_server.base_url, PHONE, ("Dóra", "Emma", "Flóra"))
    people = ("Dóra", "Emma", "Flóra")
    names = {int(p.get_by_test_id("table").get_attribute("data-you")): n for p, n in zip(pages, people, strict=True)}
    mover = next(p for p in pages if snapshot(p)["myTurn"] == "1")
    idle = next(p for p in pages if p is not mover)
    to_move = names[int(mover.get_by_test_id("table").get_attribute("data-you"))]

    # out of turn: the hand looks inactive, and a click on a card says whose turn it is (the name)
    assert "inactive" in (idle.get_by_test_id("hand").get_attribute("class") or "")
    assert "inactive" not in (mover.get_by_test_id("hand").get_attribute("class") or "")
    sent = snapshot(idle)["sent"]
    idle.locator("#hand button.card").first.click(force=True)  # a real tap; force skips the wait for "enabled"
    toast = idle.get_by_test_id("toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == f"It is {to_move}'s turn."
    assert snapshot(idle)["sent"] == sent  # nothing was sent
    idle.screenshot(path=str(SCREENSHOTS / "out_of_turn_phone.png"))

    # a spectator: a fourth person opens the table
    watcher = new_page(DESKTOP, lang="hu")
    sign_in(watcher, web_server.base_url, "Néző Nóra")
    watcher.goto(pages[0].url)
    mark = watcher.get_by_test_id("watching")
    mark.wait_for()
    assert "Nézőként figyeled" in mark.inner_text()
    assert watcher.get_by_test_id("table").get_attribute("data-you") == ""
    assert mark.is_visible()

    # the auction: the first bidder bids the simple game, the others pass: the declarer names trumps
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, [snapshot(p) for p in pages]
        phases = {snapshot(p)["phase"] for p in pages}
        if phases != {"auction"}:
            break
        for page in pages:
            snap = snapshot(page)
            if snap["myTurn"] != "1":
                continue
            if snap["mustDiscard"] == "1":
                for card in snap["selectable"][:2]:
                    click(page, card)
                page.wait_for_selector("[data-testid=bid-M-S]:not([disabled])")
                click(page, "bid-M-S")
            else:
                click(page, "act-pass")
            wait_sent(page, snap["sent"])
    declarer = next(p for p in pages if any(a.startswith("act-trump-") for a in snapshot(p)["acts"]))
    seen = declarer.evaluate(COLOR_JS, declarer.get_by_test_id("act-trump-D").element_handle())
    assert not seen["disabled"] and seen["opacity"] == 1
    assert seen["color"][0] > 150 and seen["color"][1] < 90 and seen["color"][2] < 90, seen  # a full red ♦
    assert _contrast(seen["color"], seen["background"]) >= 4.5, seen
    assert _contrast(seen["text"], seen["background"]) >= 4.5, seen
    declarer.get_by_test_id("act-trump-D").screenshot(path=str(SCREENSHOTS / "trump_button_diamonds.png"))
    assert all(p.js_errors == [] for p in [*pages, watcher])


def test_chat_is_rate_limited_visibly(web_server: Any, new_page: Any) -> None:  # noqa: F811
    pages = three_players(new_page, web_server.base_url, DESKTOP, ("Gabi", "Hajni", "Ildi"))
    page = pages[0]
    phrases = page.get_by_test_id("chat-phrases").locator("button")
    for _ in range(4):
        phrases.first.click()
    error = page.get_by_test_id("chat-error")
    page.wait_for_function(
        "() => /Slow down: you may chat again in \\d+ s\\./"
        ".test(document.querySelector('[data-testid=chat-error]').textContent)"
    )
    assert error.is_visible()
    assert re.fullmatch(r"Slow down: you may chat again in \d s\.", error.inner_text())
    assert all(phrases.nth(i).is_disabled() for i in range(phrases.count()))
    lines = page.get_by_test_id("chat-line")
    lines.nth(3).wait_for()
    page.wait_for_timeout(300)
    assert lines.count() == 4  # the fifth was never sent
    page.get_by_test_id("chat-panel").screenshot(path=str(SCREENSHOTS / "chat_rate_limited.png"))
    # the wait runs out: the chat opens again by itself
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=chat-phrases] button').disabled", timeout=12_000
    )
    assert error.inner_text() == ""
    phrases.first.click()
    lines.nth(4).wait_for()
    assert page.js_errors == []


def _finished_match(base_url: str) -> tuple[str, list[GameClient]]:
    """Three scripted players play a whole 6-deal match through (in a thread: its own event loop)."""
    out: list[tuple[str, list[GameClient]]] = []
    failures: list[BaseException] = []

    async def play() -> None:
        table_id, clients = await server_three_players(base_url, deals=6, names="Past")
        await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
        await asyncio.wait_for(asyncio.gather(*(play_randomly(c, 110 + i) for i, c in enumerate(clients))), 240)
        for client in clients:
            await client.close()
        out.append((table_id, clients))

    def run() -> None:
        try:
            asyncio.run(play())
        except BaseException as exc:  # re-raised by the test's own thread below
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(300)
    if failures:
        raise failures[0]
    assert out, "the scripted match did not finish"
    return out[0]


def test_past_matches_show_date_players_and_winner(web_server: Any, new_page: Any) -> None:  # noqa: F811
    table_id, clients = _finished_match(web_server.base_url)
    state = clients[0].state
    assert state is not None and state["match"]["winner"] is not None
    winner_name = f"Past {state['match']['winner']}"
    page = new_page(DESKTOP)
    page.context.add_cookies([{"name": "ulti_session", "value": clients[0].token, "url": web_server.base_url}])
    page.goto(web_server.base_url + "/matches.html")
    page.get_by_test_id(f"match-{table_id}").wait_for()
    # the server names the winner in the list itself: no request per table
    assert page.get_by_test_id(f"winner-{table_id}").inner_text() == f"★ Winner: {winner_name}"
    date = page.get_by_test_id(f"date-{table_id}")
    started = datetime.fromisoformat(str(date.get_attribute("datetime")).replace("Z", "+00:00"))
    assert abs((datetime.now(UTC) - started).total_seconds()) < 600
    assert str(started.year) in date.inner_text()
    players = page.get_by_test_id(f"match-{table_id}").locator(".players").inner_text()
    assert all(f"Past {i}" in players for i in range(3))
    page.get_by_test_id("match-list").screenshot(path=str(SCREENSHOTS / "past_matches.png"))
    assert page.js_errors == []
