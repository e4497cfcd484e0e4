"""A tournament of 21 players (three people in browsers, eighteen built-in bots) runs its rounds to a
winner through the tournament page (docs/protocol/tournaments.md): one person withdraws and one is
replaced by a bot by the director, both in the middle of round 1; the third plays her table in her
browser. Each person is told on the page, in the tab and with a sound when their table is ready."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx2

from tests.server.conftest import ServerProcess
from tests.web.conftest import SCREENSHOTS
from tests.web.driver import choose, play_until, sign_in
from ulti.tournaments.record import score_tournament
from ulti.tournaments.standings import places

ROOT = "[data-testid=tournament]"


def finished(snap: dict[str, Any]) -> bool:
    return bool(snap["status"] == "finished")


def register_and_check_in(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_test_id("register").click()
    page.get_by_test_id("checkin").click()
    page.wait_for_selector("[data-testid=you-status][data-status=checked_in]")


def test_tournament_of_21_with_three_people_runs_to_a_winner(web_server: ServerProcess, new_page: Any) -> None:
    anna, bela, cili = new_page(), new_page(), new_page()
    for page, name in ((anna, "Anna"), (bela, "Béla"), (cili, "Cili")):
        sign_in(page, web_server.base_url, name)
    # Anna finds the tournaments from the lobby and creates one: 2 rounds of 6 deals, the cheapest bots
    anna.get_by_test_id("tournaments-link").click()
    anna.get_by_test_id("t-name").fill("Club cup")
    anna.get_by_test_id("t-rounds").fill("2")
    anna.get_by_test_id("t-move").fill("5")
    anna.get_by_test_id("t-break").fill("3")
    choose(anna, "t-level", "random")  # accepted, no longer offered: the quickest bots
    anna.get_by_test_id("t-create").click()
    anna.wait_for_url("**/tournament.html?id=*")
    url = anna.url
    tournament_id = url.split("id=", 1)[1]
    for page in (anna, bela, cili):
        register_and_check_in(page, url)
    # the director adds eighteen built-in bots as players, then starts
    anna.get_by_test_id("desk-bots-count").fill("18")
    anna.get_by_test_id("desk-bots-add").click()
    anna.wait_for_selector("[data-testid=desk-player-20]")
    anna.get_by_test_id("desk-start").click()
    anna.wait_for_selector(f"{ROOT}[data-status=running][data-round='1']")
    for page in (anna, bela, cili):
        page.get_by_test_id("table-ready").wait_for()
        assert page.evaluate("document.documentElement.dataset.tabTurn") == "1"
        assert page.title() == "● Your turn — Ulti"  # the turn signal's title (and icon)
        page.wait_for_function("window.__ultiSound.played.turn >= 1")  # and the turn's sound, once
    # mid-round 1: Béla withdraws, and the director replaces Cili by a bot
    bela.on("dialog", lambda dialog: dialog.accept())
    bela.get_by_test_id("withdraw").click()
    bela.wait_for_selector("[data-testid=you-status][data-status=withdrawn]")
    anna.get_by_test_id("desk-replace-2").click()
    anna.wait_for_selector("[data-testid=desk-player-2] >> text=a bot plays for them")
    # Anna plays her table of round 1 in her browser
    anna.get_by_test_id("ready-link").click()
    anna.wait_for_url("**/table.html?t=*")
    play_until(anna, random.Random(39), finished, timeout=300)
    anna.goto(url)
    anna.wait_for_selector(f"{ROOT}[data-status=finished]", timeout=300_000)
    rows = anna.locator("[data-testid^=standing-]")
    assert rows.count() == 21
    assert anna.get_by_test_id("tie-break-opponents").count() == 1
    # a player's name opens their rounds: Anna played both (the second by her seat's bot)
    anna.get_by_test_id("player-link-0").click()
    anna.get_by_test_id("player-round-2").wait_for()
    assert anna.get_by_test_id("player-results-name").inner_text().startswith("Anna")
    anna.screenshot(path=str(SCREENSHOTS / "tournament-finished.png"), full_page=True)

    with httpx2.Client(base_url=web_server.base_url, timeout=30) as client:
        token = client.post("/api/session", json={"name": "Watcher"}).json()["token"]
        client.headers["authorization"] = f"Bearer {token}"
        view = client.get(f"/api/tournaments/{tournament_id}").json()
        assert view["status"] == "finished" and len(view["rounds"]) == 2
        assert view["players"][1]["status"] == "withdrawn" and view["players"][2]["replaced"]
        first, second = view["rounds"]
        assert any(1 in t["seats"] for t in first["tables"])  # Béla played round 1 until he withdrew
        assert not any(1 in t["seats"] for t in second["tables"])  # and no later round
        cili_table = next(t for t in second["tables"] if 2 in t["seats"])  # Cili stays in, a bot plays for her
        table = client.get(f"/api/tables/{cili_table['table_id']}").json()
        assert table["table"]["seats"][cili_table["seats"].index(2)]["kind"] == "bot"
        winner = view["standings"][0]
        assert winner["rank"] == 1 and winner["total"] >= view["standings"][1]["total"]
        record = client.get(f"/api/tournaments/{tournament_id}/record").json()
        assert score_tournament(record)["standings"] == view["standings"]
    for page in (anna, bela, cili):
        assert page.js_errors == []


def test_tournament_pages_are_hungarian(web_server: ServerProcess, new_page: Any) -> None:
    from tests.web.test_hungarian_everywhere import EN_ONLY_JS, english_left

    page = new_page(lang="hu")
    page.add_init_script("try { localStorage.setItem('ulti.pack', 'hungarian'); } catch (e) {}")
    page.goto(web_server.base_url + "/")
    en_only = set(page.evaluate(EN_ONLY_JS))
    page.get_by_test_id("name-input").fill("Dorottya")
    page.get_by_test_id("name-submit").click()
    page.get_by_test_id("tournaments-link").click()
    page.get_by_test_id("tournament-form").wait_for()
    english_left(page, en_only, "tournament_list")
    page.get_by_test_id("t-name").fill("Kupa")
    page.get_by_test_id("t-create").click()
    page.wait_for_url("**/tournament.html?id=*")
    page.get_by_test_id("register").click()
    page.get_by_test_id("checkin").wait_for()
    page.get_by_test_id("desk-start").wait_for()
    english_left(page, en_only, "tournament")
    assert page.js_errors == []


def test_arena_page_shows_time_left_waiting_and_live_standings(web_server: ServerProcess, new_page: Any) -> None:
    """A one-minute arena of two people: they sit with a bot at the start, then wait for a table (the
    bots' wait is longer than the arena), the page counts the time down, and the standings follow."""
    anna, bela = new_page(), new_page()
    for page, name in ((anna, "Anna"), (bela, "Béla")):
        sign_in(page, web_server.base_url, name)
    anna.get_by_test_id("tournaments-link").click()
    assert anna.get_by_test_id("t-minutes").is_hidden()  # asked only for an arena
    anna.get_by_test_id("t-name").fill("Arena")
    anna.get_by_test_id("t-format").select_option("arena")
    anna.get_by_test_id("t-minutes").fill("1")
    anna.get_by_test_id("t-bot-wait").fill("600")
    anna.get_by_test_id("t-move").fill("5")
    choose(anna, "t-level", "random")
    anna.get_by_test_id("t-create").click()
    anna.wait_for_url("**/tournament.html?id=*")
    url = anna.url
    for page in (anna, bela):
        register_and_check_in(page, url)
    anna.get_by_test_id("desk-start").click()
    anna.wait_for_selector(f"{ROOT}[data-status=running]")
    anna.get_by_test_id("table-ready").wait_for()
    assert re.fullmatch(r"Time left: (1:00|0:[0-5]\d)", anna.get_by_test_id("countdown").inner_text())
    # their table over, both wait for a table: on their pages and in the live standings
    for page in (anna, bela):
        page.get_by_test_id("arena-waiting").wait_for(timeout=120_000)
    assert anna.get_by_test_id("arena-state-1").inner_text() == "waiting"
    anna.wait_for_selector(f"{ROOT}[data-status=finished]", timeout=120_000)
    assert anna.get_by_test_id("countdown").inner_text() == ""
    with httpx2.Client(base_url=web_server.base_url, timeout=30) as client:
        view = client.get(url.replace("/tournament.html?id=", "/api/tournaments/")).json()
    assert len(view["rounds"]) == 1  # nobody else came: no bot table before the 600 s wait, none after the end
    table = view["rounds"][0]["tables"][0]
    points = dict(zip(table["seats"], [(2, 1, 0)[p] for p in places(table["result"]["points"])], strict=True))
    for row in view["standings"]:
        shown = anna.get_by_test_id(f"standing-{row['player']}").get_attribute("data-total")
        assert shown == str(row["total"]) == str(points[row["player"]])
    for page in (anna, bela):
        assert page.js_errors == []


SPORT_JS = """async () => {
  const post = (path, body) => fetch(path, {method: 'POST', credentials: 'same-origin',
    headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}).then((r) => r.json());
  const made = await post('/api/tournaments', {name: 'Sport fix', format: 'duplicate', rounds: 1,
    deals_per_round: 6, move_seconds: 5, level: 'random', break_seconds: 0});
  const id = made.tournament_id;
  await post(`/api/tournaments/${id}/desk`, {action: 'add_bots', count: 6});
  await post(`/api/tournaments/${id}/desk`, {action: 'start'});
  return id;
}"""
VIEW_JS = """async (id) => (await fetch(`/api/tournaments/${id}`, {credentials: 'same-origin'})).json()"""


def test_the_desk_page_corrects_a_sport_ulti_tables_deals_keeping_its_points(
    web_server: ServerProcess, new_page: Any
) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Edit")
    tournament_id = page.evaluate(SPORT_JS)
    page.goto(f"{web_server.base_url}/tournament.html?id={tournament_id}")
    page.wait_for_selector(f"{ROOT}[data-status=finished]", timeout=120_000)
    before = page.evaluate(VIEW_JS, tournament_id)["rounds"][0]["tables"][0]["result"]
    fixed = [list(d) for d in before["deals"]]
    fixed[0] = [900, -450, -450]
    # the director types the deals' scores only, one deal a line: the recorded points stay
    page.get_by_test_id("correct-round").fill("1")
    page.get_by_test_id("correct-table").fill("1")
    page.get_by_test_id("correct-deals").fill("\n".join(" ".join(str(v) for v in d) for d in fixed))
    page.get_by_test_id("correct-reason").fill("deal 1 mis-scored")
    page.get_by_test_id("correct-submit").click()
    page.wait_for_function(
        f"async () => (await ({VIEW_JS})('{tournament_id}')).corrections.length === 1", timeout=10_000)
    after = page.evaluate(VIEW_JS, tournament_id)["rounds"][0]["tables"][0]["result"]
    assert after["deals"] == fixed and after["points"] == before["points"]
    assert after["corrections"] == ["deal 1 mis-scored"]
    # the points alone, a seat's field each: the corrected deals stay
    for i, value in enumerate((30, 0, -30)):
        page.get_by_test_id(f"correct-p{i}").fill(str(value))
    page.get_by_test_id("correct-reason").fill("points slip")
    page.get_by_test_id("correct-submit").click()
    page.wait_for_function(
        f"async () => (await ({VIEW_JS})('{tournament_id}')).corrections.length === 2", timeout=10_000)
    last = page.evaluate(VIEW_JS, tournament_id)["rounds"][0]["tables"][0]["result"]
    assert last["points"] == [30, 0, -30] and last["deals"] == fixed
    assert page.js_errors == []
