"""Drive the web page like a person: sign in, create tables, and click random legal choices."""

from __future__ import annotations

import random
import time
from typing import Any

# Everything a player could click now, read from the page in one round trip.
SNAPSHOT_JS = """() => {
  const r = document.querySelector('[data-testid=table]');
  const ids = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.testid);
  return {
    myTurn: r.dataset.myTurn, mustDiscard: r.dataset.mustDiscard, status: r.dataset.status || '',
    phase: r.dataset.phase || '', winner: r.dataset.winner || '', sent: Number(r.dataset.sent),
    dealIndex: r.dataset.dealIndex || '', dealsPlayed: Number(r.dataset.dealsPlayed || 0),
    acts: ids('#controls button.act:not([disabled])'),
    kparts: ids('#controls button.toggle:not([disabled])'),
    playable: ids('#hand button.card.playable'),
    selectable: ids('#hand button.card.selectable'),
    selected: ids('#hand button.card.selected'),
    refused: ids('#hand button.card.refused'),
    nextDeal: !!document.querySelector('[data-testid=next-deal]:not([disabled])'),
  };
}"""


def sign_in(page: Any, base_url: str, name: str) -> None:
    """Open the lobby and pick a name (POST /api/session through the page)."""
    page.goto(base_url + "/")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-submit").click()
    page.get_by_test_id("more-options").wait_for()


def more_options(page: Any) -> None:
    """Open the lobby's full table form ("More options"), if it is closed."""
    if page.get_by_test_id("more-options").get_attribute("open") is None:
        page.get_by_test_id("more-options-toggle").click()
    page.get_by_test_id("create-table").wait_for()


#: adds the option ``value`` to the select ``testid`` unless the page offers it (its label the value itself)
_OFFER_JS = """([testid, value]) => {
  const select = document.querySelector(`[data-testid="${testid}"]`);
  if (![...select.options].some((o) => o.value === value)) select.add(new Option(value, value));
}"""


def choose(page: Any, testid: str, value: str) -> None:
    """Choose ``value`` in the select ``testid``. A bot level the page no longer offers people (random,
    heuristic, strong: the server still accepts them) is added to the choice first: tests seat the quick
    bots, and the form sends what is chosen as it would any level."""
    page.get_by_test_id(testid).wait_for()
    page.wait_for_function(f"() => document.querySelector('[data-testid=\"{testid}\"]').options.length > 0")
    page.evaluate(_OFFER_JS, [testid, value])
    page.get_by_test_id(testid).select_option(value)


def create_table(page: Any, seats: tuple[str, str, str], start_now: bool = True, deals: int = 6) -> str:
    """Fill the lobby's form (seat kinds: me, open, invite, ``bot.<level>``); return the table id."""
    more_options(page)
    page.get_by_test_id(f"deals-{deals}").check()
    for i, kind in enumerate(seats):
        choose(page, f"seat-kind-{i}", kind)
    box = page.get_by_test_id("start-now")
    if box.is_checked() != start_now:
        box.click()
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table.html?t=*")
    url: str = page.url
    return url.split("t=", 1)[1].split("&", 1)[0]


def snapshot(page: Any) -> dict[str, Any]:
    """What the page offers now."""
    offers: dict[str, Any] = page.evaluate(SNAPSHOT_JS)
    return offers


def wait_sent(page: Any, before: int, timeout: float = 3.0) -> bool:
    """Wait until the page has sent a command (data-sent grew); False if the click did not take."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=table]').dataset.sent) > {before}",
            timeout=timeout * 1000,
        )
    except PlaywrightError:
        return False  # e.g. the state moved on under the click: the caller simply looks again
    return True


def click(page: Any, testid: str) -> bool:
    """Click the element; False if it went away meanwhile (the state moved on under us)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.get_by_test_id(testid).click(timeout=3000)
    except PlaywrightError:
        return False
    return True


def act_randomly(page: Any, rng: random.Random, pass_weight: int = 6, snap: dict[str, Any] | None = None) -> bool:
    """If the page offers a choice, click a random legal one and return True; else False.

    After a deal, "Next deal" is the choice (a person has read the result).

    Only enabled buttons and non-dimmed cards are clicked. When two discards are asked for, two
    random cards are selected first, then a random enabled bid. ``snap``: the snapshot to decide from
    (default: a fresh one); a caller that checked a condition on a snapshot passes it, so that nothing
    is clicked on a state it has not checked (a deal that ended meanwhile must not be clicked past).
    """
    if snap is None:
        snap = snapshot(page)
    if snap["nextDeal"]:
        # the deal's result stays until each person clicks "Next deal"
        return click(page, "next-deal")
    if snap["myTurn"] != "1":
        return False
    before = snap["sent"]
    if snap["mustDiscard"] == "1":
        need = 2 - len(snap["selected"])
        choices = [c for c in snap["selectable"] if c not in snap["selected"]]
        for testid in rng.sample(choices, need):
            click(page, testid)
        snap = snapshot(page)
        bids = [a for a in snap["acts"] if a.startswith("bid-")]
        assert bids, f"no bid offered after choosing discards: {snap}"
        if click(page, rng.choice(bids)):
            wait_sent(page, before)
        return True
    options: list[tuple[str, int]] = []
    for a in snap["acts"]:
        if a == "act-kontra-say":
            continue
        weight = pass_weight if a in ("act-pass", "act-kontra-decline") else 1
        options.append((a, weight))
    if snap["kparts"]:
        options.append(("kontra", 1))
    options.extend((c, 3) for c in snap["playable"])
    assert options, f"my turn but nothing to click: {snap}"
    pick = rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]
    if pick == "kontra":
        for part in rng.sample(snap["kparts"], rng.randint(1, len(snap["kparts"]))):
            click(page, part)
        pick = "act-kontra-say"
    if click(page, pick):
        wait_sent(page, before)
    return True


def play_until(page: Any, rng: random.Random, done: Any, timeout: float = 120.0) -> None:
    """Click random legal choices on `page` until `done(snapshot)` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = snapshot(page)
        if done(snap):
            return
        if not act_randomly(page, rng, snap=snap):
            time.sleep(0.03)
    raise AssertionError(f"timed out; last snapshot {snapshot(page)}")
