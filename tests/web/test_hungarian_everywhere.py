"""Hungarian all the way (issue 35, item 6): in Hungarian with the Hungarian pack every page is walked (the
lobby, a duplicate event, a waiting room, the table from the auction to the result and the score sheet, on
a desktop and a phone, past matches with a replay and its analysis, the leaderboard, the account page as a
guest and as a member, the player page, the rules) and each fails on English left in its text (a text that
only the English dictionary has, or an English word), and every page but the rules (which shows the French
pack beside the Hungarian one) on a French suit glyph. Visible text nodes, titles, labels and placeholders
all count.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import create_table, play_until

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Every visible text of the page: its title, its text nodes, and the titles, labels and placeholders of
# visible elements.
TEXTS_JS = """() => { const out = [document.title];
  const shown = (el) => !!el && el.getClientRects().length > 0 && !el.closest('script, style, template');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim(); if (s && shown(n.parentElement)) out.push(s);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (!shown(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = el.getAttribute(a); if (v && v.trim()) out.push(v.trim());
    }
  }
  return out; }"""

# The English dictionary's texts that Hungarian says otherwise (templates without their {values} only).
EN_ONLY_JS = """async () => { const {en} = await import('/js/i18n/en.js'); const {hu} = await import('/js/i18n/hu.js');
  return Object.keys(en).filter((k) => en[k] !== hu[k] && !en[k].includes('{')).map((k) => en[k].trim()); }"""

# Words no Hungarian text holds; whole words, as written in the English dictionary.
ENGLISH = re.compile(
    r"\b(the|and|your|you|with|deal|deals|table|seat|player|players|password|account|tricks?|cards|wins|won|lost|"
    r"waiting|next|score|sheet|result|open|play|contract|trumps|spades|clubs|diamonds|hearts|leaves|acorns|bells|"
    r"matches|rules|lobby|leaderboard|analysis|replay|back|close|name|logged|guest|delete|change|create|tokens?|"
    r"revoke|never|declarer|defenders?|points|silent|random|heuristic|strong|expert|Bot|Log|Register|Round)\b"
)
GLYPHS = re.compile("[♠♣♦♥]")
# Texts that are right in Hungarian too: the switch to English names English; the site's name.
ALLOWED = {"English", "Ulti online"}
SITE = "Ulti online – "  # the page's title: the site's name, then the page's


def english_left(page: Any, en_only: set[str], where: str, glyphs: bool = True) -> None:
    """Fail on any visible text of the page that is English (or, with `glyphs`, holds a French suit glyph)."""
    texts: list[str] = page.evaluate(TEXTS_JS)
    assert len(texts) > 10, (where, texts)  # the page has been drawn
    bad = []
    for text in texts:
        if text in ALLOWED:
            continue
        text = text.removeprefix(SITE)
        # the token scopes are names of the bot API (docs/bot-api.md), the same in every language
        words = text.replace("bot:play", "").replace("table:read", "")
        english = text in en_only or ENGLISH.search(words) is not None
        if english or (glyphs and GLYPHS.search(text) is not None):
            bad.append(text)
    if bad:
        page.screenshot(path=str(SCREENSHOTS / f"english_left_{where}.png"), full_page=True)
    assert bad == [], (where, bad[:20])


def test_every_page_is_hungarian_with_the_hungarian_pack(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="hu")
    page.add_init_script("try { localStorage.setItem('ulti.pack', 'hungarian'); } catch (e) {}")
    base = web_server.base_url
    page.goto(base + "/")
    en_only = set(page.evaluate(EN_ONLY_JS))
    assert "Next deal" in en_only and "Log out" in en_only  # the list is the dictionary's, not empty
    page.get_by_test_id("name-input").fill("Dorottya")
    page.get_by_test_id("name-submit").click()
    page.get_by_test_id("create-table").wait_for()
    english_left(page, en_only, "lobby")

    # a duplicate event's page, before it starts
    page.get_by_test_id("event-tables").fill("2")
    page.get_by_test_id("create-event").click()
    page.wait_for_url("**/event.html?e=*")
    page.get_by_test_id("join-table-1").wait_for()
    english_left(page, en_only, "event")
    page.goto(base + "/")
    page.get_by_test_id("create-table").wait_for()

    # a waiting room with a free seat (the bots' levels offered for it)
    create_table(page, ("me", "open", "open"), start_now=False)
    page.get_by_test_id("bot-level-1").wait_for()
    english_left(page, en_only, "waiting_room")
    page.goto(base + "/")
    page.get_by_test_id("create-table").wait_for()

    # the table: the auction, the play (trumps named), the result, the score sheet
    create_table(page, ("me", "bot.random", "bot.random"))
    page.get_by_test_id("hand").locator("button.card").first.wait_for()
    assert page.evaluate("() => document.documentElement.dataset.pack") == "hungarian"
    english_left(page, en_only, "auction")
    rng = random.Random(8)
    play_until(page, rng, lambda s: s["phase"] == "play", timeout=60)
    english_left(page, en_only, "play")
    play_until(page, rng, lambda s: s["nextDeal"], timeout=90)
    english_left(page, en_only, "result")
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(DOCS_SCREENSHOTS / "result_desktop_hu.png"))
    page.set_viewport_size(PHONE)  # the same result on a phone: in the dock, in Hungarian too
    page.locator("#dock [data-testid=res-glance]").wait_for()
    english_left(page, en_only, "result_phone")
    page.screenshot(path=str(DOCS_SCREENSHOTS / "result_phone_hu.png"))
    page.set_viewport_size(DESKTOP)
    page.get_by_test_id("sheet-btn").first.click()
    page.get_by_test_id("sheet-table").wait_for()
    english_left(page, en_only, "sheet")
    page.get_by_test_id("sheet-close").click()

    # past matches: the replay of the deal, with its analysis
    page.get_by_test_id("analysis-link").click()
    page.wait_for_url("**/matches.html?t=*")
    page.locator("[data-testid=an-graph], [data-testid=an-graph-none]").first.wait_for(timeout=90_000)
    english_left(page, en_only, "replay")
    for _ in range(60):
        if page.get_by_test_id("whatif-open").count():
            break
        page.get_by_test_id("replay-next").click()
    english_left(page, en_only, "replay_play")
    if page.get_by_test_id("an-graph").count():
        page.get_by_test_id("an-panel").screenshot(path=str(DOCS_SCREENSHOTS / "analysis_graph_desktop_hu.png"))
        page.set_viewport_size(PHONE)
        page.reload()  # the graph is drawn for the screen it is on
        page.get_by_test_id("an-graph").wait_for(timeout=60_000)
        english_left(page, en_only, "replay_phone")
        page.get_by_test_id("an-panel").screenshot(path=str(DOCS_SCREENSHOTS / "analysis_graph_phone_hu.png"))
        page.set_viewport_size(DESKTOP)
    page.goto(base + "/matches.html")
    page.locator("[data-testid=match-list] li").first.wait_for()
    english_left(page, en_only, "matches")

    # the leaderboard, the account page as a guest, then as a member, and the player page
    page.goto(base + "/leaderboard.html")
    page.wait_for_load_state("networkidle")
    english_left(page, en_only, "leaderboard")
    page.goto(base + "/account.html")
    page.get_by_test_id("register-form").wait_for()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.length > 0")
    english_left(page, en_only, "account_guest")
    form = page.get_by_test_id("register-form")
    form.locator("input[name=name]").fill("Dorottya")
    form.locator("input[name=password]").fill("titkos-jelszo-123")
    page.get_by_test_id("register").click()
    page.get_by_test_id("logout").wait_for()
    page.get_by_test_id("token-form").locator("input[name=name]").fill("gepem")
    page.get_by_test_id("create-token").click()
    page.get_by_test_id("token-list").locator("li").first.wait_for()
    english_left(page, en_only, "account_member")
    page.goto(base + "/@/Dorottya")
    page.wait_for_load_state("networkidle")
    english_left(page, en_only, "player")

    # the rules in Hungarian describe both packs (the French one by its glyphs)
    page.goto(base + "/rules.html")
    rules = page.get_by_test_id("rules-hu").inner_text()
    assert "magyar kártya" in rules and "francia kártya" in rules
    english_left(page, en_only, "rules", glyphs=False)
    assert page.js_errors == []


def test_suit_words_and_card_texts_follow_the_pack(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="en")
    page.goto(web_server.base_url + "/rules.html")
    words = page.evaluate("""async () => { const i = await import('/js/i18n.js'); const p = await import('/js/pack.js');
      const c = await import('/js/cards.js'); const out = {};
      for (const pk of ['french', 'hungarian']) { p.setPack(pk);
        out[pk] = [i.suitText('S'), i.cardText('QS'), i.cardText('TH'), c.cardLabel('JS')]; i.setLang('hu');
        out[pk + '-hu'] = [i.suitText('S'), i.cardText('QS'), i.cardText('AC'), c.cardLabel('JS')]; i.setLang('en'); }
      p.setPack('french'); return out; }""")
    assert words == {
        "french": ["♠ spades", "♠Q", "♥10", "♠J jack (under) of spades"],
        "french-hu": ["♠ zöld", "♠F", "♣Ász", "♠A zöld alsó"],
        "hungarian": ["leaves", "leaves O", "hearts 10", "under of leaves"],
        "hungarian-hu": ["zöld", "zöld F", "makk Ász", "zöld alsó"],
    }
    assert page.js_errors == []
