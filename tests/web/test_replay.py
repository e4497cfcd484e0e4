"""The Past matches replay draws the server's frames (GET .../deals/{k}/replay) and decides no rule.

A deal is finished over the API (a scripted player and two random bots), then a person opens its
replay: the trick winner, the tricks won, the trump and the kontra shown are the served frames', even
when the frames are doctored on the way, so nothing of the kind is worked out in the page.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.request
from typing import Any

from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.driver import sign_in
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView

SEATS = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


async def finish_first_deal(base_url: str) -> str:
    """A table whose deal 0 is over (seat 0 plays random legal moves); its id."""
    host = GameClient(base_url)
    await host.login("Anna")
    table_id: str = (await host.http("POST", "/api/tables", {"deals": 6, "seats": SEATS}))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    rng = random.Random(11)

    def done() -> bool:
        match = host.state and host.state["match"]
        return bool(match and match["results"])

    while not done():
        await host.wait_for(lambda: done() or host.my_turn(), 30)
        if not done():
            assert host.state is not None
            action = action_to_json(RandomBot(rng).act(SeatView.from_json(host.state["deal"])))
            action.pop("seat")
            await host.act(action)
    await host.close()
    return table_id


def in_thread(coro: Any) -> Any:
    """Run ``coro`` on its own event loop in another thread (Playwright's sync API owns this one)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(coro)))
    thread.start()
    thread.join(120)
    assert out, "the deal did not finish"
    return out[0]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url) as response:
        return json.load(response)


def first_trick_frame(frames: list[dict[str, Any]]) -> int:
    """The frame "Next trick" stops at from the start: the first with a finished trick."""
    return next(i for i, f in enumerate(frames) if f["view"]["tricks"])


def test_replay_draws_the_served_frames(web_server: Any, new_page: Any) -> None:
    for _ in range(5):  # a deal given up before play shows no trick: take another table then
        table_id = in_thread(finish_first_deal(web_server.base_url))
        base = f"{web_server.base_url}/api/tables/{table_id}"
        frames = get_json(f"{base}/deals/0/replay")["frames"]
        if frames[-1]["view"]["tricks"]:
            break
    assert frames[-1]["view"]["tricks"]
    names = get_json(f"{base}/record")["players"]

    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Viewer")
    page.goto(f"{web_server.base_url}/matches.html?t={table_id}&k=0")
    page.get_by_test_id("replay-step").wait_for()
    n = len(frames) - 1
    assert page.get_by_test_id("replay-step").inner_text() == f"Step 0 of {n}"
    assert page.get_by_test_id("replay-action").inner_text() == "Cards as dealt."
    assert page.get_by_test_id("replay-trick-winner").count() == 0

    # "Next trick": the first finished trick, its winner as the frame names it
    page.get_by_test_id("replay-next-trick").click()
    i = first_trick_frame(frames)
    view = frames[i]["view"]
    winner = view["tricks"][-1]["winner"]
    assert page.get_by_test_id("replay-step").inner_text() == f"Step {i} of {n}"
    note = page.get_by_test_id("replay-trick-winner")
    assert note.get_attribute("data-seat") == str(winner)
    assert note.inner_text() == f"{names[winner]} takes the trick"
    assert page.get_by_test_id("replay-winning-card").count() == 1
    assert [page.get_by_test_id(f"replay-won-{s}").inner_text() for s in range(3)] == [
        f"{w} tricks" for w in view["won"]
    ]
    contract = page.get_by_test_id("replay-contract").inner_text()
    assert names[view["contract"]["declarer"]] in contract
    suits = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
    if view["contract"]["trump"]:
        assert suits[view["contract"]["trump"]] in contract
    for part, multiplier in view["kontra"].items():
        assert f"×{multiplier}" in contract, (part, contract)
    page.screenshot(path=str(SCREENSHOTS / "replay_trick_winner_desktop.png"), full_page=True)

    # the keyboard steps back and forth
    page.keyboard.press("ArrowLeft")
    assert page.get_by_test_id("replay-step").inner_text() == f"Step {i - 1} of {n}"
    page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("replay-step").inner_text() == f"Step {i} of {n}"
    # the end: the engine's tricks won and result
    page.get_by_test_id("replay-last").click()
    last = frames[-1]["view"]
    assert [page.get_by_test_id(f"replay-won-{s}").inner_text() for s in range(3)] == [
        f"{w} tricks" for w in last["won"]
    ]
    assert page.get_by_test_id("deal-result").is_visible()
    assert page.js_errors == []

    # doctored frames: the page shows whatever winner the server names, so it works none out
    doctored = (winner + 1) % 3

    def serve_doctored(route: Any) -> None:
        body = route.fetch().json()
        for frame in body["frames"]:
            for trick in frame["view"]["tricks"][:1]:
                trick["winner"] = doctored
        route.fulfill(json=body)

    page.route("**/deals/0/replay", serve_doctored)
    page.reload()
    page.get_by_test_id("replay-next-trick").click()
    note = page.get_by_test_id("replay-trick-winner")
    assert note.get_attribute("data-seat") == str(doctored)
    assert note.inner_text() == f"{names[doctored]} takes the trick"
    assert page.js_errors == []
