"""(issue 35, item 10) A bot account is seated from the waiting room with a click, beside the built-in levels."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from tests.web.conftest import SCREENSHOTS
from tests.web.driver import create_table
from tests.web.test_player_page import register_on_page
from ulti.bots.ladder_ratings import OFFERED_LEVELS


def post(base_url: str, path: str, body: dict[str, Any], token: str = "") -> Any:
    """POST JSON as another client (not through the page)."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base_url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def bot_account(base_url: str, name: str) -> str:
    """Register ``name``, make it a bot account, and return its API token."""
    session = post(base_url, "/api/account/register", {"name": name, "password": "correct horse"})["token"]
    token: str = post(base_url, "/api/account/tokens", {"name": "bot", "scopes": ["bot:play", "table:read"]},
                      session)["token"]
    post(base_url, "/api/bot/account/upgrade", {}, token)
    return token


def test_a_bot_account_is_seated_from_the_waiting_room(web_server: Any, new_page: Any, tmp_path: Path) -> None:
    base = web_server.base_url
    own_token = bot_account(base, "Web Robo")
    public_token = bot_account(base, "Everyones Robo")
    post(base, "/api/bot/account/challenges", {"accept": True}, public_token)
    page = new_page()
    register_on_page(page, base, "Hilda Host")
    # on the account page the host shows "Web Robo" is theirs with one of its tokens; a wrong one is refused
    page.get_by_test_id("claim-bot-token").fill("ulti_" + "x" * 43)
    page.get_by_test_id("claim-bot").click()
    page.wait_for_function("() => document.querySelector('[data-testid=claim-bot-error]').innerText.length > 0")
    page.get_by_test_id("claim-bot-token").fill(own_token)
    page.get_by_test_id("claim-bot").click()
    page.get_by_test_id("my-bot").wait_for()
    assert page.get_by_test_id("my-bot").inner_text() == "Web Robo [BOT]"
    assert page.get_by_test_id("claim-bot-error").inner_text() == ""
    # the bot's program runs: `ulti bot` answers invitations on its event stream
    log = (tmp_path / "bot.log").open("w")
    bot = subprocess.Popen([sys.executable, "-m", "ulti.cli", "bot", "--server", base, "--token", own_token,
                            "--level", "random"], stdout=log, stderr=subprocess.STDOUT)
    try:
        page.goto(base + "/")
        create_table(page, ("me", "open", "open"), start_now=False)
        page.get_by_test_id("start-match").wait_for()
        # the seat's choice lists the ladder with its ratings, the host's own bot, and the bots accepting challenges
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=bot-level-1] option')]"
            ".some((o) => o.value === 'acct:Web Robo')"
        )
        groups = page.eval_on_selector_all(
            "[data-testid=bot-level-1] optgroup",
            "gs => gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)])")
        assert groups[0][1] == list(OFFERED_LEVELS)
        assert groups[1] == ["Your bot accounts", ["acct:Web Robo"]]
        assert groups[2] == ["Bots that accept challenges", ["acct:Everyones Robo"]]
        page.screenshot(path=str(SCREENSHOTS / "waiting_room_own_bot.png"))
        page.get_by_test_id("bot-level-1").select_option("acct:Web Robo")
        page.get_by_test_id("add-bot-1").click()
        # the bot sits down itself (its program accepts the invitation), marked BOT
        page.wait_for_function(
            "() => (document.querySelector('[data-testid=wait-seat-1]')?.innerText || '').includes('Web Robo')",
            timeout=20_000,
        )
        # and plays: the match starts with a built-in bot in the last seat
        page.get_by_test_id("start-match").click()
        page.wait_for_selector("#hand button.card", timeout=20_000)
        assert page.js_errors == []
    finally:
        bot.terminate()
        bot.wait(10)
        log.close()
