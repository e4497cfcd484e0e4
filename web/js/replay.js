// Past matches (GET /api/me/matches) and the replay of a finished deal, drawn from the engine's frames
// (GET /api/tables/{id}/deals/{k}/replay, docs/protocol/http.md §15): the spectator view after each action
// with every hand face up. The page decides no rule: trick winners, kontra steps, trumps and the
// result are the server's.
import { api, http, loadBids, matchRecordUrl, dealRecordUrl, retryAfter } from "./api.js";
import { initPage, currentPlayer, askName, toast, errorText, seatName, tableUrl } from "./common.js";
import { html, join, setHTML } from "./html.js";
import { t, lang, onLangChange, bidName, stepName, partName, suitText, botName } from "./i18n.js";
import { cardSvg, cardLabel, cardShort, sortHand } from "./cards.js";
import { SEAT_COLORS } from "./view/names.js";
import { resultHtml } from "./view/result.js";
import { decisionHtml, graphHtml, totalsHtml, valuesChartHtml, badgeHtml, altText, matchAccuracyHtml, pollMatchAccuracy } from "./view/analysis.js";

const $ = (id) => document.getElementById(id);
const R = { matches: [], bids: [], tableId: null, record: null, view: null, k: 0, frames: [], i: 0,
  analysis: null, anStatus: null, anToken: 0, whatif: null, matchAn: null };

const dealReplayUrl = (id, k) => `/api/tables/${encodeURIComponent(id)}/deals/${k}/replay`;

// ------------------------------------------------------------------ lists

function playerNames(summary) {
  return summary.seats.map((s) => (s.kind === "player" ? s.name : seatName(s)));
}

function renderMatches() {
  const list = $("match-list");
  if (!R.matches.length) {
    setHTML(list, html`<li class="empty" data-testid="no-matches">${t("matches.none")}</li>`);
    return;
  }
  setHTML(list, html`${R.matches.map((m) => {
    const s = m.summary;
    const names = join(playerNames(s).map((n, i) => (i === m.seat ? html`<strong>${n}</strong>` : n)), ", ");
    const when = m.created_at ? new Date(m.created_at) : null;
    const date = when ? when.toLocaleString(lang() === "hu" ? "hu-HU" : "en-GB", { dateStyle: "medium", timeStyle: "short" }) : "";
    const w = s.winner; // the server names it: the page decides no rule
    const winner = w === undefined || w === null
      ? html`<span class="match-winner muted" data-testid="winner-${m.table_id}">${t("matches.nowinner")}</span>`
      : html`<span class="match-winner" data-testid="winner-${m.table_id}">★ ${t("matches.winner", { name: playerNames(s)[w] })}</span>`;
    return html`<li class="match-item" data-testid="match-${m.table_id}">
      <time class="match-date" datetime="${when ? when.toISOString() : ""}" data-testid="date-${m.table_id}"><span class="muted">${t("matches.date")}:</span> ${date}</time>
      <span class="players"><span class="muted">${t("matches.players")}:</span> ${names}</span>
      ${winner}
      <span class="status ${m.status}">${t(`lobby.status.${m.status}`)}</span>
      <span>${t("lobby.dealsof", { played: s.deals_played, planned: s.deals_planned })}</span>
      <a class="button small" href="${tableUrl(m.table_id)}">${t("matches.open")}</a>
      <button type="button" class="small primary" data-show="${m.table_id}" data-testid="show-${m.table_id}">${t("matches.show")}</button>
    </li>`;
  })}`);
  list.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => showDeals(b.dataset.show)));
}

async function showDeals(tableId, k = null) {
  R.tableId = tableId;
  const box = $("deals");
  box.hidden = false;
  try {
    R.record = await api.matchRecord(tableId);
  } catch (e) {
    setHTML(box, html`<p>${e.code === "not_found" ? t("matches.notstarted") : errorText(e)}</p>`);
    return;
  }
  try {
    R.view = await api.table(tableId);
  } catch {
    R.view = null;
  }
  history.replaceState(null, "", `/matches.html?t=${encodeURIComponent(tableId)}${k !== null ? `&k=${k}` : ""}`);
  R.matchAn = null;
  renderDeals();
  // each seat's accuracy over the match (docs/protocol/analysis.md §22.5): polled while its deals are analysed
  pollMatchAccuracy(tableId, (answer) => {
    R.matchAn = answer;
    const box = $("match-accuracy-box");
    if (box) setHTML(box, matchAccuracyHtml(answer, R.record.players.map(botName)));
  }, () => R.tableId === tableId);
  if (k !== null && R.record.deals[k]) await showReplay(k);
  else box.scrollIntoView({ behavior: "smooth", block: "start" });
}

