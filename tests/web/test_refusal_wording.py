"""Every refusal the server can send, worded by the page itself in English and in Hungarian.

The page words a refusal from its code, rule and values only (web/js/i18n.js ``refusalMessage``,
``refusalText``, ``chatText``); the server's English ``message`` is a fallback for codes the page does
not know. Each engine rule is walked with the values a real refusal of it carries (the engine's own
test cases), each server error code with the values it is documented to carry, each refused-card
rule and each chat phrase. Then one real refusal in a real game is shown in Hungarian.
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from tests.engine.test_refusal_codes import CASES
from tests.server.refusal_codes import CLIENT_CODES, ERROR_ARGS, protocol_error_codes, server_error_codes
from tests.web.conftest import DESKTOP
from tests.web.driver import create_table, sign_in
from ulti import native
from ulti.engine.errors import CARD_HINTS, RULES, IllegalAction
from ulti.server.tablestate import PRESET_PHRASES

SAMPLE_VALUES: dict[str, Any] = {"seat": 1, "name": "Anna", "seats": [1, 2], "suit": "C", "card": "KC",
                                 "retry_after": 7, "limit": 4, "max_bytes": 65536, "max_depth": 16,
                                 "tables": ["t1", "t2"], "kind": "whatif", "seconds": 10}

WORD_ALL_JS = """async (samples) => {
  const m = await import('/js/i18n.js');
  const out = {};
  for (const lang of ['en', 'hu']) {
    m.setLang(lang);
    out[lang] = {
      rules: samples.rules.map((r) => m.refusalMessage({code: 'illegal', ...r})),
      errors: samples.errors.map((e) => m.refusalMessage({code: e.code, args: e.args, message: e.message})),
      hints: samples.hints.map((h) => m.refusalText(h.rule, h.args, h.message)),
      phrases: samples.phrases.map((p) => m.chatText({phrase: p})),
    };
  }
  return out;
}"""


def refusal_samples() -> dict[str, list[Any]]:
    """Every rule with a real refusal's values and message; every error code, card rule and phrase."""
    rules = []
    for rule in RULES:
        try:
            CASES[rule][0]()
        except IllegalAction as exc:
            rules.append({"rule": rule, "args": exc.params, "message": exc.message})
        except TypeError:
            # compiled (ULTI_NATIVE=1), an Action refuses a kind that is not a Kind before a deal can see it:
            # the deal's refusal of it, as Deal.apply raises it (the engine's tests run it on the source)
            assert native.active() and rule == "unknown_action", rule
            refused = IllegalAction(rule, **CASES[rule][1])
            rules.append({"rule": rule, "args": refused.params, "message": refused.message})
    assert [r["rule"] for r in rules] == list(RULES)
    codes = sorted(server_error_codes() | protocol_error_codes() | CLIENT_CODES)
    errors = [
        {"code": code, "args": {k: SAMPLE_VALUES[k] for k in ERROR_ARGS.get(code, set())},
         "message": f"server words for {code}"}
        for code in codes
    ]
    hints = [
        {"rule": rule, "args": {name: SAMPLE_VALUES[name] for _, name, _, _ in Formatter().parse(template) if name},
         "message": f"server words for {rule}"}
        for rule, template in CARD_HINTS.items()
    ]
    return {"rules": rules, "errors": errors, "hints": hints, "phrases": list(PRESET_PHRASES)}


def test_every_refusal_code_is_worded_by_the_page_in_both_languages(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="en")
    page.goto(web_server.base_url + "/rules.html")
    samples = refusal_samples()
    worded = page.evaluate(WORD_ALL_JS, samples)
    for kind in ("rules", "errors", "hints"):
        assert len(worded["en"][kind]) == len(worded["hu"][kind]) == len(samples[kind])
        for sample, en, hu in zip(samples[kind], worded["en"][kind], worded["hu"][kind], strict=True):
            label = sample.get("rule") or sample.get("code")
            # worded by the page (never the server's English fallback), every value filled in
            assert en and en != sample["message"] and "{" not in en, (label, en)
            assert hu and hu != sample["message"] and hu != en and "{" not in hu, (label, hu)
    for key, en, hu in zip(samples["phrases"], worded["en"]["phrases"], worded["hu"]["phrases"], strict=True):
        assert en == PRESET_PHRASES[key] and hu not in ("", en, key)

    rules = dict(zip((r["rule"] for r in samples["rules"]), zip(worded["en"]["rules"], worded["hu"]["rules"],
                                                                   strict=True), strict=True))
    # the values are worded too: suit names, card labels (Hungarian court letters), seats, steps, parts
    assert rules["follow"] == ("You must follow suit (spades: ♠8 ♠10 ♠Q).", "Színre kell adni (zöld: ♠8 ♠10 ♠F).")
    assert rules["auction_turn"][1] == "Nem te következel a licitben, hanem 1. hely."
    assert rules["kontra_raise_only"] == (
        "Szubkontra may raise only what the previous step raised: Simple game.",
        "szubkontra: csak azt lehet emelni, amit az előző lépés emelt (Parti).",
    )
    assert rules["play_not_now"][1] == "Most nem lehet lapot kijátszani (Licit)."

    # a code or rule this page does not know shows the server's own words
    unknown = page.evaluate(
        """async () => {
          const m = await import('/js/i18n.js');
          return [m.refusalMessage({code: 'illegal', rule: 'a_new_rule', args: {}, message: 'new words'}),
                  m.refusalMessage({code: 'a_new_code', message: 'newer words'}),
                  m.refusalMessage({code: 'seat_taken', message: 'seat 1 is taken'})];
        }"""
    )
    assert unknown == ["new words", "newer words", "seat 1 is taken"]  # the last: its value is missing
    assert page.js_errors == []


def test_a_real_refusal_in_a_real_game_is_shown_in_hungarian(web_server: Any, new_page: Any) -> None:
    page = new_page(DESKTOP, lang="hu")
    sign_in(page, web_server.base_url, "Réka")
    create_table(page, ("me", "bot.heuristic", "bot.random"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    # the page never sends what its choices do not offer: send a card during the auction through its own
    # command path, as a stale or hand-made command would arrive
    sent = page.evaluate(
        """async () => {
          const m = await import('/js/table.js');
          if (m.S.state.deal.phase !== 'auction') return null;
          const hand = m.S.state.deal.hands[String(m.S.state.you)];
          return m.act({action: 'play', card: hand[0]});
        }"""
    )
    assert sent is True
    toast = page.get_by_test_id("toast")
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=toast]') || {}).textContent === "
        "'Most nem lehet lapot kijátszani (Licit).'"
    )
    assert "error" in (toast.get_attribute("class") or "")
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")  # nothing changed: still this seat's turn
    assert page.js_errors == []
