"""A phone player sees every decision without scrolling (UI issue, item 3).

Three people play one deal, each in a browser of the same size: upright phone (390×844), a phone on its
side (844×390) and, for the README's picture, a desktop. At every decision that comes up (bid or pass in
the auction, taking the talon and discarding, naming trumps, kontra or not, the result's button) the
buttons of that decision must lie inside the viewport, uncovered (the element itself answers a hit test
at its centre) and at least 44 px tall; the page never scrolls sideways. Screenshots of the table in
both packs at each size go to docs/screenshots/.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import click, create_table, sign_in, snapshot, wait_sent

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = DOCS / "screenshots"
LANDSCAPE = {"width": 844, "height": 390}
SIZES = {"phone": PHONE, "landscape": LANDSCAPE, "desktop": DESKTOP}

# For each element of `sel`: its box, the viewport, and whether a hit test at (x, y) inside it finds it.
BOXES_JS = """([sel, first]) => [...document.querySelectorAll(sel)].filter((el) => el.offsetParent !== null)
  .slice(0, first ? 1 : undefined).map((el) => {
  const r = el.getBoundingClientRect();
  const x = el.matches('button.card') ? r.left + Math.min(8, r.width / 2) : r.left + r.width / 2;
  const y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {id: el.dataset.testid || el.className, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          width: r.width, height: r.height, vw: window.innerWidth, vh: window.innerHeight,
          hit: !!hit && (hit === el || el.contains(hit)),
          scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth};
})"""


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Deals follow 3 s apart, so a finished deal's result stays on screen long enough to look at."""
    tmp = tmp_path_factory.mktemp("phone")
    srv = ServerProcess(
        db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}",
        args=("--bot-delay", "0.05", "--between-deals", "3", "--disconnect-grace", "5", "--trick-pause", "0"),
    )
    srv.start(tmp / "server.log")
    yield srv
    srv.stop()


def assert_in_view(page: Any, selector: str, what: str, min_size: int = 44, first: bool = False) -> int:
    """Every visible element of `selector` (or the first) lies inside the viewport, uncovered, large enough."""
    boxes: list[dict[str, Any]] = page.evaluate(BOXES_JS, [selector, first])
    assert boxes, f"{what}: nothing matches {selector}"
    if not all(_fits(b, min_size) for b in boxes):
        page.screenshot(path=str(SCREENSHOTS / "phone_decision_out_of_view.png"))  # for the person reading the failure
    for b in boxes:
        assert b["left"] >= -0.5 and b["right"] <= b["vw"] + 0.5, (what, b)
        assert b["top"] >= -0.5 and b["bottom"] <= b["vh"] + 0.5, (what, b)
        assert b["hit"], (what, "covered", b)
        assert b["height"] >= min_size, (what, "too small a target", b)
        assert b["scrollWidth"] <= b["clientWidth"], (what, "the page scrolls sideways", b)
    return len(boxes)


def _fits(b: dict[str, Any], min_size: int) -> bool:
    inside = b["left"] >= -0.5 and b["right"] <= b["vw"] + 0.5 and b["top"] >= -0.5 and b["bottom"] <= b["vh"] + 0.5
    return bool(inside and b["hit"] and b["height"] >= min_size and b["scrollWidth"] <= b["clientWidth"])


def three_players(new_page: Any, base_url: str, viewport: dict[str, int], names: tuple[str, str, str]) -> list[Any]:
    """Three people at one table (seats 0, 1, 2), the match started."""
    pages = [new_page(viewport) for _ in names]
    sign_in(pages[0], base_url, names[0])
    table_id = create_table(pages[0], ("me", "open", "open"), start_now=False)
    pages[0].get_by_test_id("waiting-room").wait_for()
    for seat, (page, name) in enumerate(zip(pages[1:], names[1:], strict=True), start=1):
        sign_in(page, base_url, name)
        page.goto(f"{base_url}/table.html?t={table_id}&seat={seat}")
        page.get_by_test_id("waiting-room").wait_for()
    status = pages[0].evaluate(
        """(id) => fetch('/api/tables/' + id + '/start', {method: 'POST', credentials: 'same-origin',
             headers: {'content-type': 'application/json'}, body: JSON.stringify({fill_bots: false})})
             .then((r) => r.status)""",
        table_id,
    )
    assert status == 200
    for page in pages:
        page.get_by_test_id("hand").locator("button.card").first.wait_for()
    return pages