/** The names of deal `k`'s seats 0, 1, 2: the players', or at a table of four (`"seats": 4`, docs/record.md)
 * the three who played it: the player on the dealer's left (seat 0), the next, the dealer's right. */
function dealNames(rec, k) {
  const names = rec.players.map(botName);
  if (rec.seats !== 4 || !rec.deals[k]) return names;
  const out = rec.deals[k].sits_out;
  return [1, 2, 3].map((i) => names[(out + i) % 4]);
}

function renderDeals() {
  const rec = R.record;
  const names = rec.players.map(botName);
  const rows = rec.deals.map((d, k) => {
    // the contract and scores as the server's result states them (the engine's, not worked out here)
    const res = R.view && R.view.match && R.view.match.results[k];
    const played = dealNames(rec, k); // at a table of four: the three who played this deal
    const scores = res ? ` · ${res.scores.map((s, i) => `${played[i]} ${s > 0 ? "+" : ""}${s}`).join(", ")}` : "";
    return html`<li data-testid="deal-${k}"><strong>${k + 1}.</strong>
      <span>${res ? `${played[res.declarer]}: ${bidName(res.bid, R.bids)}` : ""}${scores}</span>
      <button type="button" class="small primary" data-replay="${k}" data-testid="replay-${k}">${t("matches.replay")}</button>
      <a class="button small" href="${dealRecordUrl(R.tableId, k)}" download="ulti-${R.tableId}-deal-${k + 1}.json" data-testid="download-deal-${k}">${t("matches.download.deal")}</a></li>`;
  });
  setHTML($("deals"), html`<h2>${t("matches.deals")}: ${names.join(", ")}</h2>
    <p><a class="button small" href="${matchRecordUrl(R.tableId)}" download="ulti-${R.tableId}.json" data-testid="download-match">${t("matches.download")}</a></p>
    <div id="match-accuracy-box">${matchAccuracyHtml(R.matchAn, names)}</div>
    <ol class="deal-list">${rows}</ol>`);
  $("deals").querySelectorAll("[data-replay]").forEach((b) => b.addEventListener("click", () => showReplay(Number(b.dataset.replay))));
}

async function showReplay(k) {
  R.k = k;
  try {
    R.frames = (await http("GET", dealReplayUrl(R.tableId, k))).frames;
  } catch (e) {
    toast(errorText(e), "error");
    return;
  }
  const at = new URLSearchParams(location.search).get("i");
  R.i = at !== null && R.k === k ? Math.max(0, Math.min(R.frames.length - 1, Number(at) || 0)) : 0;
  history.replaceState(null, "", `/matches.html?t=${encodeURIComponent(R.tableId)}&k=${k}`);
  $("replay").hidden = false;
  R.whatif = null;
  renderReplay();
  loadAnalysis(k);
  $("replay").scrollIntoView({ behavior: "smooth", block: "start" });
}

// ------------------------------------------------------------------ the replay view

/** A frame's action in words; a kontra names the step the server gives it. */
function actionText(a, names) {
  const name = names[a.seat];
  switch (a.action) {
    case "bid": return a.discard
      ? t("log.bid.discard", { name, bid: bidName(a.bid, R.bids), cards: a.discard.map(cardShort).join(" ") })
      : t("log.bid", { name, bid: bidName(a.bid, R.bids) });
    case "take": return t("log.take", { name });
    case "pass": return t("log.pass", { name });
    case "trump": return t("log.trump", { name, suit: suitText(a.suit) });
    case "give_up": return t("log.giveup", { name });
    case "kontra": {
      const step = stepName(a.step);
      return a.parts && a.parts.length ? t("log.kontra", { name, step, parts: a.parts.map(partName).join(", ") }) : t("log.kontra.decline", { name, step });
    }
    case "play": return t("log.play", { name, card: cardLabel(a.card) });
    default: return "";
  }
}

/** Whether the action of frame `i` (from 1) was a bot's in a person's seat: the record marks it
 * `"by": "bot"` (docs/record.md), and the replay says so beside it. */
function byBot(i) {
  const deal = R.record && R.record.deals[R.k];
  const a = deal && deal.actions[i - 1];
  return !!(a && a.by === "bot");
}

function botMark(i, names) {
  const a = R.frames[i] && R.frames[i].action;
  return byBot(i) && a ? html` <span class="by-bot" data-testid="replay-by-bot-${i}">(${t("log.bybot", { name: names[a.seat] })})</span>` : "";
}

