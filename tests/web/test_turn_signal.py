"""What the table tells a player who looks elsewhere: the tab's title and icon on their turn, and the sounds
of a turn, a card, a trick and a deal's end (Web Audio, never before a gesture, silent when switched off).

The sounds cannot be heard in a test: an init script counts the oscillators the page starts (Web Audio's
own ``OscillatorNode.start``), beside the page's own count of cues (``window.__ultiSound``)."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import SCREENSHOTS
from tests.web.driver import act_randomly, create_table, play_until, sign_in, snapshot

COUNT_OSCILLATORS = """
window.__oscillators = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__oscillators += 1; return start.apply(this, args); };
"""
ICON = "() => document.querySelector('link[rel=icon]').getAttribute('href')"


def sounds(page: Any) -> dict[str, Any]:
    counted: dict[str, Any] = page.evaluate("() => ({...window.__ultiSound, oscillators: window.__oscillators})")
    return counted


def test_the_tab_title_and_icon_show_the_players_turn(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Titled")
    create_table(page, ("me", "bot.heuristic", "bot.heuristic"))
    own_title = "Ulti online – Table"
    rng = random.Random(3)
    seen_mine = seen_theirs = False
    for _ in range(400):
        snap = snapshot(page)
        if snap["phase"] == "done":
            break
        if snap["myTurn"] == "1":
            page.wait_for_function("document.title.startsWith('● Your turn')")
            assert page.title() == "● Your turn — Ulti"
            page.wait_for_function(f"({ICON})().startsWith('data:image/svg+xml')")
            seen_mine = True
            act_randomly(page, rng, snap=snap)
        elif snap["phase"] in ("auction", "play", "trump"):
            # title and icon read in one go: the turn may come back between two separate reads
            title, icon = page.evaluate(f"() => [document.title, ({ICON})()]")
            if title == own_title:
                assert icon == "/favicon.svg"
                seen_theirs = True
        page.wait_for_timeout(20)
        if seen_mine and seen_theirs:
            break
    assert seen_mine and seen_theirs
    assert page.js_errors == []


RECORD_TITLES = """
window.__titles = [];
document.addEventListener("DOMContentLoaded", () => {
  const note = () => { if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title); };
  note();
  const watched = { childList: true, characterData: true, subtree: true };
  new MutationObserver(note).observe(document.querySelector("title"), watched);
});
"""


def test_the_title_is_restored_when_the_turn_passes(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.context.add_init_script(RECORD_TITLES)
    sign_in(page, web_server.base_url, "Passer")
    create_table(page, ("me", "bot.random", "bot.random"))
    play_until(page, random.Random(1), lambda s: s["phase"] == "done")
    titles = page.evaluate("window.__titles")
    mine = "● Your turn — Ulti"
    # each of the seat's turns marks the tab, and each move gives it its own title back
    assert titles[0] == "Ulti online – Table" and mine in titles
    turns = [i for i, title in enumerate(titles) if title == mine]
    assert all(titles[i + 1] == "Ulti online – Table" for i in turns if i + 1 < len(titles))
    assert turns and turns[-1] + 1 < len(titles)  # the last turn, too, gave the title back
    assert page.title() == "Ulti online – Table" and page.evaluate(ICON) == "/favicon.svg"
    assert page.js_errors == []


def test_sounds_play_for_turn_card_trick_and_deal_end_only_after_a_gesture(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.context.add_init_script(COUNT_OSCILLATORS)
    sign_in(page, web_server.base_url, "Listener")
    create_table(page, ("me", "bot.random", "bot.random"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    page.wait_for_timeout(300)
    # the table page has not been touched yet: no audio context, no sound (autoplay rules)
    before = sounds(page)
    assert before["contexts"] == 0 and before["total"] == 0 and before["oscillators"] == 0
    rng = random.Random(11)
    # until a deal has been played out (a declarer may give up before any card: the next deal then)
    deadline = time.monotonic() + 120
    while not page.evaluate("window.__ultiSound.played.trick >= 1 && window.__ultiSound.played.deal >= 1"):
        assert time.monotonic() < deadline, sounds(page)
        if not act_randomly(page, rng):
            page.wait_for_timeout(30)
    heard = sounds(page)
    assert heard["contexts"] == 1
    played = heard["played"]
    assert played["card"] >= 3 and played["trick"] >= 1 and played["deal"] >= 1, played
    # a turn after the first click: each later decision of the seat sounded once
    assert played["turn"] >= 1, played
    # every cue is notes on real oscillators, started by Web Audio
    assert heard["oscillators"] >= heard["total"] >= played["card"] + played["trick"] + 1
    assert page.js_errors == []


def test_sound_switched_off_stays_silent(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.context.add_init_script(COUNT_OSCILLATORS)
    sign_in(page, web_server.base_url, "Quiet")
    page.get_by_test_id("settings-toggle").click()
    page.get_by_test_id("settings-sound-off").check()
    page.get_by_test_id("settings-close").click()
    create_table(page, ("me", "bot.random", "bot.random"))
    play_until(page, random.Random(5), lambda s: s["phase"] == "done")
    page.wait_for_timeout(300)
    quiet = sounds(page)
    assert quiet["total"] == 0 and quiet["oscillators"] == 0 and quiet["contexts"] == 0
    page.screenshot(path=str(SCREENSHOTS / "deal_over_no_sound_desktop.png"))
    assert page.js_errors == []
