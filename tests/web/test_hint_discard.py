"""The learner's hint for a bid from the talon names the two cards to lay away, in words, in both languages."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import SCREENSHOTS
from tests.web.driver import sign_in

# seed 3: the first dealer drawn from it is seat 2, so the learner in seat 0 opens holding 12 cards
CREATE_JS = """async () => {
  const post = (path, body) => fetch(path, {method: 'POST', headers: {'content-type': 'application/json'},
                                            body: JSON.stringify(body)}).then((r) => r.json());
  const seats = [{kind: 'me'}, {kind: 'bot', level: 'random'}, {kind: 'bot', level: 'random'}];
  const table = await post('/api/tables', {deals: 6, learner: true, seed: 3, seats});
  await post(`/api/tables/${table.table_id}/start`, {});
  return table.table_id;
}"""


def test_the_bid_hint_names_the_two_cards_to_lay_away(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Talon Learner")
    table_id = page.evaluate(CREATE_JS)
    page.goto(f"{web_server.base_url}/table.html?t={table_id}")
    page.wait_for_selector("[data-testid=table][data-my-turn='1'][data-must-discard='1']")
    page.get_by_test_id("hint-button").click()
    discard = page.get_by_test_id("hint-discard")
    discard.wait_for(timeout=30_000)
    text = discard.inner_text()
    assert text.startswith("Lay away ") and " and " in text
    # both cards are named as the hand's cards are labelled, and both are in the hand
    labels = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.getAttribute('aria-label'))")
    named = [label for label in labels if label and label.split(" ", 1)[1] in text]
    assert len(named) >= 2, (text, labels)
    page.screenshot(path=str(SCREENSHOTS / "hint_discard_desktop.png"))
    page.get_by_test_id("lang-toggle").click()
    assert page.get_by_test_id("hint-discard").inner_text().startswith("Tedd le: ")
    assert page.js_errors == []
