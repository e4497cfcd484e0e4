// The controls beside the felt: what this seat may do now (auction, trumps, kontra, a hint for the
// play), whose turn it is otherwise, and the deal's result once it is over.
import { t, stepName } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf, turnSeats } from "./names.js";
import { auctionChoicesHtml, trumpChoicesHtml, ladderHtml } from "./auction.js";
import { kontraHtml } from "./kontra.js";
import { glanceHtml, explainHtml } from "./result.js";
import { nextDealHtml } from "./between.js";
import { hintHtml, afterDealHtml } from "./coach.js";

/** Whom the table waits for, when it is not this seat: one name, or both defenders in the kontra chain. */
function waitingText(S) {
  const d = S.state.deal;
  const seats = turnSeats(S);
  if (seats.length > 1) {
    return t("table.waitfor.defenders", { a: nameOf(S, seats[0]), b: nameOf(S, seats[1]), step: stepName(d.chain.step) });
  }
  return seats.length ? t("table.waitfor", { name: nameOf(S, seats[0]) }) : "";
}

function controlsHtml(S) {
  const st = S.state;
  const d = st.deal;
  const ch = d.choices;
  const busy = !!S.pending;
  if (d.phase === "done") {
    // the bottom line first (on a wide screen it stands on the felt instead: trick.js renderCenter), then the
    // buttons, then the explanation: on a phone all of the first two stay in view above a long result
    return html`<div class="deal-result" data-testid="deal-result">${glanceHtml(S, d.result, st.deal_index)}<div class="btn-row result-actions"><button type="button" class="act primary" data-open-sheet data-testid="result-sheet-btn">${t("table.sheet")}</button></div>${
      nextDealHtml(S)}${afterDealHtml(S)}${explainHtml(S, d.result, st.deal_index)}</div>`;
  }
  if (!ch) {
    const watching = st.you === null ? html`<p class="hint watching-hint" data-testid="watching-hint">${t("hint.watching")}</p>` : "";
    return html`${watching}<p class="status-line" data-testid="status-line">${waitingText(S)}</p>${
      d.phase === "auction" ? html`<div class="watch-ladder">${ladderHtml(S, null, busy)}</div>` : ""}`;
  }
  let phase = "";
  if (d.phase === "auction") phase = auctionChoicesHtml(S, ch, busy);
  else if (d.phase === "trump") phase = trumpChoicesHtml(S, ch, busy);
  const either = turnSeats(S).length > 1;
  const turn = either ? t("table.eitherdefender", { step: stepName(d.chain.step) }) : t("table.yourturn");
  return html`<p class="status-line your-turn" data-testid="your-turn" data-either="${either ? 1 : 0}">${turn}</p>${phase}${
    ch.kontra ? kontraHtml(S, ch.kontra, d, busy) : ""}${
    ch.cards && ch.cards.length && d.phase === "play" ? html`<p class="hint" data-testid="play-hint">${t("act.playhint")}</p>` : ""}${
    hintHtml(S)}`;
}

export function renderControls(S, h) {
  const box = $("controls");
  if (!updateHTML(box, controlsHtml(S))) return;
  box.querySelectorAll("[data-do]").forEach((b) => b.addEventListener("click", () => {
    const what = b.dataset.do;
    if (what === "pass") h.pass();
    else if (what === "take") h.take();
    else if (what === "giveup") h.giveUp();
    else if (what === "kontra-say") h.kontra([...S.kontraParts]);
    else if (what === "kontra-decline") h.kontra([]);
    else if (what === "all-bids") h.toggleAllBids();
    else if (what === "next-deal") h.ready();
    else if (what === "hint") h.hint();
  }));
  box.querySelectorAll("[data-bid]").forEach((b) => b.addEventListener("click", () => h.bid(b.dataset.bid)));
  box.querySelectorAll("[data-trump]").forEach((b) => b.addEventListener("click", () => h.trump(b.dataset.trump)));
  box.querySelectorAll("[data-kpart]").forEach((b) => b.addEventListener("click", () => h.toggleKontra(b.dataset.kpart)));
  box.querySelectorAll("[data-open-sheet]").forEach((b) => b.addEventListener("click", h.openSheet));
  scrollLadder(box);
}

/** Scroll the ladder (not the page) so the lowest bid this seat may make now is in view. */
function scrollLadder(box) {
  const ladder = box.querySelector(".ladder");
  const first = ladder && ladder.querySelector("button.bid:not([disabled])");
  if (!first) return;
  const rung = first.closest(".rung") || first;
  const top = rung.getBoundingClientRect().top - ladder.getBoundingClientRect().top + ladder.scrollTop;
  if (top < ladder.scrollTop || top + rung.offsetHeight > ladder.scrollTop + ladder.clientHeight) ladder.scrollTop = Math.max(0, top - 4);
}
