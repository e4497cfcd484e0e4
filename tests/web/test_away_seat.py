"""Nothing is done in your name unseen: at a table without a time limit an absent player's seat waits.

Anna and Bea play with a bot. Bea's page closes on her turn: a minute later nothing has been played for
her, and Anna sees whom the table waits for and since when; once the longer wait is over she lets a bot
play for Bea. The log marks the bot's cards as played for Bea, Bea is told on her return what was played
in her name, and the replay of the deal marks the same cards.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.driver import act_randomly, create_table, sign_in, snapshot

LET_BOT_AFTER = 8


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The others may let a bot play for an absent player after 8 s (60 by default)."""
    tmp = tmp_path_factory.mktemp("away")
    srv = ServerProcess(
        db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}",
        args=("--bot-delay", "0.05", "--between-deals", "30", "--disconnect-grace", "1", "--trick-pause", "0",
              "--let-bot-after", str(LET_BOT_AFTER)),
    )
    srv.start(tmp / "server.log")
    yield srv
    srv.stop()


def test_an_absent_players_seat_waits_and_the_bots_cards_are_marked(web_server: Any, new_page: Any) -> None:
    anna, bea = new_page(DESKTOP), new_page(DESKTOP)
    sign_in(anna, web_server.base_url, "Anna")
    table_id = create_table(anna, ("me", "open", "bot.heuristic"), start_now=False)
    seat_link = anna.get_by_test_id("seat-link-1").input_value()
    bea.goto(seat_link)
    bea.get_by_test_id("name-input").fill("Bea")
    bea.get_by_test_id("name-submit").click()
    bea.get_by_test_id("waiting-room").wait_for()
    anna.wait_for_function("() => document.querySelector('[data-testid=wait-seat-1]').innerText.includes('Bea')")
    anna.get_by_test_id("start-match").click()
    bea.get_by_test_id("hand").locator("button.card").first.wait_for()

    # play until it is Bea's turn, then her page closes
    rng = random.Random(35)
    deadline = time.monotonic() + 60
    while snapshot(bea)["myTurn"] != "1":
        assert time.monotonic() < deadline, "Bea's turn never came"
        if not act_randomly(anna, rng):
            time.sleep(0.05)
    hand = bea.get_by_test_id("hand").locator("button.card").count()
    seq = anna.get_by_test_id("table").get_attribute("data-seq")
    context = bea.context
    bea.close()

    # the table waits for her, and says so: since when, and from when a bot may play for her
    anna.get_by_test_id("waiting-1").wait_for()
    assert "Bea" in anna.get_by_test_id("waiting-1").inner_text()
    assert anna.get_by_test_id("waited-1").is_visible()
    assert anna.get_by_test_id("let-bot-1").is_disabled()
    assert "in " in anna.get_by_test_id("wait-left-1").inner_text()
    anna.screenshot(path=str(SCREENSHOTS / "absent_player_waited_desktop.png"))
    time.sleep(60)  # a minute offline: nothing is played in her name
    assert anna.get_by_test_id("table").get_attribute("data-seq") == seq
    assert anna.get_by_test_id("seat-1").get_attribute("data-on-turn") == "1"
    assert anna.get_by_test_id("hand-size-1").inner_text().startswith(str(hand))
    assert anna.locator("[data-testid^=by-bot-], [data-by-bot='1']").count() == 0

    # the longer wait is over: Anna (the only other person here) lets a bot play for Bea
    assert anna.get_by_test_id("let-bot-1").is_enabled()
    anna.get_by_test_id("let-bot-1").click()
    anna.get_by_test_id("away-1").wait_for()
    # the deal goes on to its end, the bot playing Bea's cards: the log marks them as the bot's
    deadline = time.monotonic() + 90
    while snapshot(anna)["phase"] != "done":
        assert time.monotonic() < deadline, "the deal did not end"
        if not act_randomly(anna, rng):
            time.sleep(0.05)
    marked = anna.locator("[data-testid^=by-bot-], [data-by-bot='1']")
    assert marked.count() >= 1
    anna.screenshot(path=str(SCREENSHOTS / "bot_played_marked_desktop.png"))

    # Bea comes back: she is told what was played in her name
    bea = context.new_page()
    bea.js_errors = []
    bea.on("pageerror", lambda exc: bea.js_errors.append(str(exc)))
    bea.goto(f"{web_server.base_url}/table.html?t={table_id}")
    report = bea.get_by_test_id("played-for-you")
    report.wait_for()
    assert "While you were away, a bot played for you" in report.inner_text()
    assert bea.get_by_test_id("played-for-you-0").is_visible()
    anna.get_by_test_id("away-1").wait_for(state="detached")  # her seat is hers again
    bea.get_by_test_id("played-for-you-ok").click()
    report.wait_for(state="detached")

    # the replay of the deal marks the cards the bot played for her
    anna.goto(f"{web_server.base_url}/matches.html?t={table_id}&k=0")
    anna.get_by_test_id("replay-step").wait_for()
    found = False
    for _ in range(80):
        if anna.locator("[data-testid^=replay-by-bot-], [data-testid^=replay-bot-card-]").count():
            found = True
            break
        anna.get_by_test_id("replay-next").click()
    assert found, "no action of the replay is marked as the bot's"
    assert "bot" in anna.get_by_test_id("replay").inner_text()
    assert anna.js_errors == [] and bea.js_errors == []


