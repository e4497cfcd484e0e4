// The centre of the felt: the trick (or the last one), the standing bid and the talon during the auction.
import { t } from "../i18n.js";
import { cardSvg, cardLabel } from "../cards.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf, bidLabel } from "./names.js";
import { positions } from "./seats.js";
import { glanceHtml } from "./result.js";

function trickHtml(S, trick, cards, finished) {
  const pos = positions(S.state);
  const where = { [pos.me]: "bottom", [pos.left]: "left", [pos.right]: "right" };
  return cards.map((c, i) => {
    const seat = (trick.leader + i) % 3;
    return html`<div class="trick-card at-${where[seat]} ${finished ? "done" : ""}" data-testid="trick-card-${c}" role="img" aria-label="${nameOf(S, seat)}: ${cardLabel(c)}" style="--order:${i}">${cardSvg(c)}</div>`;
  });
}

export function renderCenter(S) {
  const st = S.state;
  const d = st.deal;
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  let view;
  if (S.showLastTrick) {
    view = last
      ? html`<div class="trick-area" data-testid="last-trick">${trickHtml(S, last, last.cards, true)}</div>
         <div class="center-note">${t("table.lasttrick")}: ${t("table.takes", { name: nameOf(S, last.winner) })}</div>`
      : html`<div class="center-note" data-testid="last-trick">${t("table.lasttrick.none")}</div>`;
  } else if (d.phase === "play" || d.phase === "done") {
    if (d.trick && d.trick.cards.length) {
      view = html`<div class="trick-area" data-testid="trick">${trickHtml(S, d.trick, d.trick.cards, false)}</div>`;
    } else if (last) {
      // The trick just completed stays in view until the next card is led.
      view = html`<div class="trick-area" data-testid="trick">${trickHtml(S, last, last.cards, true)}</div>
        <div class="center-note">${t("table.takes", { name: nameOf(S, last.winner) })}</div>`;
    } else {
      view = html`<div class="center-note">${d.contract ? t("table.waitfor", { name: nameOf(S, d.to_move) }) : ""}</div>`;
    }
  } else {
    const standing = d.auction && d.auction.bid
      ? html`<div class="center-bid"><span class="lbl">${t("table.standing")}</span><strong data-testid="standing-bid">${bidLabel(S, d.auction.bid)}</strong><span>${nameOf(S, d.auction.bidder)}</span></div>`
      : html`<div class="center-bid"><span class="lbl">${t("table.standing")}</span><strong data-testid="standing-bid">${t("table.nobid")}</strong></div>`;
    const talonExists = d.log.some((e) => e.action === "bid");
    const talon = talonExists
      ? html`<div class="talon" data-testid="talon" aria-label="${t("table.talon")}${d.talon ? ": " + d.talon.map(cardLabel).join(", ") : ""}"><span class="lbl">${t("table.talon")}</span>
          ${(d.talon || [null, null]).map((c) => html`<span class="mini-card talon-card">${cardSvg(c, { faceDown: !c })}</span>`)}</div>`
      : "";
    view = html`${standing}${talon}`;
  }
  if (d.phase === "done" && d.result && !S.showLastTrick) {
    // the felt is free once the deal is over: the result's bottom line stands there, in the first screenful
    view = html`<div class="felt-result">${glanceHtml(S, d.result, st.deal_index, "felt-result")}</div>`;
  } else if (d.phase === "done" && d.result) {
    view = html`${view}<div class="center-note result-note">${t("phase.done")}</div>`;
  }
  updateHTML($("center"), view);
}
