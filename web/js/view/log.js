// The log of the deal beside the felt: the bids (on learner tables with the bots' reasons), passes, trumps and kontras in words, each finished
// trick (who played what, who took it), the points each side has taken so far (the view's `tally`),
// and the "Last deal" button that reopens any finished deal's result. The list scrolls to its newest line.
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

/** A learner table's bot note on a bid (docs/protocol/analysis.md §22.5): the bot's own reason, in words. */
function noteText(S, e, note) {
  if (!note || e.action !== "bid") return "";
  const bid = bidLabel(S, e.bid);
  if (note.basis === "simulation" && note.worlds) {
    return t("log.note.sim", { bid, pct: Math.round((100 * note.made) / note.worlds), worlds: note.worlds });
  }
  if (note.basis === "strength") {
    const vars = { bid, strength: note.strength, suit: suitWord(note.suit), needed: note.needed };
    return t(note.needed === undefined ? "log.note.strength" : "log.note.strength.needed", vars);
  }
  return "";
}

/** The kontra steps in the log: the step is implied by the order (docs/record.md). */
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

/** The cards of this deal a bot played in a person's seat (the view's `bot_played`, protocol §14). */
function botCards(S, d) {
  const marked = S.state.bot_played || [];
  return new Set(marked.map((i) => d.log[i]).filter((e) => e && e.action === "play").map((e) => e.card));
}

/** One line per finished trick, at the place of its third card: "Trick 3: Anna ♠A, … – Anna takes it";
 * a card a bot played for someone says so. */
function trickLines(S, d) {
  let played = 0;
  const byBot = botCards(S, d);
  return d.log.map((e) => {
    if (e.action !== "play") return null;
    played += 1;
    if (played % 3) return null;
    const k = played / 3 - 1;
    const trick = d.tricks[k];
    if (!trick) return null;
    const cards = trick.cards.map((c, i) => `${nameOf(S, (trick.leader + i) % 3)} ${cardShort(c)}${
      byBot.has(c) ? ` (${t("log.bybot.short")})` : ""}`).join(", ");
    const bot = trick.cards.some((c) => byBot.has(c));
    return { trick: k, bot, text: t("log.trick", { n: k + 1, cards, name: nameOf(S, trick.winner) }) };
  });
}

function tallyHtml(d) {
  const y = d.tally;
  if (!y) return "";
  return html`<p class="tally" data-testid="tally">${t("log.tally", {
    d: y.declarer.cards, dm: y.declarer.marriages, f: y.defenders.cards, fm: y.defenders.marriages })}</p>`;
}

export function renderLog(S, h) {
  const st = S.state;
  const d = st.deal;
  const kl = kontraLines(S, d);
  const tl = trickLines(S, d);
  const byBot = new Set(st.bot_played || []);
  // an action a bot took in a person's seat is marked as the bot's (protocol §14)
  const mark = (i) => (byBot.has(i) ? html` <span class="by-bot" data-testid="by-bot-${i}">(${t("log.bybot", { name: nameOf(S, d.log[i].seat) })})</span>` : "");
  const lines = d.log.map((e, i) => {
    if (e.action === "kontra") return kl[i] && html`<li>${kl[i]}${mark(i)}</li>`;
    if (e.action === "play") return tl[i] && html`<li class="trick-line ${tl[i].bot ? "by-bot-line" : ""}" data-testid="log-trick-${tl[i].trick}" data-by-bot="${tl[i].bot ? 1 : 0}">${tl[i].text}</li>`;
    const line = logLine(S, e);
    const note = noteText(S, e, st.bot_notes && st.bot_notes[String(i)]);
    return line && html`<li>${line}${mark(i)}${note ? html`<br><small class="bot-note" data-testid="bot-note">${note}</small>` : ""}</li>`;
  }).filter(Boolean);
  const results = st.match ? st.match.results.length : 0;
  const last = results
    ? html`<button type="button" class="small ghost" data-testid="last-deal-btn" data-last-deal>${t("table.lastdeal")}</button>` : "";
  const box = $("log");
  if (!updateHTML(box, html`<div class="log-head"><h3 data-testid="log-title">${t(`log.title.${d.phase === "trump" ? "auction" : d.phase}`)}</h3>${last}</div>${tallyHtml(d)}<ol class="log-list" data-testid="log-list">${lines}</ol>`)) return;
  const list = box.querySelector(".log-list");
  if (list) list.scrollTop = list.scrollHeight; // the newest line in view
  const lb = box.querySelector("[data-last-deal]");
  if (lb && h) lb.addEventListener("click", () => h.openResult(results - 1));
}
