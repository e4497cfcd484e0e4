// The controls beside the felt: what this seat may do now (auction, trumps, kontra, a hint for the
// play), whose turn it is otherwise, and the deal's result once it is over.
import { t } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf } from "./names.js";
import { auctionChoicesHtml, trumpChoicesHtml, ladderHtml } from "./auction.js";
import { kontraHtml } from "./kontra.js";
import { resultHtml } from "./result.js";

function controlsHtml(S) {
  const st = S.state;
  const d = st.deal;
  const ch = d.choices;
  const busy = !!S.pending;
  if (d.phase === "done") {
    return html`${resultHtml(S, d.result, st.deal_index)}${
      st.match && st.match.winner === null ? html`<p class="muted">${t("res.next")}</p>` : ""}`;
  }
  if (!ch) {
    return html`<p class="status-line" data-testid="status-line">${d.to_move >= 0 ? t("table.waitfor", { name: nameOf(S, d.to_move) }) : ""}</p>${
      d.phase === "auction" ? ladderHtml(S, null, busy) : ""}`;
  }
  let phase = "";
  if (d.phase === "auction") phase = auctionChoicesHtml(S, ch, busy);
  else if (d.phase === "trump") phase = trumpChoicesHtml(S, ch, busy);
  return html`<p class="status-line your-turn" data-testid="your-turn">${t("table.yourturn")}</p>${phase}${
    ch.kontra ? kontraHtml(S, ch.kontra, d, busy) : ""}${
    ch.cards && ch.cards.length && d.phase === "play" ? html`<p class="hint" data-testid="play-hint">${t("act.playhint")}</p>` : ""}`;
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
  }));
  box.querySelectorAll("[data-bid]").forEach((b) => b.addEventListener("click", () => h.bid(b.dataset.bid)));
  box.querySelectorAll("[data-trump]").forEach((b) => b.addEventListener("click", () => h.trump(b.dataset.trump)));
  box.querySelectorAll("[data-kpart]").forEach((b) => b.addEventListener("click", () => h.toggleKontra(b.dataset.kpart)));
  box.querySelectorAll("[data-open-sheet]").forEach((b) => b.addEventListener("click", h.openSheet));
}
