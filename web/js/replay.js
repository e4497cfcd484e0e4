// Past matches (GET /api/me/matches) and the replay of a finished deal, drawn from the engine's frames
// (GET /api/tables/{id}/deals/{k}/replay, docs/protocol.md §15): the spectator view after each action
// with every hand face up. The page decides no rule: trick winners, kontra steps, trumps and the
// result are the server's.
import { api, http, loadBids, matchRecordUrl, dealRecordUrl } from "./api.js";
import { initPage, currentPlayer, askName, toast, errorText, seatName, tableUrl } from "./common.js";
import { html, join, setHTML } from "./html.js";
import { t, onLangChange, bidName, stepName, partName } from "./i18n.js";
import { cardSvg, cardLabel, cardShort, sortHand, SUIT_SYMBOL } from "./cards.js";
import { SEAT_COLORS } from "./view/names.js";
import { resultHtml } from "./view/result.js";

const $ = (id) => document.getElementById(id);
const R = { matches: [], bids: [], tableId: null, record: null, view: null, k: 0, frames: [], i: 0 };

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
    return html`<li class="match-item" data-testid="match-${m.table_id}">
      <span class="players"><span class="muted">${t("matches.players")}:</span> ${names}</span>
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
  renderDeals();
  if (k !== null && R.record.deals[k]) await showReplay(k);
  else box.scrollIntoView({ behavior: "smooth", block: "start" });
}

function renderDeals() {
  const rec = R.record;
  const names = rec.players;
  const rows = rec.deals.map((d, k) => {
    // the contract and scores as the server's result states them (the engine's, not worked out here)
    const res = R.view && R.view.match && R.view.match.results[k];
    const scores = res ? ` · ${res.scores.map((s, i) => `${names[i]} ${s > 0 ? "+" : ""}${s}`).join(", ")}` : "";
    return html`<li data-testid="deal-${k}"><strong>${k + 1}.</strong>
      <span>${res ? `${names[res.declarer]}: ${bidName(res.bid, R.bids)}` : ""}${scores}</span>
      <button type="button" class="small primary" data-replay="${k}" data-testid="replay-${k}">${t("matches.replay")}</button>
      <a class="button small" href="${dealRecordUrl(R.tableId, k)}" download="ulti-${R.tableId}-deal-${k + 1}.json" data-testid="download-deal-${k}">${t("matches.download.deal")}</a></li>`;
  });
  setHTML($("deals"), html`<h2>${t("matches.deals")}: ${names.join(", ")}</h2>
    <p><a class="button small" href="${matchRecordUrl(R.tableId)}" download="ulti-${R.tableId}.json" data-testid="download-match">${t("matches.download")}</a></p>
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
  R.i = 0;
  history.replaceState(null, "", `/matches.html?t=${encodeURIComponent(R.tableId)}&k=${k}`);
  $("replay").hidden = false;
  renderReplay();
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
    case "trump": return t("log.trump", { name, suit: `${SUIT_SYMBOL[a.suit]} ${t(`suit.${a.suit}`)}` });
    case "give_up": return t("log.giveup", { name });
    case "kontra": {
      const step = stepName(a.step);
      return a.parts && a.parts.length ? t("log.kontra", { name, step, parts: a.parts.map(partName).join(", ") }) : t("log.kontra.decline", { name, step });
    }
    case "play": return t("log.play", { name, card: cardLabel(a.card) });
    default: return "";
  }
}

/** Who sits where, for resultHtml: the table view when we have it, else the record's names. */
function resultState(names) {
  if (R.view && R.view.table) return R.view;
  return { table: { seats: names.map((name) => ({ kind: "player", name })) } };
}

function contractHtml(v, names) {
  const c = v.contract;
  if (!c) return "";
  const trump = c.trump ? ` · ${SUIT_SYMBOL[c.trump]} ${t(`suit.${c.trump}`)}` : "";
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
  const cards = shown.cards.map((c, i) => {
    const seat = (shown.leader + i) % 3;
    const won = seat === winner ? " winning" : "";
    return html`<div class="rp-trick-card${won}" style="--seat-color:${SEAT_COLORS[seat]}"${won ? html` data-testid="replay-winning-card"` : ""}><span class="mini-card">${cardSvg(c)}</span><small><span class="dot"></span> ${names[seat]}${won ? " ★" : ""}</small></div>`;
  });
  const note = winner === null ? ""
    : html`<div class="center-note" data-testid="replay-trick-winner" data-seat="${winner}">${t("table.takes", { name: names[winner] })}</div>`;
  return html`<div class="rp-trick" data-testid="replay-trick">${cards}</div>${note}`;
}

function renderReplay() {
  const fr = R.frames[R.i];
  const v = fr.view;
  const names = R.record.players;
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
  const logItems = R.frames.slice(1, R.i + 1).map((f) => f.action).filter((a) => a.action !== "play")
    .map((a) => html`<li>${actionText(a, names)}</li>`);
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
    <p data-testid="replay-action">${fr.action ? actionText(fr.action, names) : t("replay.start")}</p>
    ${contractHtml(v, names)}
  </div>
  <div class="felt replay-felt" data-testid="replay-felt">
    <div class="rp-seats">${seatsHtml}</div>
    <div class="rp-center">${talon}${trickHtml(v, names)}</div>
  </div>
  <div class="rp-bottom">
    <div class="card-panel"><h3>${t("table.log")}</h3><ol class="log-list">${logItems}</ol></div>
    ${resHtml ? html`<div class="card-panel">${resHtml}</div>` : ""}
  </div>`);
  $("replay").querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go)));
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
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
