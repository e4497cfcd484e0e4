"""Card art (UI issue, item 9): the Hungarian pack beside the French one, chosen in the header, drawn as SVG.

Also item 8's index rule: in Hungarian the ace's index never reads like the under's ("Ász" against "A").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import DESKTOP
from tests.web.driver import create_table, sign_in

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Every card of the pack in force, drawn by the page's own cards.js into a sheet on the page.
DRAW_ALL_JS = """async () => {
  const cards = await import('/js/cards.js');
  const { setHTML, html } = await import('/js/html.js');
  const codes = [];
  for (const s of cards.SUITS) for (const r of ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A']) codes.push(r + s);
  let box = document.getElementById('pack-sheet');
  if (!box) {
    box = document.createElement('div');
    box.id = 'pack-sheet';
    box.style.cssText = 'background:#0f6b3a;display:grid;width:1060px;' +
      'grid-template-columns:repeat(8,120px);gap:8px;padding:12px;align-content:start';
    document.body.appendChild(box);
  }
  const one = (c) => html`<div class="sheet-card" data-code="${c}" style="width:120px">${cards.cardSvg(c)}</div>`;
  setHTML(box, html`${codes.map(one)}`);
  return [...box.querySelectorAll('.sheet-card')].map((el) => {
    const svg = el.querySelector('svg');
    return {code: el.dataset.code, pack: svg.dataset.pack, index: svg.querySelector('.idx').textContent,
            icons: svg.querySelectorAll('path, circle').length,
            texts: [...svg.querySelectorAll('text')].map((t) => t.textContent)};
  });
}"""


def _draw_all(page: Any) -> list[dict[str, Any]]:
    drawn: list[dict[str, Any]] = page.evaluate(DRAW_ALL_JS)
    return drawn


def test_hungarian_pack_is_a_setting_and_renders(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP)
    sign_in(page, web_server.base_url, "Kártyás Kata")
    toggle = page.get_by_test_id("pack-toggle")
    assert page.evaluate("() => document.documentElement.dataset.pack") == "french"  # the default
    assert "French" in toggle.inner_text()
    french = _draw_all(page)
    assert len(french) == 32 and {c["pack"] for c in french} == {"french"}
    assert {c["index"] for c in french} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    page.locator("#pack-sheet").screenshot(path=str(SHOTS / "pack_french.png"))

    toggle.click()  # the visible control beside the language switch
    assert "Hungarian" in toggle.inner_text()
    assert page.evaluate("() => localStorage.getItem('ulti.pack')") == "hungarian"
    hungarian = _draw_all(page)
    assert len(hungarian) == 32 and {c["pack"] for c in hungarian} == {"hungarian"}
    # Roman numbers, under and over, king and ace; no suit is written as a French symbol
    assert {c["index"] for c in hungarian} == {"VII", "VIII", "IX", "X", "U", "O", "K", "A"}
    assert not any(sym in " ".join(c["texts"]) for c in hungarian for sym in "♣♠♦♥")
    assert all(c["icons"] >= 2 for c in hungarian)  # the suit is drawn, not written
    page.locator("#pack-sheet").screenshot(path=str(SHOTS / "pack_hungarian.png"))
    icons = page.evaluate("() => [...document.querySelectorAll('#pack-sheet svg.hu')].map((s) => s.classList[2])")
    assert sorted(set(icons)) == ["hu-C", "hu-D", "hu-H", "hu-S"]

    # the setting is remembered: a new page (the table) draws its cards in the Hungarian pack
    create_table(page, ("me", "bot.heuristic", "bot.heuristic"))
    page.wait_for_selector("#hand button.card svg[data-pack=hungarian]")
    assert page.locator("#hand svg[data-pack=french]").count() == 0
    page.get_by_test_id("pack-toggle").click()  # and switched back at the table, the hand is redrawn
    page.wait_for_selector("#hand button.card svg[data-pack=french]")
    assert page.locator("#hand svg[data-pack=hungarian]").count() == 0
    assert page.js_errors == []


def test_hungarian_indices_tell_the_ace_from_the_under(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="hu")
    sign_in(page, web_server.base_url, "Index Ili")
    for pack in ("french", "hungarian"):
        drawn = {c["code"]: c["index"] for c in _draw_all(page)}
        assert drawn["AH"] == "Ász" and drawn["JH"] == "A" and drawn["QH"] == "F" and drawn["KH"] == "K", (pack, drawn)
        assert drawn["AH"] != drawn["JH"]
        page.get_by_test_id("pack-toggle").click()
    short = page.evaluate(
        "async () => { const c = await import('/js/cards.js'); return [c.cardShort('AS'), c.cardShort('JS')]; }"
    )
    assert short == ["♠Ász", "♠A"]
    assert page.js_errors == []