FOUR_JS = """async () => {
  const seats = [{kind: 'me'}, {kind: 'open'}, {kind: 'bot', level: 'random'}, {kind: 'bot', level: 'heuristic'}];
  const res = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
    headers: {'content-type': 'application/json'}, body: JSON.stringify({deals: 12, seats})});
  return (await res.json()).table_id;
}"""


def test_the_player_sitting_out_a_deal_of_four_votes_to_let_a_bot_play_for_an_absent_one(
    web_server: Any, new_page: Any
) -> None:
    anna, bea = new_page(DESKTOP), new_page(DESKTOP)
    sign_in(anna, web_server.base_url, "Anna")
    table_id = anna.evaluate(FOUR_JS)
    anna.goto(f"{web_server.base_url}/table.html?t={table_id}")
    anna.get_by_test_id("waiting-room").wait_for()
    bea.goto(anna.get_by_test_id("seat-link-1").input_value())
    bea.get_by_test_id("name-input").fill("Bea")
    bea.get_by_test_id("name-submit").click()
    bea.get_by_test_id("waiting-room").wait_for()
    anna.wait_for_function("() => document.querySelector('[data-testid=wait-seat-1]').innerText.includes('Bea')")
    anna.get_by_test_id("start-match").click()

    # deal 1: Anna (table seat 0) deals and sits it out; Bea plays its seat 0 and her page closes on her turn
    anna.locator('[data-testid=sits-out][data-seat="0"]').wait_for()
    bea.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.myTurn === '1'",
                          timeout=60_000)
    bea.close()

    # Anna, watching this deal, is one of the people here: she sees the wait and, after it, lets a bot play
    anna.get_by_test_id("waiting-0").wait_for()
    assert "Bea" in anna.get_by_test_id("waiting-0").inner_text()
    button = anna.get_by_test_id("let-bot-0")
    assert button.is_disabled()
    anna.wait_for_function("() => !document.querySelector('[data-testid=let-bot-0]').disabled",
                           timeout=(LET_BOT_AFTER + 10) * 1000)
    seq = int(anna.get_by_test_id("table").get_attribute("data-seq") or 0)
    button.click()
    # her vote was the one needed: Bea's table seat is away, a bot plays her cards and the deal goes on
    anna.get_by_test_id("away-0").wait_for()
    anna.wait_for_function(f"() => Number(document.querySelector('[data-testid=table]').dataset.seq) > {seq + 1}")
    assert anna.get_by_test_id("sits-out").get_attribute("data-seat") == "0"
    seats = anna.evaluate(f"async () => (await (await import('/js/api.js')).api.table('{table_id}')).table.seats")
    assert seats[1]["away"] is True and seats[1]["name"] == "Bea"
    assert anna.js_errors == []
