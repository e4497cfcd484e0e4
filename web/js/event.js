// The cross-table of a duplicate event (protocol §23): its tables, each deal's results and matchpoints
// as far as the viewer may see (the server hides what it may not: no peeking), and the standings.
// It asks GET /api/events/{id} again every couple of seconds; joining and starting are buttons here.
import { http, loadBids } from "./api.js";
import { initPage, currentPlayer, askName, toast, errorText, tableUrl } from "./common.js";
import { html, setHTML } from "./html.js";
import { t, onLangChange, applyStatic, bidName } from "./i18n.js";

const eventId = new URLSearchParams(location.search).get("e");
const root = document.getElementById("event-root");
let view = null;
let player = null;
let bids = [];
const signed = (n) => `${n > 0 ? "+" : ""}${n}`;

function seatLine(s) {
  return s.name || "–";
}

function renderHead() {
  const ev = view.event;
  root.dataset.status = ev.status;
  root.dataset.visible = String(view.visible_deals);
  setHTML(document.getElementById("event-head"), html`<p>
    <span class="status ${ev.status}" data-testid="event-status">${t(`event.status.${ev.status}`)}</span>
    ${t("lobby.event.line", { host: ev.host_name, tables: ev.tables, deals: ev.deals })}</p>
    <ul class="table-list">${view.tables.map((tb) => html`<li class="lobby-table" data-testid="event-table-${tb.table}">
      <strong>${t("event.table", { n: tb.table })}</strong> · ${tb.seats.map(seatLine).join(", ")} ·
      ${t("lobby.dealsof", { played: tb.deals_played, planned: ev.deals })}</li>`)}</ul>`);
  const actions = [];
  if (view.you) {
    actions.push(html`<a class="button primary" href="${tableUrl(view.you.table_id)}" data-testid="your-table">${t("event.yourtable", { n: view.you.table })}</a>`);
  } else if (ev.status === "open") {
    for (const tb of view.tables) {
      if (tb.seats.some((s) => s.kind === "open")) {
        actions.push(html`<button type="button" data-join="${tb.table}" data-testid="join-table-${tb.table}">${t("event.join", { n: tb.table })}</button>`);
      }
    }
  }
  if (ev.status === "open" && player && player.id === ev.host) {
    actions.push(html`<button type="button" class="primary" data-start="1" data-testid="start-event">${t("event.start")}</button>`);
  }
  if (view.record) {
    actions.push(html`<a class="button" href="${view.record}" download="event-${ev.id}.json" data-testid="event-record">${t("event.record")}</a>`);
  }
  const box = document.getElementById("event-actions");
  setHTML(box, html`<p class="actions">${actions}</p>`);
  box.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", () => join(Number(b.dataset.join))));
  box.querySelectorAll("[data-start]").forEach((b) => b.addEventListener("click", start));
}

function renderStandings() {
  const rows = view.standings.map((s, i) => html`<tr data-testid="standing-${s.table}-${s.seat}" data-mp="${s.matchpoints}" data-top="${s.top}">
    <td>${i + 1}</td><td>${s.name}${s.bot ? html` <small class="badge">${t("seat.botmark")}</small>` : ""}</td><td>${t("event.table", { n: s.table })}</td>
    <td>${s.matchpoints} / ${s.top}</td><td>${s.percent === null ? "–" : s.percent.toFixed(2)}</td></tr>`);
  setHTML(document.getElementById("event-standings"), html`<table class="sheet" data-testid="standings-table">
    <thead><tr><th>#</th><th>${t("event.player")}</th><th>${t("event.table", { n: "" })}</th><th>${t("event.mp")}</th><th>${t("event.percent")}</th></tr></thead>
    <tbody>${rows}</tbody></table>`);
}

function renderCross() {
  const parts = view.deals.map((d) => {
    if (!d.visible) {
      return html`<section class="cross-deal hidden" data-testid="deal-${d.index}" data-visible="0">
        <h3>${t("event.deal", { n: d.index + 1 })}</h3><p class="muted" data-testid="deal-${d.index}-hidden">${t("event.hidden", { done: d.finished })}</p></section>`;
    }
    const rows = d.results.map((r) => html`<tr data-testid="result-${d.index}-${r.table}" data-mp="${r.matchpoints.join(",")}" data-scores="${r.scores.join(",")}">
      <td>${t("event.table", { n: r.table })}</td>
      <td>${r.bid ? bidName(r.bid, bids) : ""}${r.given_up ? html` <small>(${t("event.gave_up")})</small>` : ""}</td>
      <td>${r.declarer_name || ""}</td>
      <td>${r.scores.map(signed).join(" / ")}</td>
      <td>${r.matchpoints.join(" / ")}</td></tr>`);
    return html`<section class="cross-deal" data-testid="deal-${d.index}" data-visible="1">
      <h3>${t("event.deal", { n: d.index + 1 })}</h3>
      <table class="sheet"><thead><tr><th>${t("event.table", { n: "" })}</th><th>${t("event.contract")}</th><th>${t("event.declarer")}</th><th>${t("event.scores")}</th><th>${t("event.mp")}</th></tr></thead>
      <tbody>${rows}</tbody></table></section>`;
  });
  setHTML(document.getElementById("event-cross"), html`${parts}`);
}

function render() {
  if (!view) return;
  renderHead();
  renderStandings();
  renderCross();
}

async function refresh() {
  try {
    view = await http("GET", `/api/events/${encodeURIComponent(eventId)}`);
    render();
  } catch (e) {
    toast(errorText(e), "error");
  }
}

async function join(n) {
  try {
    const res = await http("POST", `/api/events/${encodeURIComponent(eventId)}/join`, { table: n });
    location.href = tableUrl(res.table_id);
  } catch (e) {
    toast(errorText(e), "error");
  }
}

async function start() {
  try {
    await http("POST", `/api/events/${encodeURIComponent(eventId)}/start`, {});
    await refresh();
  } catch (e) {
    toast(errorText(e), "error");
  }
}

async function main() {
  initPage("lobby");
  if (!eventId) {
    location.href = "/index.html";
    return;
  }
  player = await currentPlayer();
  if (!player) player = await askName(document.getElementById("name-slot"));
  try { bids = (await loadBids()).bids; } catch { bids = []; }
  await refresh();
  setInterval(refresh, 2000);
  onLangChange(() => { applyStatic(); render(); });
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
