"""(issue 37, item 4) The ladder of bot levels offered to people: the lobby's seats, its event form, the waiting
room and Play now show the offered levels with their measured ratings, in rating order, and no ``strong``; a
newcomer's bots are of the lowest rung."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.driver import create_table, more_options, sign_in
from ulti.bots.ladder_ratings import OFFERED_LEVELS, RATINGS

#: the values and labels of a select's options
OPTIONS_JS = "(s) => [...s.options].map((o) => [o.value, o.textContent.trim(), o.title])"
#: the table's view for the page's player, read through the page's own session
TABLE_VIEW_JS = "() => fetch('/api/tables/' + new URL(location.href).searchParams.get('t')).then((r) => r.json())"

#: the offered levels with their measured ratings, lowest first (the shipped ratings file)
LADDER = [(level, RATINGS.levels[level].rating) for level in OFFERED_LEVELS]
NAMES = {"en": {"beginner": "Beginner bot", "casual": "Casual bot", "club": "Club bot", "expert": "Expert bot"},
         "hu": {"beginner": "Kezdő gép", "casual": "Hobbi gép", "club": "Klub gép", "expert": "Mester gép"}}


def options(page: Any, testid: str) -> list[list[str]]:
    """``[value, label, title]`` of each option of the select ``testid``, once the offer has filled it."""
    page.wait_for_function(
        f"() => [...document.querySelector('[data-testid=\"{testid}\"]').options].some((o) => o.value.includes('club'))"
    )
    found: list[list[str]] = page.eval_on_selector(f"[data-testid='{testid}']", OPTIONS_JS)
    return found


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_lobby_offers_the_ladder_with_ratings_in_order_and_no_strong(
    web_server: Any, new_page: Any, lang: str
) -> None:
    page = new_page(lang=lang)
    sign_in(page, web_server.base_url, f"Lili {lang}")
    more_options(page)
    seat = options(page, "seat-kind-1")
    people = ["me", "open", "invite"]
    assert [value for value, _, _ in seat] == people + [f"bot.{level}" for level, _ in LADDER]
    assert [label for _, label, _ in seat[3:]] == [f"{NAMES[lang][level]} · {rating}" for level, rating in LADDER]
    assert all(title for _, _, title in seat[3:])  # each level is described
    # a newcomer's bot seats default to the lowest rung
    assert page.get_by_test_id("seat-kind-1").input_value() == "bot.beginner"
    assert page.get_by_test_id("seat-kind-2").input_value() == "bot.beginner"
    # the duplicate event's bots: the same ladder
    event = options(page, "event-level")
    assert [value for value, _, _ in event] == [level for level, _ in LADDER]
    assert page.get_by_test_id("event-level").input_value() == "beginner"
    for values in (seat, event):
        assert not any(v.endswith(("strong", "heuristic", "random")) for v, _, _ in values)
    assert page.js_errors == []


def test_the_waiting_room_and_the_tournament_form_offer_the_ladder_and_fill_by_rating(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Teri")
    create_table(page, ("me", "open", "open"), start_now=False)
    page.get_by_test_id("start-match").wait_for()
    room = options(page, "bot-level-1")
    assert [value for value, _, _ in room] == [level for level, _ in LADDER]
    assert room[OFFERED_LEVELS.index("club")][1] == f"Club bot · {RATINGS.levels['club'].rating}"
    # "fill with bots" seats the level recommended for the host: a newcomer's, the lowest rung
    page.get_by_test_id("start-match").click()
    page.wait_for_selector("#hand button.card", timeout=30_000)
    seats = page.evaluate(TABLE_VIEW_JS)["table"]["seats"]
    assert [(s["kind"], s.get("level")) for s in seats[1:]] == [("bot", "beginner"), ("bot", "beginner")]
    page.goto(web_server.base_url + "/tournament.html")
    assert [value for value, _, _ in options(page, "t-level")] == [level for level, _ in LADDER]
    assert page.js_errors == []


def test_play_now_seats_a_newcomer_with_two_beginner_bots_named_in_the_page_language(
    web_server: Any, new_page: Any
) -> None:
    page = new_page(lang="hu")
    page.goto(web_server.base_url + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url("**/table.html?t=*")
    page.wait_for_selector("#hand button.card", timeout=30_000)
    seats = page.evaluate(TABLE_VIEW_JS)["table"]["seats"]
    assert [(s["kind"], s.get("level")) for s in seats[1:]] == [("bot", "beginner"), ("bot", "beginner")]
    assert [s["name"] for s in seats[1:]] == ["Bot · beginner", "Bot · beginner 2"]
    # the page names them in Hungarian
    names = page.locator("[data-testid^=seat-name]").all_inner_texts() or page.locator(".seat-name").all_inner_texts()
    assert any("Gép · kezdő" in name for name in names), names
    assert page.js_errors == []