/** The cards of the deal a bot played in a person's seat. */
function botCardsOfDeal() {
  const deal = R.record && R.record.deals[R.k];
  return new Set(deal ? deal.actions.filter((a) => a.by === "bot" && a.action === "play").map((a) => a.card) : []);
}

/** Who sits where, for resultHtml: the table view when we have it, else the record's names. */
function resultState(names) {
  if (R.view && R.view.table) return R.view;
  return { table: { seats: names.map((name) => ({ kind: "player", name })) } };
}

function contractHtml(v, names) {
  const c = v.contract;
  if (!c) return "";
  const trump = c.trump ? ` · ${suitText(c.trump)}` : "";
  const kontra = Object.entries(v.kontra).map(([p, m]) => ` · ${partName(p)} ×${m}`).join("");
  return html`<p data-testid="replay-contract"><strong>${names[c.declarer]}</strong>: ${bidName(c.bid, R.bids)}${trump}${kontra}</p>`;
}

function trickHtml(v, names) {
  // the trick on the table, else the last finished one with the winner the engine named
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const current = v.trick && v.trick.cards.length ? v.trick : null;
  const shown = current || last;
  if (!shown) return "";
  const winner = current ? null : last.winner;
  const bots = botCardsOfDeal();
  const cards = shown.cards.map((c, i) => {
    const seat = (shown.leader + i) % 3;
    const won = seat === winner ? " winning" : "";
    const bot = bots.has(c) ? html` <span class="by-bot" data-testid="replay-bot-card-${c}">(${t("log.bybot.short")})</span>` : "";
    return html`<div class="rp-trick-card${won}" style="--seat-color:${SEAT_COLORS[seat]}"${won ? html` data-testid="replay-winning-card"` : ""}><span class="mini-card">${cardSvg(c)}</span><small><span class="dot"></span> ${names[seat]}${won ? " ★" : ""}${bot}</small></div>`;
  });
  const note = winner === null ? ""
    : html`<div class="center-note" data-testid="replay-trick-winner" data-seat="${winner}">${t("table.takes", { name: names[winner] })}</div>`;
  return html`<div class="rp-trick" data-testid="replay-trick">${cards}</div>${note}`;
}

function renderReplay() {
  const fr = R.frames[R.i];
  const v = fr.view;
  const names = dealNames(R.record, R.k);
  const seatsHtml = [0, 1, 2].map((s) => {
    const badges = [];
    if (s === v.dealer) badges.push(html`<span class="badge dealer">${t("replay.dealer")}</span>`);
    if (s === v.opener) badges.push(html`<span class="badge">${t("replay.opener")}</span>`);
    if (v.auction.bidder === s) badges.push(html`<span class="badge decl">${bidName(v.auction.bid, R.bids)}</span>`);
    return html`<div class="seat-inner" style="--seat-color:${SEAT_COLORS[s]}" data-testid="replay-seat-${s}">
      <div class="seat-head"><span class="dot"></span><strong>${names[s]}</strong> ${join(badges, " ")}</div>
      <div class="seat-meta">${t("seat.cards", { n: v.hand_sizes[s] })} · <span data-testid="replay-won-${s}">${t("seat.tricks", { n: v.won[s] })}</span></div>
      <div class="replay-hand" aria-label="${t("table.hand.of", { name: names[s] })}">${sortHand(fr.hands[s], v.contract).map((c) => html`<span class="mini-card" role="img" aria-label="${cardLabel(c)}" title="${cardLabel(c)}">${cardSvg(c)}</span>`)}</div>
    </div>`;
  });
  const talon = fr.talon.length ? html`<div class="talon"><span class="lbl">${t("table.talon")}</span>${fr.talon.map((c) => html`<span class="mini-card talon-card" role="img" aria-label="${cardLabel(c)}">${cardSvg(c)}</span>`)}</div>` : "";
  const resHtml = v.result ? resultHtml({ state: resultState(names), bids: R.bids }, v.result, R.k) : "";
  const logItems = R.frames.slice(1, R.i + 1).map((f, j) => ({ a: f.action, i: j + 1 })).filter(({ a }) => a.action !== "play")
    .map(({ a, i }) => html`<li>${actionText(a, names)}${botMark(i, names)}</li>`);
  setHTML($("replay"), html`<div class="card-panel">
    <h2 data-testid="replay-title">${t("replay.title", { n: R.k + 1 })}</h2>
    <div class="replay-controls" role="toolbar" aria-label="${t("matches.replay")}">
      <button type="button" class="small" data-go="first" data-testid="replay-first">« ${t("replay.first")}</button>
      <button type="button" class="small" data-go="prev" data-testid="replay-prev">‹ ${t("replay.prev")}</button>
      <button type="button" class="small primary" data-go="next" data-testid="replay-next">${t("replay.next")} ›</button>
      <button type="button" class="small" data-go="trick" data-testid="replay-next-trick">${t("replay.nexttrick")} ›</button>
      <button type="button" class="small" data-go="last" data-testid="replay-last">${t("replay.last")} »</button>
      <span class="muted" data-testid="replay-step">${t("replay.step", { i: R.i, n: R.frames.length - 1 })}</span>
    </div>
    <p data-testid="replay-action">${fr.action ? html`${actionText(fr.action, names)}${botMark(R.i, names)}` : t("replay.start")}</p>
    ${contractHtml(v, names)}
  </div>
  <div class="felt replay-felt" data-testid="replay-felt">
    <div class="rp-seats">${seatsHtml}</div>
    <div class="rp-center">${talon}${trickHtml(v, names)}</div>
  </div>
  <div class="rp-bottom">
    <div class="card-panel"><h3>${t("table.log")}</h3><ol class="log-list">${logItems}</ol></div>
    ${resHtml ? html`<div class="card-panel">${resHtml}</div>` : ""}
  </div>
  ${analysisPanelHtml(names)}`);
  $("replay").querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go)));
  bindAnalysis();
}

