// Past matches (GET /api/me/matches) and a deal replay rebuilt client-side from the deal record.
import { api, loadBids, matchRecordUrl, dealRecordUrl } from "./api.js";
import { initPage, currentPlayer, askName, esc, toast, errorText, seatName, tableUrl } from "./common.js";
import { t, onLangChange, bidName, stepName, partName } from "./i18n.js";
import { cardSvg, cardLabel, cardShort, sortHand, trickWinner, SUIT_SYMBOL } from "./cards.js";
import { resultHtml, SEAT_COLORS } from "./render.js";

const $ = (id) => document.getElementById(id);
const R = { matches: [], bids: [], tableId: null, record: null, view: null, deal: null, k: 0, steps: [], i: 0 };

// ------------------------------------------------------------------ replay engine

/**
 * Every position of a deal, from the record alone: the hands as dealt, then one snapshot per action.
 * The trick winner: the highest trump, else the highest card of the suit led, in the contract's order.
 */
export function replaySteps(rec) {
  const hands = rec.hands.map((h) => [...h]);
  let talon = [];
  let bid = null;
  let bidder = null;
  let trump = null;
  let trick = [];
  let leader = null;
  const tricks = [];
  const won = [0, 0, 0];
  const log = [];
  const kontra = {};
  let played = 0;
  let chainStep = 1;
  const steps = [];
  const snap = (action) => steps.push({
    action,
    hands: hands.map((h) => [...h]),
    talon: [...talon],
    bid, bidder, trump,
    trick: { leader, cards: [...trick] },
    tricks: tricks.map((x) => ({ ...x })),
    won: [...won],
    log: [...log],
    kontra: { ...kontra },
  });
  snap(null);
  for (const a of rec.actions) {
    const h = hands[a.seat];
    let kStep = null;
    if (a.action === "bid") {
      if (a.discard) {
        for (const c of a.discard) h.splice(h.indexOf(c), 1);
        talon = [...a.discard];
      }
      bid = a.bid;
      bidder = a.seat;
      trump = bid.startsWith("H-") ? "H" : null;
    } else if (a.action === "take") {
      h.push(...talon);
    } else if (a.action === "trump") {
      trump = a.suit;
    } else if (a.action === "kontra") {
      kStep = played < 3 ? 0 : Math.min(chainStep, 5);
      if (a.parts && a.parts.length) {
        for (const p of a.parts) kontra[p] = (kontra[p] || 1) * 2;
        if (played >= 3) chainStep += 1;
      }
    } else if (a.action === "play") {
      if (!trick.length) leader = a.seat;
      h.splice(h.indexOf(a.card), 1);
      trick.push(a.card);
      played += 1;
      if (trick.length === 3) {
        const winner = trickWinner(trick, leader, trump, bid);
        tricks.push({ leader, cards: [...trick], winner });
        won[winner] += 1;
        trick = [];
        leader = winner;
      }
    }
    log.push({ ...a, step: a.action === "kontra" ? kStep : null });
    snap(a);
  }
  return steps;
}

// ------------------------------------------------------------------ lists

function playerNames(summary) {
  return summary.seats.map((s) => (s.kind === "player" ? s.name : seatName(s)));
}

function renderMatches() {
  const list = $("match-list");
  if (!R.matches.length) {
    list.innerHTML = `<li class="empty" data-testid="no-matches">${esc(t("matches.none"))}</li>`;
    return;
  }
  list.innerHTML = R.matches.map((m) => {
    const s = m.summary;
    const names = playerNames(s).map((n, i) => (i === m.seat ? `<strong>${esc(n)}</strong>` : esc(n))).join(", ");
    return `<li class="match-item" data-testid="match-${esc(m.table_id)}">
      <span class="players"><span class="muted">${esc(t("matches.players"))}:</span> ${names}</span>
      <span class="status ${esc(m.status)}">${esc(t(`lobby.status.${m.status}`))}</span>
      <span>${esc(t("lobby.dealsof", { played: s.deals_played, planned: s.deals_planned }))}</span>
      <a class="button small" href="${esc(tableUrl(m.table_id))}">${esc(t("matches.open"))}</a>
      <button type="button" class="small primary" data-show="${esc(m.table_id)}" data-testid="show-${esc(m.table_id)}">${esc(t("matches.show"))}</button>
    </li>`;
  }).join("");
  list.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => showDeals(b.dataset.show)));
}

