"""The analysis in the page: a learner's hint with its bar chart, then the finished deal's analysis
(badges, the graph, the what-if explorer) opened from the end-of-deal screen; the bots' reasons in a
learner table's bidding log; each seat's accuracy over the match (docs/protocol/analysis.md §22)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.web.conftest import SCREENSHOTS
from tests.web.driver import play_until, sign_in

CREATE_JS = """async () => {
  const post = (path, body) => fetch(path, {method: 'POST', headers: {'content-type': 'application/json'},
                                            body: JSON.stringify(body)}).then((r) => r.json());
  const seats = [{kind: 'me'}, {kind: 'bot', level: 'random'}, {kind: 'bot', level: 'random'}];
  const table = await post('/api/tables', {deals: 6, learner: true, seats});
  await post(`/api/tables/${table.table_id}/start`, {});
  return table.table_id;
}"""


def my_card_turn(snap: dict[str, Any]) -> bool:
    return snap["phase"] == "play" and snap["myTurn"] == "1" and bool(snap["playable"])


def test_learner_hint_then_the_deal_analysis_with_badges_graph_and_what_if(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Lena")
    table_id = page.evaluate(CREATE_JS)
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    rng = random.Random(3)

    # learner mode: on a card turn, a hint shows the bot's choice and the value of each card as bars
    play_until(page, rng, my_card_turn, timeout=120)
    page.get_by_test_id("hint-button").click()
    page.get_by_test_id("hint-chart").wait_for(timeout=30_000)
    keys = page.eval_on_selector_all(
        "[data-testid=hint-chart] [data-testid=an-bar]", "els => els.map(e => e.dataset.key)"
    )
    playable = page.eval_on_selector_all("#hand button.card.playable", "els => els.map(e => e.dataset.card)")
    # one bar per legal card; at trick 1 a defender's kontra step is priced first (declining is "none")
    assert keys and (set(keys) == set(playable) or "none" in keys), (keys, playable)
    assert page.get_by_test_id("hint-best").inner_text().strip()
    page.screenshot(path=str(SCREENSHOTS / "analysis-hint.png"))

    # the end-of-deal screen links to the analysis and, on a learner table, gives the lessons
    play_until(page, rng, lambda s: s["nextDeal"], timeout=180)
    page.get_by_test_id("analysis-link").wait_for()
    page.locator("[data-testid=lessons], [data-testid=lessons-none]").first.wait_for(timeout=60_000)
    page.screenshot(path=str(SCREENSHOTS / "analysis-lessons.png"))
    page.get_by_test_id("analysis-link").click()
    page.wait_for_url("**/matches.html?t=*")

    # the replay with the analysis: the graph, a badge for every decision, each seat's totals
    page.get_by_test_id("an-graph").wait_for(timeout=60_000)
    assert page.get_by_test_id("an-graph-line").count() == 1 or page.get_by_test_id("an-graph-none").count() == 1
    assert page.locator("[data-testid=an-moves] [data-testid=an-badge], .an-moves [data-testid=an-badge]").count() > 0
    assert page.get_by_test_id("an-totals").locator("tbody tr").count() == 3

    # step to the play and explore another line: the double-dummy outcome of the rest is shown
    for _ in range(60):
        if page.get_by_test_id("whatif-open").count():
            break
        page.get_by_test_id("replay-next").click()
    page.get_by_test_id("whatif-open").click()
    page.get_by_test_id("whatif").wait_for()
    page.locator("[data-testid=whatif-value]").wait_for()
    first = page.locator("button.whatif-card").first
    card = first.get_attribute("data-wcard")
    first.click()
    page.wait_for_function(
        # while the line is asked for, the page shows whatif-wait and no whatif-line: wait, never throw
        "(c) => { const line = document.querySelector('[data-testid=whatif-line]');"
        " return !!line && line.textContent.trim().length > 0"
        " && !document.querySelector('[data-testid=whatif-wait]'); }",
        arg=card,
    )
    assert page.get_by_test_id("whatif-value").inner_text().strip()
    # the cursor of the graph follows the replay
    assert page.get_by_test_id("an-cursor").count() == 1
    page.screenshot(path=str(SCREENSHOTS / "analysis-replay.png"), full_page=True)
    assert page.js_errors == []


def create_js(seats: list[dict[str, str]], learner: bool) -> str:
    """Create and start a table of ``seats`` from the page (its host watches); the table id."""
    return f"""async () => {{
  const post = (path, body) => fetch(path, {{method: 'POST', headers: {{'content-type': 'application/json'}},
                                            body: JSON.stringify(body)}}).then((r) => r.json());
  const table = await post('/api/tables', {{deals: 6, learner: {str(learner).lower()}, seats: {json.dumps(seats)}}});
  await post(`/api/tables/${{table.table_id}}/start`, {{}});
  return table.table_id;
}}"""


def test_the_bidding_log_of_a_learner_table_says_why_the_bots_bid(web_server: Any, new_page: Any) -> None:
    seats = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "strong"},
             {"kind": "bot", "level": "heuristic"}]
    for lang, pattern in (
        ("en", r"made in \d+% of \d+ simulated deals|a rule of thumb, trump strength [\d.]+"),
        ("hu", r"szimulált leosztás \d+%-ában teljesült|ökölszabály, .* [\d.]+ erősségű lap"),
    ):
        page = new_page(lang=lang)
        sign_in(page, web_server.base_url, f"Watcher {lang}")
        table_id = page.evaluate(create_js(seats, learner=True))
        page.goto(f"{web_server.base_url}/table.html?t={table_id}")
        # every deal opens with a bot's obligatory bid: the log shows the bot's reason under it
        note = page.get_by_test_id("bot-note").first
        note.wait_for(timeout=60_000)
        assert re.search(pattern, note.inner_text()), note.inner_text()
        if lang == "en":
            page.screenshot(path=str(SCREENSHOTS / "bot-note.png"))
        assert page.js_errors == []

    # a table that is no learner table shows no reason
    page = new_page()
    sign_in(page, web_server.base_url, "Plain watcher")
    table_id = page.evaluate(create_js(seats, learner=False))
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    page.wait_for_function("() => document.querySelectorAll('#log .log-list li').length >= 2", timeout=60_000)
    assert page.get_by_test_id("bot-note").count() == 0


def test_the_match_accuracy_at_the_end_of_the_match_and_in_past_matches(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Counter")
    seats = [{"kind": "bot", "level": "random"}] * 3
    table_id = page.evaluate(create_js(seats, learner=False))
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    page.get_by_test_id("match-winner").wait_for(timeout=120_000)
    # at the end of the match: each seat's accuracy over the match, once every deal is analysed
    page.locator("[data-testid=match-accuracy][data-status=done]").wait_for(timeout=120_000)
    table_figures = [page.get_by_test_id(f"match-acc-value-{s}").inner_text() for s in range(3)]
    assert all(re.fullmatch(r"\d+%|–", f) for f in table_figures), table_figures
    page.screenshot(path=str(SCREENSHOTS / "match-accuracy-table.png"))

    # Past matches: the same figures above the list of deals
    page.goto(f"{web_server.base_url}/matches.html?t={table_id}")
    page.locator("[data-testid=match-accuracy][data-status=done]").wait_for(timeout=60_000)
    assert [page.get_by_test_id(f"match-acc-value-{s}").inner_text() for s in range(3)] == table_figures
    page.screenshot(path=str(SCREENSHOTS / "match-accuracy-replay.png"))
    assert page.js_errors == []
