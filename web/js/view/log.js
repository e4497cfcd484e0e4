// The log of the deal beside the felt: the bids, passes, trumps and kontras in words.
import { t, stepName, partName } from "../i18n.js";
import { cardShort } from "../cards.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf, bidLabel, suitWord } from "./names.js";

function logLine(S, e) {
  const name = nameOf(S, e.seat);
  switch (e.action) {
    case "bid":
      return e.discard
        ? t("log.bid.discard", { name, bid: bidLabel(S, e.bid), cards: e.discard.map(cardShort).join(" ") })
        : t("log.bid", { name, bid: bidLabel(S, e.bid) });
    case "take":
      return e.cards ? t("log.take.cards", { name, cards: e.cards.map(cardShort).join(" ") }) : t("log.take", { name });
    case "pass":
      return t("log.pass", { name });
    case "trump":
      return t("log.trump", { name, suit: suitWord(e.suit) });
    case "give_up":
      return t("log.giveup", { name });
    case "kontra":
      return null;
    default:
      return null;
  }
}

/** The kontra steps in the log: the step is implied by the order (RECORD.md). */
function kontraLines(S, d) {
  const steps = ["kontra", "rekontra", "szubkontra", "hirskontra", "mordkontra", "fedáksári"];
  let played = 0;
  let chainStep = 1; // after trick 1: rekontra first, one step further after each raise
  return d.log.map((e) => {
    if (e.action === "play") played += 1;
    if (e.action !== "kontra") return null;
    const name = nameOf(S, e.seat);
    const idx = played < 3 ? 0 : Math.min(chainStep, 5);
    const step = stepName(steps[idx]);
    if (e.parts && e.parts.length) {
      if (played >= 3) chainStep += 1;
      return t("log.kontra", { name, step, parts: e.parts.map(partName).join(", ") });
    }
    return t("log.kontra.decline", { name, step });
  });
}

export function renderLog(S) {
  const d = S.state.deal;
  const kl = kontraLines(S, d);
  const lines = d.log.map((e, i) => (e.action === "kontra" ? kl[i] : logLine(S, e))).filter(Boolean);
  updateHTML($("log"), html`<h3>${t("table.log")}</h3><ol class="log-list" data-testid="log-list">${lines.map((l) => html`<li>${l}</li>`)}</ol>`);
}