def shoot(page: Any, name: str) -> None:
    """The table in the French and then the Hungarian pack; back to French afterwards."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert page.evaluate("() => document.documentElement.dataset.pack") == "french"
    page.screenshot(path=str(SHOTS / f"{name}_french.png"))
    page.get_by_test_id("pack-toggle").click()
    page.wait_for_selector("#hand svg[data-pack=hungarian]")
    page.screenshot(path=str(SHOTS / f"{name}_hungarian.png"))
    page.get_by_test_id("pack-toggle").click()
    page.wait_for_selector("#hand svg[data-pack=french]")


def decide(page: Any, rng: random.Random, seen: dict[str, int], check: bool) -> bool:
    """If `page` has a decision, check its buttons are in view, then take it; True if it acted."""
    snap = snapshot(page)
    if snap["myTurn"] != "1":
        return False
    before = snap["sent"]
    acts = snap["acts"]
    if snap["mustDiscard"] == "1":
        if check:
            seen["discard"] += assert_in_view(page, "#hand button.card.selectable", "talon: the cards to discard", 70)
        free = [c for c in snap["selectable"] if c not in snap["selected"]]
        for testid in rng.sample(free, 2 - len(snap["selected"])):
            click(page, testid)
        page.wait_for_selector("#controls button.bid:not([disabled])")
        if check:
            seen["discard"] += assert_in_view(page, "#controls button.bid:not([disabled])", "the bid", first=True)
        bids = [a for a in snapshot(page)["acts"] if a.startswith("bid-")]
        pick = "bid-M-S" if "bid-M-S" in bids else bids[0]  # the lowest bid: then everyone passes, trumps follow
        if click(page, pick):
            wait_sent(page, before)
        return True
    if "act-pass" in acts:
        if check:
            seen["auction"] += assert_in_view(page, "[data-testid=act-pass], [data-testid=act-take]", "pass / take")
        if click(page, "act-pass"):
            wait_sent(page, before)
        return True
    trumps = [a for a in acts if a.startswith("act-trump-")]
    if trumps:
        if check:
            seen["trump"] += assert_in_view(page, "#controls button.trump-btn", "trumps")
        if click(page, rng.choice(trumps)):
            wait_sent(page, before)
        return True
    if "act-kontra-decline" in acts:
        if check:
            sel = "[data-testid=act-kontra-decline], [data-testid=act-kontra-say], #controls button.kontra-part"
            seen["kontra"] += assert_in_view(page, sel, "kontra")
            seen["kontra"] += assert_in_view(page, "#hand button.card.playable", "kontra: the cards beside it", 70)
        # at trick 1 declining changes nothing on the server until the card is played: the box folds, with a word
        if click(page, "act-kontra-decline"):
            page.get_by_test_id("kontra-declined").wait_for()
            assert page.locator("#controls [data-testid=kontra-box]").count() == 0
            before = snapshot(page)["sent"]
        card = rng.choice(snapshot(page)["playable"] or snap["playable"])
        if click(page, card):
            wait_sent(page, before)
        return True
    if snap["playable"]:
        card = rng.choice(snap["playable"])
        if check:
            seen["play"] += assert_in_view(page, f"[data-testid={card}]", "play: the card", 70)
        if click(page, card):
            wait_sent(page, before)
        return True
    return False


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
def test_every_decision_in_view(web_server: Any, new_page: Any, size: str) -> None:
    viewport = SIZES[size]
    small = size != "desktop"
    pages = three_players(new_page, web_server.base_url, viewport, ("Anna", "Bori", "Cili"))
    rng = random.Random(5)
    seen = {"auction": 0, "discard": 0, "trump": 0, "kontra": 0, "play": 0, "result": 0}
    shot = False
    deadline = time.monotonic() + 150
    while not all(seen.values()):
        assert time.monotonic() < deadline, (seen, [snapshot(p) for p in pages])
        acted = False
        for page in pages:
            snap = snapshot(page)
            if snap["phase"] == "done" and not seen["result"]:
                if small:
                    seen["result"] += assert_in_view(page, "[data-testid=result-sheet-btn]", "the result's button")
                    assert_in_view(page, "[data-testid=result-title]", "the result", 10)
                else:
                    seen["result"] += 1
                continue
            if not shot and snap["phase"] == "play" and "act-kontra-decline" in snap["acts"]:
                shoot(page, f"table_{size}")
                if size == "desktop":
                    page.screenshot(path=str(DOCS / "screenshot-table.png"))
                shot = True
            acted = decide(page, rng, seen, check=small) or acted
        if not small:
            seen = {k: max(v, 1) if k != "result" else v for k, v in seen.items()}
        if not acted:
            time.sleep(0.03)
    assert shot
    for page in pages:
        width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], width
        assert page.js_errors == []
