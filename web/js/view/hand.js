// My hand: the cards as buttons (playable, selectable for the discard, or dimmed with the reason),
// with a roving tabindex and the arrow keys.
import { t, refusalText } from "../i18n.js";
import { cardSvg, cardLabel, cardShort, sortHand } from "../cards.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf } from "./names.js";
import { positions } from "./seats.js";

/** The reason a card is refused now, in the UI language (from its rule code and values), or null. */
export function refusedReason(S, code) {
  const ch = S.state && S.state.deal && S.state.deal.choices;
  const reason = ch && ch.refused && ch.refused[code];
  if (!reason) return null;
  const rule = ch.refused_rules ? ch.refused_rules[code] : undefined;
  const args = ch.refused_args ? ch.refused_args[code] : undefined;
  return refusalText(rule, args, reason, { card: cardShort });
}

/** The words for a click on a card when this seat may not play now: whose turn it is, or why nothing moves. */
export function outOfTurnText(S) {
  const st = S.state;
  const d = st && st.deal;
  if (!d) return t("hint.notyourturn.nobody");
  if (st.you === null) return t("hint.watching");
  if (S.pending) return t("hint.pending");
  if (d.phase === "done") return t("hint.dealover");
  if (d.to_move >= 0 && d.to_move !== st.you) return t("hint.notyourturn", { name: nameOf(S, d.to_move) });
  return t("hint.notyourturn.nobody");
}

/** May this seat click a card now: play one, or choose discards? */
function handActive(S) {
  const ch = S.state.deal.choices;
  if (!ch || S.pending) return false;
  return !!ch.must_discard || !!(ch.cards && ch.cards.length);
}

function myTakeCards(d) {
  for (let i = d.log.length - 1; i >= 0; i--) {
    const e = d.log[i];
    if (e.seat === d.seat && e.action === "take") return e.cards || [];
    if (e.seat === d.seat && e.action === "bid") return [];
  }
  return [];
}

export function renderHand(S, h) {
  const st = S.state;
  const d = st.deal;
  const hand = $("hand");
  const pos = positions(st);
  const cards = d.hands[String(pos.me)] || [];
  const ch = d.choices;
  const sorted = sortHand(cards, d.contract);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  const taken = ch && ch.must_discard ? myTakeCards(d) : [];
  hand.setAttribute("aria-label", st.you === null ? t("table.hand.of", { name: nameOf(S, pos.me) }) : t("table.hand"));
  hand.style.setProperty("--n", String(Math.max(sorted.length, 1)));
  // on a narrow phone a long hand takes two rows, so every card is a whole finger wide
  hand.style.setProperty("--per-row", String(sorted.length > 6 ? Math.ceil(sorted.length / 2) : Math.max(sorted.length, 1)));
  const active = st.you !== null && handActive(S);
  hand.classList.toggle("inactive", !active);
  hand.dataset.active = active ? "1" : "0";
  if (st.you === null) {
    updateHTML(hand, html``);
    return;
  }
  const handHtml = html`${sorted.map((c) => {
    let cls = "card";
    let label = cardLabel(c);
    let title = label;
    let disabled = true;
    let pressed = "";
    if (ch && ch.must_discard) {
      cls += " selectable";
      disabled = !!S.pending;
      const sel = S.selected.has(c);
      if (sel) cls += " selected";
      pressed = html`aria-pressed="${sel}"`;
    } else if (ch && ch.cards && ch.cards.includes(c)) {
      cls += " playable";
      disabled = !!S.pending;
      label = t("act.play", { card: cardLabel(c) });
      title = label;
    } else {
      const reason = refusedReason(S, c);
      if (reason) {
        cls += " refused";
        label = `${cardLabel(c)} – ${t("act.notplayable", { reason })}`;
        title = reason;
      }
    }
    if (taken.includes(c)) cls += " taken";
    return html`<button type="button" class="${cls}" data-card="${c}" data-testid="card-${c}" aria-label="${label}" title="${title}"
      aria-disabled="${disabled}" ${pressed} tabindex="-1">${cardSvg(c)}</button>`;
  })}`;
  if (!updateHTML(hand, handHtml)) return;
  // roving tabindex: one card in the tab order; arrows move; Enter/Space activate
  const buttons = [...hand.querySelectorAll("button.card")];
  let current = buttons.find((b) => b.dataset.card === focused) || buttons.find((b) => b.classList.contains("playable")) || buttons[0];
  if (current) current.tabIndex = 0;
  if (focused && current && current.dataset.card === focused) current.focus();
  buttons.forEach((b) => b.addEventListener("click", () => h.card(b.dataset.card)));
  hand.onkeydown = (ev) => {
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
    if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    if (ev.key === "Home") j = 0;
    if (ev.key === "End") j = buttons.length - 1;
    if (j !== null) {
      ev.preventDefault();
      buttons.forEach((b) => { b.tabIndex = -1; });
      buttons[j].tabIndex = 0;
      buttons[j].focus();
    }
  };
}

/** Arrow keys anywhere on the page (outside form fields) bring the focus into the hand. */
export function globalKeys(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if (!["ArrowLeft", "ArrowRight"].includes(ev.key)) return;
  if (ev.target.closest && ev.target.closest("#hand")) return;
  const hand = $("hand");
  if (!hand) return;
  const target = hand.querySelector("button.card.playable") || hand.querySelector("button.card[tabindex='0']");
  if (target) {
    ev.preventDefault();
    target.focus();
  }
}
