"""The settings panel of every page's header: sound, theme, card size and the pause after a trick, each
applied at once and remembered in this browser (localStorage ``ulti.*``) across pages and visits."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, SCREENSHOTS
from tests.web.driver import create_table, sign_in
from tests.web.test_replay import finish_first_deal, in_thread

STORED = (
    "() => Object.fromEntries(['sound', 'theme', 'cardSize', 'trickPause']"
    ".map((k) => [k, localStorage.getItem('ulti.' + k)]))"
)
BODY_BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"


def luminance(rgb: str) -> float:
    """The mean of the red, green and blue values of a CSS ``rgb(...)`` colour (0 to 255)."""
    parts = [float(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    return sum(parts) / 3


def choose(page: Any, name: str, value: str) -> None:
    page.get_by_test_id(f"settings-{name}-{value}").check()


def test_settings_are_applied_at_once_and_remembered_across_pages_and_visits(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Setter")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert luminance(page.evaluate(BODY_BACKGROUND)) > 200
    page.get_by_test_id("settings-toggle").click()
    page.get_by_test_id("settings-dialog").wait_for(state="visible")
    # the defaults are shown checked
    for name, value in (("sound", "on"), ("theme", "system"), ("cardSize", "normal"), ("trickPause", "normal")):
        assert page.get_by_test_id(f"settings-{name}-{value}").is_checked()
    choose(page, "theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert luminance(page.evaluate(BODY_BACKGROUND)) < 40
    choose(page, "sound", "off")
    choose(page, "cardSize", "large")
    choose(page, "trickPause", "slow")
    assert page.evaluate(STORED) == {"sound": "off", "theme": "dark", "cardSize": "large", "trickPause": "slow"}
    page.screenshot(path=str(SCREENSHOTS / "settings_dark_desktop.png"))
    page.get_by_test_id("settings-close").click()

    # another page and a later visit: the same settings in force and shown
    page.goto(web_server.base_url + "/rules.html")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("document.documentElement.dataset.cardSize") == "large"
    page.screenshot(path=str(SCREENSHOTS / "rules_dark_desktop.png"))
    page.reload()
    page.get_by_test_id("settings-toggle").click()
    assert page.get_by_test_id("settings-theme-dark").is_checked()
    assert page.get_by_test_id("settings-trickPause-slow").is_checked()
    assert page.get_by_test_id("settings-sound-off").is_checked()

    # "follow the system" takes the system's scheme, and follows it as it changes
    choose(page, "theme", "system")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    page.emulate_media(color_scheme="light")
    page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    assert page.evaluate("localStorage.getItem('ulti.theme')") == "system"
    assert page.js_errors == []


def test_the_card_size_setting_sizes_the_hand_and_the_trick(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Sizer")
    create_table(page, ("me", "bot.random", "bot.random"))
    page.wait_for_selector("#hand button.card svg")
    width = "() => document.querySelector('#hand button.card svg').getBoundingClientRect().width"
    normal = page.evaluate(width)
    page.get_by_test_id("settings-toggle").click()
    choose(page, "cardSize", "large")
    large = page.evaluate(width)
    choose(page, "cardSize", "small")
    small = page.evaluate(width)
    assert large > normal * 1.15 and small < normal * 0.9, (small, normal, large)
    choose(page, "theme", "dark")
    choose(page, "cardSize", "large")
    page.get_by_test_id("settings-close").click()
    page.screenshot(path=str(SCREENSHOTS / "table_dark_large_desktop.png"))
    page.get_by_test_id("settings-toggle").click()
    choose(page, "cardSize", "small")
    page.get_by_test_id("settings-close").click()
    page.reload()
    page.wait_for_selector("#hand button.card svg")
    assert abs(page.evaluate(width) - small) < 1  # remembered
    assert page.js_errors == []


def test_the_settings_panel_speaks_hungarian_on_a_phone(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE, lang="hu")
    page.goto(web_server.base_url + "/rules.html")
    page.get_by_test_id("settings-toggle").click()
    dialog = page.get_by_test_id("settings-dialog")
    assert "Beállítások" in dialog.inner_text()
    assert "Kártyaméret" in dialog.inner_text() and "Szünet ütés után" in dialog.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.screenshot(path=str(SCREENSHOTS / "settings_hungarian_phone.png"))
    assert page.js_errors == []


def test_the_card_size_setting_sizes_the_replays_cards(web_server: Any, new_page: Any) -> None:
    table_id = in_thread(finish_first_deal(web_server.base_url))
    page = new_page()
    sign_in(page, web_server.base_url, "Replayer")
    page.goto(f"{web_server.base_url}/matches.html?t={table_id}&k=0")
    page.get_by_test_id("replay-step").wait_for()
    width = "() => document.querySelector('.replay-hand .mini-card').getBoundingClientRect().width"
    normal = page.evaluate(width)
    page.get_by_test_id("settings-toggle").click()
    choose(page, "cardSize", "large")
    assert page.evaluate(width) > normal * 1.1
    choose(page, "cardSize", "small")
    assert page.evaluate(width) < normal * 0.95
    assert page.js_errors == []
