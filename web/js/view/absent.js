// Absent players (docs/protocol/table.md §14): whom a table without a time limit waits for, since when and
// from when the others may let a bot play for them (the view's `waiting`, kept current by `waiting`
// messages); and, for a player who comes back, what a bot played in their name (`played_for_you`).
import { t, lang, partName } from "../i18n.js";
import { cardShort } from "../cards.js";
import { html, join, updateHTML } from "../html.js";
import { $, nameOf, bidLabel, suitWord } from "./names.js";
import { tableSeatName } from "./four.js";

const clock = (epoch) => new Date(epoch * 1000).toLocaleTimeString(lang() === "hu" ? "hu-HU" : "en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** Seconds until `epoch` (0 once it has passed). */
export function secondsUntil(epoch) {
  return Math.max(0, Math.ceil(epoch - Date.now() / 1000));
}

/**
 * The table's own view behind the page's: at a table of four the page draws the deal's three seats, but
 * votes are by table seat, and the player sitting the deal out votes too (the server counts every person
 * here), so whose vote is needed and given is read from the table's view (four.js's `four.table`).
 */
function tableView(st) {
  return st.four ? st.four.table : st;
}

/** The name of table seat `seat` (at a table of four, its table seat; else the deal's). */
function tableName(S, seat) {
  return S.state.four ? tableSeatName(S.state, seat) : nameOf(S, seat);
}

/** The people (table seats) whose agreement a bot needs to play for table seat `seat`: the other people here now. */
function voters(S, seat) {
  return tableView(S.state).table.seats
    .map((s, i) => ({ s, i }))
    .filter(({ s, i }) => i !== seat && s.kind === "player" && !s.bot && !s.away && s.connected !== false)
    .map(({ i }) => i);
}

function waitedHtml(S, w) {
  const st = S.state;
  const name = nameOf(S, w.seat);
  // the waited-for seat and the votes by table seat (the same as the deal's at a table of three)
  const table = tableView(st);
  const seat = st.four ? st.four.seats[w.seat] : w.seat;
  const votes = (table.waiting || []).find((x) => x.seat === seat)?.agreed || w.agreed;
  const you = table.you;
  const mine = you !== null && you !== seat && voters(S, seat).includes(you);
  const agreed = votes.includes(you);
  const missing = voters(S, seat).filter((s) => !votes.includes(s)).map((s) => tableName(S, s));
  const left = secondsUntil(w.bot_from);
  let action = "";
  if (mine && agreed) {
    action = html`<p class="hint" data-testid="let-bot-agreed-${w.seat}">${t("wait.agreed", { names: missing.join(", ") })}</p>`;
  } else if (mine) {
    action = html`<button type="button" class="small" data-let-bot="${w.seat}" data-bot-from="${w.bot_from}" data-testid="let-bot-${w.seat}" ${left > 0 ? "disabled" : ""}>${t("wait.letbot", { name })}</button>`;
  }
  return html`<div class="waited" data-testid="waiting-${w.seat}">
    <p><strong>${t("wait.offline", { name, time: clock(w.since) })}</strong></p>
    <p class="hint">${t("wait.from", { name, time: clock(w.bot_from) })} <span class="wait-left" data-wait-until="${w.bot_from}" data-testid="wait-left-${w.seat}">${left > 0 ? t("wait.in", { n: left }) : ""}</span></p>
    ${votes.length ? html`<p class="hint" data-testid="wait-agreed-${w.seat}">${t("wait.agreedby", { names: votes.map((s) => tableName(S, s)).join(", ") })}</p>` : ""}
    ${action}</div>`;
}

/** One action a bot played for the player, in words: a card, a bid, a pass, … */
function actionWords(S, a) {
  switch (a.action) {
    case "play": return cardShort(a.card);
    case "bid": return a.discard ? t("report.bid.discard", { bid: bidLabel(S, a.bid), cards: a.discard.map(cardShort).join(" ") }) : bidLabel(S, a.bid);
    case "trump": return suitWord(a.suit);
    case "kontra": return a.parts && a.parts.length ? t("report.kontra", { parts: a.parts.map(partName).join(", ") }) : t("report.nokontra");
    default: return t(`report.${a.action}`);
  }
}

function reportHtml(S) {
  const st = S.state;
  const items = st.played_for_you;
  const table = tableView(st); // the player sitting a deal out is told too
  const me = table.you !== null ? table.table.seats[table.you] : null;
  if (!items || !items.length || !me || me.away) return "";
  const key = `${st.deal_index}|${items.length}|${items[0].deal}`;
  if (S.reportSeen === key) return "";
  const deals = [...new Set(items.map((it) => it.deal))];
  const lines = deals.map((k) => html`<li data-testid="played-for-you-${k}">${t("report.deal", { n: k + 1 })}: ${join(items.filter((it) => it.deal === k).map((it) => actionWords(S, it.action)), ", ")}</li>`);
  return html`<div class="played-for-you" role="status" data-testid="played-for-you">
    <h3>${t("report.title")}</h3><ul>${lines}</ul>
    <button type="button" class="small primary" data-report-ok="${key}" data-testid="played-for-you-ok">${t("report.ok")}</button></div>`;
}

/** The panel above the controls: the absent players waited for, and what was played for me. */
export function renderAbsent(S, h) {
  const st = S.state;
  const box = $("absent");
  if (!box) return;
  const waiting = st.table.status === "playing" ? st.waiting || [] : [];
  const view = html`${reportHtml(S)}${waiting.map((w) => waitedHtml(S, w))}`;
  box.hidden = !view.markup.trim();
  if (!updateHTML(box, view)) return;
  box.querySelectorAll("[data-let-bot]").forEach((b) => b.addEventListener("click", () => h.letBot(Number(b.dataset.letBot))));
  box.querySelectorAll("[data-report-ok]").forEach((b) => b.addEventListener("click", () => {
    S.reportSeen = b.dataset.reportOk;
    renderAbsent(S, h);
  }));
}

/** Every second: the countdowns to `bot_from`, and the buttons they hold back. */
export function tickAbsent() {
  document.querySelectorAll("[data-wait-until]").forEach((el) => {
    const left = secondsUntil(Number(el.dataset.waitUntil));
    el.textContent = left > 0 ? t("wait.in", { n: left }) : "";
  });
  document.querySelectorAll("[data-bot-from]").forEach((b) => {
    b.disabled = secondsUntil(Number(b.dataset.botFrom)) > 0;
  });
}
