// The auction: the discard hint, pass and take, the ladder of bids; then naming trumps.
import { t, bidName, suitName } from "../i18n.js";
import { html } from "../html.js";
import { suitIcon } from "../cards.js";

/** Pass / take the talon, and the hint while two discards are being chosen. */
export function auctionChoicesHtml(S, ch, busy) {
  const parts = [];
  if (ch.must_discard) {
    parts.push(html`<p class="hint" data-testid="discard-hint">${t("act.discard")} <strong data-testid="discard-count">${t("act.discard.count", { n: S.selected.size })}</strong></p>`);
  }
  const btns = [];
  if (ch.may_pass) btns.push(html`<button type="button" class="act big" data-testid="act-pass" data-do="pass" ${busy ? "disabled" : ""}>${t("act.pass")}</button>`);
  if (ch.may_take) btns.push(html`<button type="button" class="act big primary" data-testid="act-take" data-do="take" ${busy ? "disabled" : ""}>${t("act.take")}</button>`);
  if (btns.length) parts.push(html`<div class="btn-row">${btns}</div>`);
  parts.push(ladderHtml(S, ch, busy));
  return html`${parts}`;
}

/** The declarer names trumps (or gives up a plain minor Simple game). */
export function trumpChoicesHtml(S, ch, busy) {
  return html`<p>${t("act.choosetrump")}</p><div class="btn-row">${ch.trumps.map((s) => html`<button type="button" class="act big trump-btn trump-${s}" data-testid="act-trump-${s}" data-trump="${s}" ${busy ? "disabled" : ""}>${suitIcon(s)} ${suitName(s)}</button>`)}</div>${
    ch.may_give_up ? html`<div class="btn-row"><button type="button" class="act warn" data-testid="act-giveup" data-do="giveup" ${busy ? "disabled" : ""}>${t("act.giveup")}</button></div>` : ""}`;
}

/** The ladder of bids by rung: the ones this seat may bid now are enabled (`ch` null: a spectator's view). */
export function ladderHtml(S, ch, busy) {
  const d = S.state.deal;
  const standing = d.auction && d.auction.bid;
  const allowed = new Set(ch ? ch.bids : []);
  const needDiscard = ch && ch.must_discard;
  const rungs = new Map();
  for (const b of S.bids) {
    if (!S.showAllBids && ch && !allowed.has(b.code)) continue;
    if (!rungs.has(b.rung)) rungs.set(b.rung, []);
    rungs.get(b.rung).push(b);
  }
  const rows = [...rungs.entries()].map(([rung, bids]) => html`<li class="rung" data-rung="${rung}">
    <span class="rung-no" aria-hidden="true">${rung}</span>
    <span class="rung-bids">${bids.map((b) => {
      const ok = allowed.has(b.code) && !busy && (!needDiscard || S.selected.size === 2);
      const isStanding = b.code === standing;
      const label = `${bidName(b.code, S.bids)} – ${t("act.rung", { n: b.rung })}, ${t("act.value", { n: b.value })}`;
      return html`<button type="button" class="act bid kind-${b.kind} ${isStanding ? "standing" : ""} ${b.open ? "open-bid" : ""}" data-bid="${b.code}" data-testid="bid-${b.code}"
        ${ok ? "" : "disabled"} aria-label="${label}" title="${label}"><span class="bid-name">${bidName(b.code, S.bids)}</span><span class="bid-val">${b.value}</span></button>`;
    })}</span></li>`);
  const toggle = ch ? html`<button type="button" class="link-btn" data-do="all-bids" data-testid="toggle-all-bids" aria-pressed="${!S.showAllBids}">${S.showAllBids ? t("act.ladder.hide") : t("act.ladder.show")}</button>` : "";
  return html`<div class="ladder-head"><h3>${t("act.ladder")}</h3>${toggle}</div><ol class="ladder" data-testid="bid-ladder" aria-label="${t("act.ladder")}">${rows}</ol>`;
}
