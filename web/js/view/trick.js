// The centre of the felt: the trick (or the last one), the standing bid and the talon during the auction.
// A card played comes in from its seat's side; a finished trick stays readable for the table's trick
// pause (the view's `trick_pause`, the time the server makes a bot wait before it leads), then moves to
// its taker. A card led meanwhile by someone else waits until the trick has cleared, so every screen
// shows every trick whole. With prefers-reduced-motion nothing moves (style.css), the pause stays.
import { t } from "../i18n.js";
import { cardSvg, cardLabel } from "../cards.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf, bidLabel } from "./names.js";
import { positions } from "./seats.js";
import { glanceHtml } from "./result.js";

/** Milliseconds of the end of the pause in which the finished trick moves to its taker. */
const COLLECT_MS = 300;

function sides(S) {
  const pos = positions(S.state);
  return { [pos.me]: "bottom", [pos.left]: "left", [pos.right]: "right" };
}

function trickHtml(S, trick, cards, finished, extra = {}) {
  const where = sides(S);
  const key = `${S.state.deal_index}|${extra.number}`;
  const collect = extra.collect ? `collect to-${where[trick.winner]}` : "";
  return cards.map((c, i) => {
    const seat = (trick.leader + i) % 3;
    // a card seen for the first time on this page comes in from its seat's side (once)
    const seen = `${key}|${c}`;
    const arrive = extra.number !== undefined && !S.cardsShown.has(seen) ? `arrive from-${where[seat]}` : "";
    if (extra.number !== undefined) S.cardsShown.add(seen);
    return html`<div class="trick-card at-${where[seat]} ${finished ? "done" : ""} ${arrive} ${collect}" data-testid="trick-card-${c}" role="img" aria-label="${nameOf(S, seat)}: ${cardLabel(c)}" style="--order:${i}">${cardSvg(c)}</div>`;
  });
}

/** The finished trick this page holds on the felt now and for how many ms more: `{number, left}`, or
 * null. Each finished trick is held for the table's trick pause from when this page first showed it
 * whole; one taken while an earlier one is still held waits its turn (a fast lead by a person). */
function holding(S, d) {
  const pause = Number(S.state.trick_pause || 0) * 1000;
  const latest = d.tricks.length - 1;
  if (!pause || latest < 0) return null;
  const now = performance.now();
  const h = S.trickShown;
  const same = h && h.deal === S.state.deal_index;
  if (same && h.number <= latest && now < h.at + pause) return { number: h.number, left: h.at + pause - now };
  if (same && h.number >= latest) return null; // the latest trick has had its pause
  S.trickShown = { deal: S.state.deal_index, number: latest, at: now };
  return { number: latest, left: pause };
}

let redraw = null;

/** Draw the centre again when the finished trick's pause (or its move to the taker) is due. */
function redrawIn(S, ms) {
  clearTimeout(redraw);
  redraw = setTimeout(() => { if (S.state && S.state.deal) renderCenter(S); }, Math.max(0, ms) + 5);
}

/** The centre during the play: the trick in progress, or a finished one while it is held. */
function playHtml(S, d, last) {
  const current = d.trick && d.trick.cards.length ? d.trick : null;
  const pause = Number(S.state.trick_pause || 0);
  // my own lead ends the hold on my page: I have seen the trick, since I led the next one
  const mine = current && current.leader === S.state.you;
  if (last && !mine && d.phase === "play") {
    const held = pause ? holding(S, d) : current ? null : { number: d.tricks.length - 1, left: Infinity };
    if (held) {
      const { number, left } = held;
      const trick = d.tricks[number];
      const collect = left <= COLLECT_MS;
      if (Number.isFinite(left)) redrawIn(S, collect ? left : left - COLLECT_MS);
      return html`<div class="trick-area" data-testid="trick" data-trick="${number}" data-leader="${trick.leader}" data-held="1" style="--collect-ms:${Math.round(collect ? left : COLLECT_MS)}ms">${trickHtml(S, trick, trick.cards, true, { number, collect })}</div>
        <div class="center-note">${t("table.takes", { name: nameOf(S, trick.winner) })}</div>`;
    }
  }
  if (current) {
    return html`<div class="trick-area" data-testid="trick" data-trick="${d.tricks.length}" data-leader="${current.leader}">${trickHtml(S, current, current.cards, false, { number: d.tricks.length })}</div>`;
  }
  const number = d.tricks.length - 1;
  if (last && d.phase === "done") {
    return html`<div class="trick-area" data-testid="trick" data-trick="${number}" data-leader="${last.leader}">${trickHtml(S, last, last.cards, true, { number })}</div>
      <div class="center-note">${t("table.takes", { name: nameOf(S, last.winner) })}</div>`;
  }
  if (last) {
    // the trick has gone to its taker: the felt says who took it until the next card is led
    return html`<div class="center-note" data-testid="trick-taken">${t("table.takes", { name: nameOf(S, last.winner) })}</div>`;
  }
  return html`<div class="center-note">${d.contract ? t("table.waitfor", { name: nameOf(S, d.to_move) }) : ""}</div>`;
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
    view = playHtml(S, d, last);
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