async function showDeals(tableId, k = null) {
  R.tableId = tableId;
  const box = $("deals");
  box.hidden = false;
  try {
    R.record = await api.matchRecord(tableId);
  } catch (e) {
    box.innerHTML = `<p>${esc(e.code === "not_found" ? t("matches.notstarted") : errorText(e))}</p>`;
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
    const bids = d.actions.filter((a) => a.action === "bid");
    const last = bids[bids.length - 1];
    const res = R.view && R.view.match && R.view.match.results[k];
    const scores = res ? ` · ${res.scores.map((s, i) => `${esc(names[i])} ${s > 0 ? "+" : ""}${s}`).join(", ")}` : "";
    return `<li data-testid="deal-${k}"><strong>${k + 1}.</strong>
      <span>${last ? `${esc(names[last.seat])}: ${esc(bidName(last.bid, R.bids))}` : ""}${scores}</span>
      <button type="button" class="small primary" data-replay="${k}" data-testid="replay-${k}">${esc(t("matches.replay"))}</button>
      <a class="button small" href="${esc(dealRecordUrl(R.tableId, k))}" download="ulti-${esc(R.tableId)}-deal-${k + 1}.json" data-testid="download-deal-${k}">${esc(t("matches.download.deal"))}</a></li>`;
  }).join("");
  $("deals").innerHTML = `<h2>${esc(t("matches.deals"))}: ${esc(names.join(", "))}</h2>
    <p><a class="button small" href="${esc(matchRecordUrl(R.tableId))}" download="ulti-${esc(R.tableId)}.json" data-testid="download-match">${esc(t("matches.download"))}</a></p>
    <ol class="deal-list">${rows}</ol>`;
  $("deals").querySelectorAll("[data-replay]").forEach((b) => b.addEventListener("click", () => showReplay(Number(b.dataset.replay))));
}

async function showReplay(k) {
  R.k = k;
  try {
    R.deal = await api.dealRecord(R.tableId, k);
  } catch (e) {
    toast(errorText(e), "error");
    return;
  }
  R.steps = replaySteps(R.deal);
  R.i = 0;
  history.replaceState(null, "", `/matches.html?t=${encodeURIComponent(R.tableId)}&k=${k}`);
  $("replay").hidden = false;
  renderReplay();
  $("replay").scrollIntoView({ behavior: "smooth", block: "start" });
}

// ------------------------------------------------------------------ the replay view

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
      const steps = ["kontra", "rekontra", "szubkontra", "hirskontra", "mordkontra", "fedáksári"];
      const step = stepName(steps[a.step || 0]);
      return a.parts && a.parts.length ? t("log.kontra", { name, step, parts: a.parts.map(partName).join(", ") }) : t("log.kontra.decline", { name, step });
    }
    case "play": return t("log.play", { name, card: cardLabel(a.card) });
    default: return "";
  }
}

