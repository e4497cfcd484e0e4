"""The player page and the leaderboard in Chromium.

One test shows that a name made of HTML stays text everywhere the two pages show it; the other plays
a rated match against two bot accounts through the page, end to end: the new rating and the match on
the player page and on the leaderboard, and the same again after logging out and back in.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
from sqlalchemy import create_engine, insert

from tests.web.driver import create_table, more_options, play_until
from ulti.store.models import match_players, match_results, ratings

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse battery"
HTML_NAME = "<img src=x onerror=alert(1)>"
STATS = {
    "deals": 6, "declarer_deals": 2, "declarer_points": 14, "defender_deals": 4, "defender_points": -4,
    "declared": {"ulti": {"played": 1, "made": 1, "kontrad": 1}, "simple": {"played": 1, "made": 0, "kontrad": 0}},
    "kontra": {"simple": {"given": 1, "won": 1}},
}


def sync_url(db_url: str) -> str:
    """The server's SQLite file for a plain (sync) SQLAlchemy engine in the test process."""
    return db_url.replace("sqlite+aiosqlite", "sqlite", 1)


def register_on_page(page: Any, base_url: str, name: str) -> dict[str, Any]:
    """Register ``name`` through the account page's form; the account as GET /api/me tells it."""
    page.goto(base_url + "/account.html")
    form = page.get_by_test_id("register-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id("logout").wait_for(state="visible")
    me: dict[str, Any] = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert me["kind"] == "account" and me["name"] == name
    return me


def open_player_page(page: Any, base_url: str, name: str) -> None:
    """Open /@/<name> and wait until it has drawn the API's answer."""
    page.goto(base_url + "/@/" + quote(name, safe=""))
    page.wait_for_function("document.getElementById('player-root').dataset.loaded === '1'")


def test_a_name_made_of_html_is_text_on_the_player_page_and_the_leaderboard(web_server: Any, new_page: Any) -> None:
    page = new_page()
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:  # an alert() would mean a name ran as markup
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    me = register_on_page(page, web_server.base_url, HTML_NAME)
    engine = create_engine(sync_url(web_server.db_url))
    with engine.begin() as conn:
        conn.execute(insert(ratings).values(player_id=me["id"], mu=26.0, sigma=7.0, rated_matches=1, updated_at=1))
        conn.execute(insert(match_results).values(table_id="tHtml", finished_at=1_700_000_000_000, rated=True,
                                                  deals_played=6))
        for seat, (pid, name, total, rank) in enumerate(
            ((me["id"], HTML_NAME, 10, 1), ("px", "<b>bold</b>", -4, 2), ("py", "Béla", -6, 3))
        ):
            conn.execute(insert(match_players).values(
                table_id="tHtml", seat=seat, player_id=pid, name=name, is_bot=False, total=total, rank=rank,
                left=False, won=rank == 1, finished_at=1_700_000_000_000, rated=True,
                rating_before=1500, rating_after=1540 if seat == 0 else 1480, stats=orjson.dumps(STATS).decode(),
            ))
    engine.dispose()

    open_player_page(page, web_server.base_url, HTML_NAME)
    assert page.get_by_test_id("player-name").inner_text() == HTML_NAME
    assert page.get_by_test_id("rating-value").inner_text() == "1540?"
    players = page.get_by_test_id("recent-match").locator(".players").inner_text()
    assert HTML_NAME in players and "<b>bold</b>" in players  # both names as text
    assert page.locator("#player-root img, #player-root b").count() == 0  # no element made from a name
    assert page.get_by_test_id("part-ulti").inner_text().split() == ["Ulti", "1", "1", "1", "0", "0"]
    assert page.get_by_test_id("avg-declarer").inner_text() == "+7"
    assert page.get_by_test_id("avg-defender").inner_text() == "−1"
    assert page.get_by_test_id("replay-link").get_attribute("href") == "/matches.html?t=tHtml"
    assert HTML_NAME in page.title()
    # in Hungarian: the page is drawn again in the other language, the name still as text
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("document.getElementById('rating-h').textContent === 'Értékszám'")
    assert page.get_by_test_id("player-name").inner_text() == HTML_NAME
    assert page.get_by_test_id("recent-match").locator(".place").inner_text() == "1. hely"
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("document.getElementById('rating-h').textContent === 'Rating'")

    page.get_by_test_id("nav-leaderboard").click()
    page.wait_for_url("**/leaderboard.html")
    page.wait_for_function("document.querySelector('[data-testid=leaderboard]').dataset.loaded === '1'")
    row = page.get_by_test_id("leaderboard-row").filter(has_text=HTML_NAME)
    assert row.locator("a").inner_text() == HTML_NAME
    assert page.locator("main img, main b").count() == 0
    # the link leads back to the page of that name (percent-encoded in the address)
    row.locator("a").click()
    page.wait_for_function("document.getElementById('player-root').dataset.loaded === '1'")
    assert page.get_by_test_id("player-name").inner_text() == HTML_NAME

    # an unknown name: a message, not an error page
    page.goto(web_server.base_url + "/@/" + quote("Nobody <i>here</i>"))
    page.get_by_test_id("player-error").wait_for(state="visible")
    assert page.get_by_test_id("player-error").inner_text() == "No player has this name."
    assert page.get_by_test_id("player-name").inner_text() == "Nobody <i>here</i>"
    assert dialogs == [] and page.js_errors == []


def test_a_rated_match_against_two_bots_shows_on_the_player_page_and_the_leaderboard(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    name = "Réka Rated"
    register_on_page(page, web_server.base_url, name)
    page.goto(web_server.base_url + "/index.html")
    more_options(page)
    page.get_by_test_id("rated").check()
    table_id = create_table(page, ("me", "bot.heuristic", "bot.heuristic"))
    play_until(page, random.Random(7), lambda s: s["winner"] != "", timeout=240)

    # the match is recorded once its last event is stored: the page shows it when it is there
    api = f"/api/players/{quote(name)}"
    deadline = time.monotonic() + 20
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        body = page.evaluate(f"fetch({api!r}).then((r) => r.json())")
        if body["matches"]["recent"]:
            break
        time.sleep(0.2)
    recent = body["matches"]["recent"]
    assert [m["table_id"] for m in recent] == [table_id] and recent[0]["rated"]
    assert body["rating"]["history"] == [{"at": recent[0]["finished_at"], "value": body["rating"]["value"]}]
    assert body["matches"]["rated"]["played"] == 1
    bots = [p["name"] for p in recent[0]["players"] if p["bot"]]
    assert len(bots) == 2

    def check_pages() -> None:
        open_player_page(page, web_server.base_url, name)
        shown = f"{body['rating']['value']}?"  # provisional after one rated match
        assert page.get_by_test_id("rating-value").inner_text() == shown
        assert page.get_by_test_id("rating-chart").locator("svg circle").count() == 1
        match = page.get_by_test_id("recent-match")
        assert match.count() == 1 and match.get_attribute("data-table") == table_id
        assert "Rated" in match.inner_text() and f"→ {body['rating']['value']}" in match.inner_text()
        assert page.get_by_test_id("count-rated").inner_text().split()[-2:] == [
            "1", str(body["matches"]["rated"]["won"])
        ]
        assert match.get_by_test_id("replay-link").get_attribute("href") == f"/matches.html?t={table_id}"
        page.get_by_test_id("nav-leaderboard").click()
        page.wait_for_url("**/leaderboard.html")  # else the old page may answer the wait below
        page.wait_for_function("document.querySelector('[data-testid=leaderboard]').dataset.loaded === '1'")
        names = [r.locator("a").first.inner_text() for r in page.get_by_test_id("leaderboard-row").all()]
        assert name in names and all(bot in names for bot in bots)
        mine = page.get_by_test_id("leaderboard-row").filter(has_text=name)
        assert shown in mine.inner_text()
        rank = mine.locator("td").first.inner_text()
        assert page.get_by_test_id("leaderboard-me").inner_text().startswith(f"Your rank: {rank}.")

    check_pages()
    open_player_page(page, web_server.base_url, name)
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_SCREENSHOTS / "player-page.png"), full_page=True)

    # log out and back in: the same rating, match and rank
    page.goto(web_server.base_url + "/account.html")
    page.get_by_test_id("logout").click()
    page.get_by_test_id("login-form").wait_for(state="visible")
    page.goto(web_server.base_url + "/leaderboard.html")
    page.wait_for_function("document.querySelector('[data-testid=leaderboard]').dataset.loaded === '1'")
    assert page.get_by_test_id("leaderboard-me").is_hidden()  # no session: no "me"
    page.goto(web_server.base_url + "/account.html")
    login = page.get_by_test_id("login-form")
    login.locator("input[name=name]").fill(name.upper())
    login.locator("input[name=password]").fill(PASSWORD)
    page.get_by_test_id("login").click()
    page.get_by_test_id("my-page-link").wait_for(state="visible")
    page.get_by_test_id("my-page-link").click()
    page.wait_for_url("**/@/*")
    check_pages()
    assert page.js_errors == []