// ------------------------------------------------------------------ the analysis (docs/protocol/analysis.md §22)

const analysisUrl = (id, k) => `/api/tables/${encodeURIComponent(id)}/deals/${k}/analysis`;
const whatIfUrl = (id, k, at, line) =>
  `/api/tables/${encodeURIComponent(id)}/deals/${k}/whatif?at=${at}&line=${encodeURIComponent(line.join(","))}`;

/** Ask for deal `k`'s analysis, then poll its progress until the server has it. */
async function loadAnalysis(k) {
  const token = ++R.anToken;
  R.analysis = null;
  R.anStatus = null;
  for (;;) {
    let answer;
    try {
      answer = await http("GET", analysisUrl(R.tableId, k));
    } catch (e) {
      if (token !== R.anToken) return;
      const wait = retryAfter(e);
      if (wait !== null) { // over a quota: ask again when told, the progress shown meanwhile
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      R.anStatus = { error: e };
      renderReplay();
      return;
    }
    if (token !== R.anToken) return;
    if (answer.status === "done") {
      R.analysis = answer.analysis;
      R.anStatus = null;
      renderReplay();
      return;
    }
    R.anStatus = answer;
    renderReplay();
    if (answer.status === "failed") return;
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
}

function analysisPanelHtml(names) {
  if (!R.analysis) {
    const st = R.anStatus;
    if (st && st.error) {
      const text = st.error.code === "analysis_after_match" ? t("an.aftermatch") : errorText(st.error);
      return html`<div class="card-panel an-panel"><p data-testid="an-refused">${text}</p></div>`;
    }
    const p = st && st.progress ? st.progress : { done: 0, total: 0 };
    return html`<div class="card-panel an-panel"><p data-testid="an-progress">${st && st.status === "failed" ? st.message : t("an.progress", { done: p.done, total: p.total })}</p>
      <progress max="${p.total || 1}" value="${p.done}"></progress></div>`;
  }
  const a = R.analysis;
  const d = a.decisions.find((x) => x.index === R.i - 1);
  const current = d ? html`<div class="an-current" data-testid="an-current">${decisionHtml(d, names)}${
    d.forced ? "" : valuesChartHtml(d.kind, d.values, d.best, d.key)}</div>` : "";
  const moves = a.decisions.map((x) => html`<li class="${x.index === R.i - 1 ? "current" : ""}"><button type="button" class="linkish" data-goto="${x.index + 1}" data-testid="an-move-${x.index}">${
    x.trick ? `${x.trick}. ` : ""}${names[x.seat]}: ${x.kind === "play" ? cardShort(x.key) : altText(x.kind, x.key)}</button> ${badgeHtml(x)}</li>`);
  return html`<div class="card-panel an-panel" data-testid="an-panel">
    <h3>${t("an.title")}</h3>
    <p class="muted">${t("an.graph.caption", { worlds: a.worlds })}</p>
    ${graphHtml(a, R.frames.length - 1, R.i)}
    ${current}
    ${totalsHtml(a, names)}
    ${whatIfHtml(names)}
    <details class="an-moves"><summary>${t("an.moves")}</summary><ol>${moves}</ol></details>
  </div>`;
}

/** Whether frame `i` is a position of the play the what-if explorer can start from. */
function inPlay(i) {
  const v = R.frames[i].view;
  return v.phase === "play";
}

function whatIfHtml(names) {
  const w = R.whatif;
  if (!w) {
    return inPlay(R.i) ? html`<p><button type="button" class="small" data-whatif="open" data-testid="whatif-open">${t("an.whatif")}</button></p>` : "";
  }
  const a = w.answer;
  if (!a) return html`<p class="muted" data-testid="whatif-wait">${w.error ? errorText(w.error) : "…"}</p>`;
  const value = a.over ? a.result.per_defender : a.value;
  const cards = Object.entries(a.cards).map(([c, v]) => html`<button type="button" class="small whatif-card${a.best.includes(c) ? " best" : ""}" data-wcard="${c}" data-testid="whatif-card-${c}"><span class="mini-card">${cardSvg(c)}</span> ${v > 0 ? "+" : ""}${v}</button>`);
  return html`<div class="whatif" data-testid="whatif">
    <h4>${t("an.whatif")}</h4>
    <p data-testid="whatif-line">${w.line.length ? w.line.map(cardShort).join(" ") : t("an.whatif.from")}</p>
    <p data-testid="whatif-value"><strong>${t("an.whatif.value", { name: names[a.declarer], n: value })}</strong>${a.over ? html` · ${t("an.whatif.over")}` : ""}</p>
    ${a.over ? "" : html`<p>${t("an.whatif.next", { name: names[a.to_move] })}</p><div class="whatif-cards">${cards}</div>`}
    <p><button type="button" class="small" data-whatif="back" ${w.line.length ? "" : "disabled"}>${t("replay.prev")}</button>
    <button type="button" class="small" data-whatif="close" data-testid="whatif-close">${t("table.close")}</button></p>
  </div>`;
}

async function whatIfGo(line) {
  R.whatif = { at: R.whatif ? R.whatif.at : R.i, line, answer: null, error: null };
  renderReplay();
  const w = R.whatif;
  try {
    w.answer = await http("GET", whatIfUrl(R.tableId, R.k, w.at, line));
  } catch (e) {
    w.error = e;
  }
  if (R.whatif === w) renderReplay();
}

function bindAnalysis() {
  const box = $("replay");
  box.querySelectorAll("[data-goto]").forEach((b) => b.addEventListener("click", () => {
    R.i = Number(b.dataset.goto);
    R.whatif = null;
    renderReplay();
  }));
  box.querySelectorAll("[data-whatif]").forEach((b) => b.addEventListener("click", () => {
    const what = b.dataset.whatif;
    if (what === "open") whatIfGo([]);
    if (what === "back" && R.whatif) whatIfGo(R.whatif.line.slice(0, -1));
    if (what === "close") { R.whatif = null; renderReplay(); }
  }));
  box.querySelectorAll("[data-wcard]").forEach((b) => b.addEventListener("click", () => whatIfGo([...R.whatif.line, b.dataset.wcard])));
}

function go(where) {
  const n = R.frames.length - 1;
  if (where === "first") R.i = 0;
  if (where === "prev") R.i = Math.max(0, R.i - 1);
  if (where === "next") R.i = Math.min(n, R.i + 1);
  if (where === "last") R.i = n;
  if (where === "trick") {
    const count = R.frames[R.i].view.tricks.length;
    while (R.i < n && R.frames[R.i].view.tricks.length === count) R.i += 1;
  }
  R.whatif = null;
  renderReplay();
  const focus = $("replay").querySelector(`[data-go="${where}"]`);
  if (focus) focus.focus();
}

document.addEventListener("keydown", (ev) => {
  if ($("replay").hidden || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (ev.key === "ArrowRight") { ev.preventDefault(); go("next"); }
  if (ev.key === "ArrowLeft") { ev.preventDefault(); go("prev"); }
});

async function main() {
  initPage("matches");
  let player = await currentPlayer();
  if (!player) player = await askName($("name-slot"));
  R.bids = (await loadBids()).bids;
  R.matches = (await api.myMatches()).matches;
  renderMatches();
  const params = new URLSearchParams(location.search);
  if (params.get("t")) await showDeals(params.get("t"), params.get("k") !== null ? Number(params.get("k")) : null);
  onLangChange(() => {
    renderMatches();
    if (R.record) renderDeals();
    if (!$("replay").hidden && R.frames.length) renderReplay();
  });
  // the analysis graph is drawn narrower on a phone (view/analysis.js graphHtml): drawn again on a turn
  if (window.matchMedia) {
    window.matchMedia("(max-width: 519px)").addEventListener("change", () => {
      if (!$("replay").hidden && R.frames.length) renderReplay();
    });
  }
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