function renderReplay() {
  const st = R.steps[R.i];
  const names = R.record.players;
  const dealer = R.deal.dealer;
  const contract = st.bid ? { bid: st.bid, trump: st.trump } : null;
  const lastTrick = st.tricks.length ? st.tricks[st.tricks.length - 1] : null;
  const showTrick = st.trick.cards.length ? st.trick : (lastTrick || null);
  const trickCards = showTrick ? showTrick.cards.map((c, i) => {
    const seat = (showTrick.leader + i) % 3;
    return `<div class="rp-trick-card" style="--seat-color:${SEAT_COLORS[seat]}"><span class="mini-card">${cardSvg(c)}</span><small><span class="dot"></span> ${esc(names[seat])}</small></div>`;
  }).join("") : "";
  const seatsHtml = [0, 1, 2].map((s) => {
    const badges = [];
    if (s === dealer) badges.push(`<span class="badge dealer">${esc(t("replay.dealer"))}</span>`);
    if (s === (dealer + 1) % 3) badges.push(`<span class="badge">${esc(t("replay.opener"))}</span>`);
    if (st.bidder === s) badges.push(`<span class="badge decl">${esc(bidName(st.bid, R.bids))}</span>`);
    return `<div class="seat-inner" style="--seat-color:${SEAT_COLORS[s]}" data-testid="replay-seat-${s}">
      <div class="seat-head"><span class="dot"></span><strong>${esc(names[s])}</strong> ${badges.join(" ")}</div>
      <div class="seat-meta">${esc(t("seat.cards", { n: st.hands[s].length }))} · <span data-testid="replay-won-${s}">${esc(t("seat.tricks", { n: st.won[s] }))}</span></div>
      <div class="replay-hand" aria-label="${esc(t("table.hand.of", { name: names[s] }))}">${sortHand(st.hands[s], contract).map((c) => `<span class="mini-card" role="img" aria-label="${esc(cardLabel(c))}" title="${esc(cardLabel(c))}">${cardSvg(c)}</span>`).join("")}</div>
    </div>`;
  }).join("");
  const talon = st.talon.length ? `<div class="talon"><span class="lbl">${esc(t("table.talon"))}</span>${st.talon.map((c) => `<span class="mini-card talon-card" role="img" aria-label="${esc(cardLabel(c))}">${cardSvg(c)}</span>`).join("")}</div>` : "";
  const done = R.i === R.steps.length - 1;
  const res = done && R.view && R.view.match && R.view.match.results[R.k];
  const resHtml = res ? resultHtml({ state: R.view, bids: R.bids }, res, R.k) : "";
  const logItems = st.log.filter((a) => a.action !== "play").map((a) => `<li>${esc(actionText(a, names))}</li>`).join("");
  $("replay").innerHTML = `<div class="card-panel">
    <h2 data-testid="replay-title">${esc(t("replay.title", { n: R.k + 1 }))}</h2>
    <div class="replay-controls" role="toolbar" aria-label="${esc(t("matches.replay"))}">
      <button type="button" class="small" data-go="first" data-testid="replay-first">« ${esc(t("replay.first"))}</button>
      <button type="button" class="small" data-go="prev" data-testid="replay-prev">‹ ${esc(t("replay.prev"))}</button>
      <button type="button" class="small primary" data-go="next" data-testid="replay-next">${esc(t("replay.next"))} ›</button>
      <button type="button" class="small" data-go="trick" data-testid="replay-next-trick">${esc(t("replay.nexttrick"))} ›</button>
      <button type="button" class="small" data-go="last" data-testid="replay-last">${esc(t("replay.last"))} »</button>
      <span class="muted" data-testid="replay-step">${esc(t("replay.step", { i: R.i, n: R.steps.length - 1 }))}</span>
    </div>
    <p data-testid="replay-action">${esc(st.action ? actionText(R.steps[R.i].log[R.steps[R.i].log.length - 1], names) : t("replay.start"))}</p>
  </div>
  <div class="felt replay-felt" data-testid="replay-felt">
    <div class="rp-seats">${seatsHtml}</div>
    <div class="rp-center">${talon}<div class="rp-trick" data-testid="replay-trick">${trickCards}</div></div>
  </div>
  <div class="rp-bottom">
    <div class="card-panel"><h3>${esc(t("table.log"))}</h3><ol class="log-list">${logItems}</ol></div>
    ${resHtml ? `<div class="card-panel">${resHtml}</div>` : ""}
  </div>`;
  $("replay").querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go)));
}

function go(where) {
  const n = R.steps.length - 1;
  if (where === "first") R.i = 0;
  if (where === "prev") R.i = Math.max(0, R.i - 1);
  if (where === "next") R.i = Math.min(n, R.i + 1);
  if (where === "last") R.i = n;
  if (where === "trick") {
    const count = R.steps[R.i].tricks.length;
    while (R.i < n && R.steps[R.i].tricks.length === count) R.i += 1;
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
    if (!$("replay").hidden && R.steps.length) renderReplay();
  });
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
