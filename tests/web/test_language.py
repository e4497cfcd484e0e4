"""(d) The Hungarian UI shows the Hungarian names of bids, phases, suits and ranks; the choice is remembered."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, SCREENSHOTS
from tests.web.driver import create_table, more_options, sign_in


def test_hungarian_names(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE, lang="hu")
    sign_in(page, web_server.base_url, "Dóra")
    assert page.get_by_test_id("nav-rules").inner_text() == "Szabályok"
    more_options(page)
    assert page.get_by_test_id("create-table").inner_text() == "Asztal nyitása"
    create_table(page, ("me", "bot.heuristic", "bot.heuristic"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    assert page.get_by_test_id("phase").inner_text() == "Licit"
    assert page.get_by_test_id("bid-H-S").inner_text().startswith("Piros passz")
    assert page.get_by_test_id("bid-M-40").inner_text().startswith("Negyven-száz")
    assert page.get_by_test_id("bid-N-HB").inner_text().startswith("Rebetli")
    labels = " ".join(
        page.locator("#hand button.card").nth(i).get_attribute("aria-label") or ""
        for i in range(page.locator("#hand button.card").count())
    )
    assert any(s in labels for s in ("makk", "zöld", "tök", "piros"))
    assert any(r in labels for r in ("ász", "király", "felső", "alsó", "tízes", "kilences", "nyolcas", "hetes"))
    page.screenshot(path=str(SCREENSHOTS / "auction_hungarian_phone.png"), full_page=True)

    # Switch to English and back: the text follows, and the choice survives a reload.
    page.get_by_test_id("lang-toggle").click()
    assert page.get_by_test_id("phase").inner_text() == "Auction"
    assert page.get_by_test_id("bid-H-S").inner_text().startswith("Hearts simple game")
    page.get_by_test_id("lang-toggle").click()

    # A lost connection shows a banner and resumes by itself (reconnect, open_table, sync).
    page.evaluate("() => window.__ultiSocket.drop()")
    page.get_by_test_id("conn-banner").wait_for(state="visible")
    assert "kapcsolat" in page.get_by_test_id("conn-banner").inner_text()
    page.wait_for_selector("[data-testid=table][data-connected='1'][data-my-turn='1']")
    page.get_by_test_id("conn-banner").wait_for(state="hidden")

    # A refresh restores the table: the URL holds the table id, the cookie the session.
    page.reload()
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    assert page.get_by_test_id("phase").inner_text() == "Licit"
    assert page.js_errors == []


def test_rules_page_in_both_languages(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE, lang="hu")
    page.goto(web_server.base_url + "/rules.html")
    assert page.get_by_test_id("rules-hu").is_visible()
    assert not page.get_by_test_id("rules-en").is_visible()
    page.wait_for_selector("[data-testid=rules-hu] [data-bid-list] tr >> nth=38")  # header + 38 bids
    assert "Piros passz" in page.get_by_test_id("rules-hu").inner_text()
    page.get_by_test_id("lang-toggle").click()
    assert page.get_by_test_id("rules-en").is_visible()
    assert "What this site chooses or simplifies" in page.get_by_test_id("rules-en").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.screenshot(path=str(SCREENSHOTS / "rules_phone.png"))
    assert page.js_errors == []
