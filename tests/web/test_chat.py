"""Table chat (free text between deals, preset phrases during a deal), lobby chat, refusal wording."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import create_table, sign_in


def test_table_chat_free_text_before_the_match_and_phrases_during_a_deal(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Gizi")
    create_table(page, ("me", "bot.heuristic", "bot.random"), start_now=False)
    page.get_by_test_id("waiting-room").wait_for()
    panel = page.get_by_test_id("chat-panel")
    panel.wait_for()

    # Before the match: free text is offered and the line comes back from the server.
    page.get_by_test_id("chat-input").fill("Hi all, ready?")
    page.get_by_test_id("chat-send").click()
    panel.get_by_test_id("chat-line").filter(has_text="Hi all, ready?").wait_for()
    assert "Gizi" in panel.get_by_test_id("chat-line").first.inner_text()
    assert page.get_by_test_id("chat-input").input_value() == ""

    # A refused chat shows the server's message (maxlength is only a hint to the browser).
    page.get_by_test_id("chat-input").evaluate("(el) => { el.value = 'x'.repeat(301); }")
    page.get_by_test_id("chat-send").click()
    page.wait_for_function("() => document.querySelector('[data-testid=chat-error]').textContent.includes('300')")

    # During a deal: no free-text box, but the preset phrases are there and are sent by a click.
    page.get_by_test_id("start-match").click()
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    assert page.get_by_test_id("chat-input").count() == 0
    assert page.get_by_test_id("chat-closed").is_visible()
    page.get_by_test_id("chat-phrase-good_luck").click()
    panel.get_by_test_id("chat-line").filter(has_text="Good luck!").wait_for()
    assert page.get_by_test_id("chat-error").inner_text() == ""
    assert page.get_by_test_id("table").get_attribute("data-sent") == "0"  # chat is not a game action
    assert page.js_errors == []


def test_lobby_chat_between_two_watchers(web_server: Any, new_page: Any) -> None:
    anna, bela = new_page(DESKTOP), new_page(PHONE)
    sign_in(anna, web_server.base_url, "Anna L")
    sign_in(bela, web_server.base_url, "Béla L")
    anna.get_by_test_id("lobby-chat-input").fill("Anyone for a 6-deal match?")
    anna.get_by_test_id("lobby-chat-send").click()
    line = bela.get_by_test_id("lobby-chat-line").filter(has_text="Anyone for a 6-deal match?")
    line.wait_for()
    assert "Anna L" in line.inner_text()
    anna.get_by_test_id("lobby-chat-line").filter(has_text="Anyone for a 6-deal match?").wait_for()

    # A newcomer gets the recent lines with the first `lobby` message.
    bela.reload()
    bela.get_by_test_id("lobby-chat-line").filter(has_text="Anyone for a 6-deal match?").wait_for()
    assert anna.js_errors == [] and bela.js_errors == []


def test_hungarian_refusal_text_follows_refused_rules(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="hu")
    page.goto(web_server.base_url + "/rules.html")
    got = page.evaluate(
        """async () => {
          const m = await import('/js/i18n.js');
          const card = (x) => `[${x}]`;
          return [
            m.refusalText('follow', {suit: 'H'}, 'you must follow suit (hearts)', {card}),
            m.refusalText('beat', {card: 'KS'}, 'you must beat the ♠K', {card}),
            m.refusalText('overtrump', {card: 'TH'}, 'you must overtrump the ♥10', {card}),
            m.refusalText('trump', {}, 'you must play a trump', {card}),
            m.refusalText('ulti_seven', {}, 'the trump 7 stays until the last trick', {card}),
            m.refusalText('beat', {card: 'KS'}, 'you must beat the ♠K'),
            m.refusalText('a_newer_rule', {}, 'worded by a newer server'),
            m.refusalText('beat', undefined, 'you must beat the ♠K'),
            m.chatText({phrase: 'good_luck'}),
            m.chatText({text: 'Good luck!'}),
          ];
        }"""
    )
    assert got == [
        "színre kell adni (piros)",
        "felül kell ütni ezt: [KS]",
        "adúval felül kell ütni ezt: [TH]",
        "adut kell adni",
        "az adu hetes az utolsó ütésig marad",
        "felül kell ütni ezt: ♠K",
        "worded by a newer server",  # an unknown rule shows the server's words
        "you must beat the ♠K",  # so does a rule without its values
        "Sok szerencsét!",
        "Good luck!",  # free text is never translated (the server turns old phrases into keys)
    ]
    assert page.js_errors == []
