// A tournament's page (docs/protocol/tournaments.md): the schedule, this round's tables (links to watch
// where the format allows), the standings with their tie-breaks, each player's round results, the
// countdown to the next round, registration, and the host's desk. Without ?id= it lists tournaments
// and offers the form to create one. It asks GET /api/tournaments/{id} again every two seconds; when
// the viewer's table of a round is ready, it says so in the page, in the tab (the turn signal's mark)
// and with the turn's sound.
import { http } from "./api.js";
import { botLevels, levelOptions } from "./levels.js";
import { initPage, currentPlayer, askName, toast, errorText, tableUrl } from "./common.js";
import { html, setHTML } from "./html.js";
import { t, onLangChange, applyStatic } from "./i18n.js";
import { showTurnInTab } from "./signals.js";
import { playCue } from "./sound.js";

const tournamentId = new URLSearchParams(location.search).get("id");
let view = null;
let readyTable = null; // the table whose readiness was signalled (once per table)
const base = () => `/api/tournaments/${encodeURIComponent(tournamentId)}`;
const signed = (n) => (n === null || n === undefined ? "–" : `${n > 0 ? "+" : ""}${n}`);

async function act(method, path, body) {
  try {
    await http(method, path, body);
    await refresh();
  } catch (e) {
    // the rule's own words follow the refusal's name (the server names the rule or the field)
    toast(`${errorText(e)}${e.message && !errorText(e).includes(e.message) ? ` (${e.message})` : ""}`, "error");
  }
}

function nameOf(p) {
  if (p === null || p === undefined) return t("tournament.bot");
  return view.players[p].name;
}

// ---------------------------------------------------------------- the head: status, countdown, actions

// the server's clock less the page's, so an arena's time left does not depend on the viewer's clock
let skew = 0;

function countdown() {
  if (view && view.arena && view.arena.ends_at) {
    if (!["registering", "running"].includes(view.status)) return "";
    const left = Math.max(0, Math.round((view.arena.ends_at - (Date.now() + skew)) / 1000));
    if (left === 0) return t("tournament.arena_over");
    return t("tournament.arena_left", { m: Math.floor(left / 60), ss: String(left % 60).padStart(2, "0") });
  }
  if (!view || !view.next_round_at) return "";
  const left = Math.max(0, Math.round((view.next_round_at - Date.now()) / 1000));
  return t("tournament.next_in", { s: left });
}

function renderHead() {
  const root = document.getElementById("tournament-root");
  root.dataset.status = view.status;
  root.dataset.round = String(view.round);
  document.getElementById("tournament-name").textContent = view.name;
  const s = view.settings;
  setHTML(document.getElementById("tournament-head"), html`<p>
    <span class="status ${view.status}" data-testid="tournament-status">${t(`tournament.status.${view.status}`)}</span>
    ${view.paused ? html` <span class="badge" data-testid="tournament-paused">${t("tournament.paused")}</span>` : ""}
    · ${t(`tournament.format.${s.format}`)}${view.arena ? "" : html` · ${t("tournament.round_of", { n: view.round, of: s.rounds })}`}
    · ${t("tournament.deals_line", { deals: s.deals_per_round })} · ${t("tournament.host", { name: view.host_name })}
    ${s.rated ? html` · <strong>${t("tournament.rated")}</strong>` : ""}</p>
    <p class="countdown" data-testid="countdown">${countdown()}</p>`);
  const you = view.you;
  const actions = [];
  if (!you && view.status !== "published" && (view.status === "registering" || s.late_entry)) {
    if (s.format === "teams") {
      // a team tournament seats A players with A players: the team and the letter come with the entry
      actions.push(html`<label>${t("tournament.team")} <input name="team" maxlength="64" data-testid="register-team"></label>
        <label>${t("tournament.letter")} <select name="letter" data-testid="register-letter"><option>A</option><option>B</option><option>C</option></select></label>`);
    }
    actions.push(html`<button type="button" class="primary" data-do="register" data-testid="register">${t("tournament.register")}</button>`);
  }
  if (you) {
    actions.push(html`<span data-testid="you-status" data-status="${you.status}">${t(`tournament.you.${you.status}`)}</span>`);
    if (you.status === "registered" && view.status === "registering") {
      actions.push(html`<button type="button" class="primary" data-do="checkin" data-testid="checkin">${t("tournament.checkin")}</button>`);
    }
    if (you.status !== "withdrawn" && !["finished", "published"].includes(view.status)) {
      actions.push(html`<button type="button" data-do="withdraw" data-testid="withdraw">${t("tournament.withdraw")}</button>`);
    }
    if (you.waiting) {
      actions.push(html`<span class="badge" data-testid="arena-waiting">${t("tournament.arena_waiting")}</span>`);
    }
    if (you.table && !you.table.finished && you.status !== "withdrawn") {
      actions.push(html`<a class="button primary" href="${tableUrl(you.table.table_id)}" data-testid="your-table" data-table="${you.table.table_id}">${t("tournament.yourtable", { n: you.table.table, round: you.table.round })}</a>`);
    }
  }
  if (view.record) {
    actions.push(html`<a class="button" href="${view.record}" download="tournament-${view.id}.json" data-testid="tournament-record">${t("tournament.record")}</a>`);
  }
  const box = document.getElementById("tournament-actions");
  setHTML(box, html`<p class="actions">${actions}</p>`);
  box.querySelectorAll("[data-do]").forEach((b) => b.addEventListener("click", () => {
    if (b.dataset.do === "withdraw" && !confirm(t("tournament.withdraw.confirm"))) return;
    const team = box.querySelector("[data-testid=register-team]");
    const body = b.dataset.do === "register" && team
      ? { team: team.value.trim() || null, letter: box.querySelector("[data-testid=register-letter]").value } : {};
    act("POST", `${base()}/${b.dataset.do}`, body);
  }));
  signalReady();
}

/** Tell the player their table is ready: in the page, in the tab, with a sound (once per table). */
function signalReady() {
  const you = view.you;
  const table = you && you.status !== "withdrawn" && you.table && !you.table.finished ? you.table : null;
  const notice = document.getElementById("tournament-ready");
  if (!table) {
    notice.hidden = true;
    showTurnInTab(false);
    return;
  }
  setHTML(notice, html`${t("tournament.ready", { round: table.round, n: table.table })}
    <a class="button primary" href="${tableUrl(table.table_id)}" data-testid="ready-link">${t("tournament.go")}</a>`);
  notice.hidden = false;
  showTurnInTab(true);
  if (readyTable !== table.table_id) {
    readyTable = table.table_id;
    playCue("turn");
  }
}

// ---------------------------------------------------------------- the host's desk

function renderDesk() {
  const panel = document.getElementById("desk-panel");
  panel.hidden = !view.is_host;
  if (!view.is_host) return;
  const buttons = [];
  if (view.status === "registering") buttons.push(["start", "tournament.desk.start"]);
  if (view.status === "running" && !view.paused) buttons.push(["pause", "tournament.desk.pause"]);
  if (view.paused) buttons.push(["resume", "tournament.desk.resume"]);
  if (view.status === "finished") buttons.push(["publish", "tournament.desk.publish"]);
  const rows = view.players.map((p) => html`<tr data-testid="desk-player-${p.player}">
    <td>${p.name}${p.bot ? html` <small class="badge">${t("seat.botmark")}</small>` : ""}</td>
    <td>${t(`tournament.pstatus.${p.status}`)}${p.replaced ? html` · ${t("tournament.replaced")}` : ""}</td>
    <td>${p.status !== "withdrawn" && ["registering", "running"].includes(view.status) ? html`
      <button type="button" class="small" data-desk="remove" data-player="${p.player}" data-testid="desk-remove-${p.player}">${t("tournament.desk.remove")}</button>
      ${p.replaced ? "" : html`<button type="button" class="small" data-desk="replace" data-player="${p.player}" data-testid="desk-replace-${p.player}">${t("tournament.desk.replace")}</button>`}` : ""}</td></tr>`);
  setHTML(document.getElementById("desk"), html`
    <p class="actions">${buttons.map(([a, key]) => html`<button type="button" class="primary" data-desk="${a}" data-testid="desk-${a}">${t(key)}</button>`)}</p>
    <form id="desk-add" class="inline-form" data-testid="desk-add-form">
      <label class="field"><span>${t("tournament.desk.add")}</span><input name="name" maxlength="64" data-testid="desk-add-name"></label>
      <button type="submit" class="small">${t("tournament.desk.addbtn")}</button></form>
    <form id="desk-bots" class="inline-form" data-testid="desk-bots-form">
      <label class="field"><span>${t("tournament.desk.bots")}</span><input type="number" name="count" min="1" max="300" value="1" data-testid="desk-bots-count"></label>
      <button type="submit" class="small" data-testid="desk-bots-add">${t("tournament.desk.addbtn")}</button></form>
    <table class="sheet"><tbody>${rows}</tbody></table>
    <form id="desk-correct" class="inline-form" data-testid="desk-correct-form">
      <strong>${t("tournament.desk.correct")}</strong>
      <label>${t("tournament.round_label")} <input type="number" name="round" min="1" value="${Math.max(1, view.round)}" data-testid="correct-round"></label>
      <label>${t("tournament.table_label")} <input type="number" name="table" min="1" value="1" data-testid="correct-table"></label>
      ${[0, 1, 2, 3].map((i) => html`<label>${t(i === 3 ? "tournament.seat_points.four" : "tournament.seat_points", { n: i + 1 })} <input type="number" name="p${i}" data-testid="correct-p${i}"></label>`)}
      <label class="field"><span>${t("tournament.correct.deals")}</span><textarea name="deals" rows="3" data-testid="correct-deals"></textarea></label>
      <p class="hint">${t("tournament.correct.keep")}</p>
      <label>${t("tournament.reason")} <input name="reason" maxlength="500" data-testid="correct-reason"></label>
      <button type="submit" class="small" data-testid="correct-submit">${t("tournament.desk.correctbtn")}</button></form>`);
  const desk = document.getElementById("desk");
  desk.querySelectorAll("button[data-desk]").forEach((b) => b.addEventListener("click", () => {
    const body = { action: b.dataset.desk };
    if (b.dataset.player !== undefined) body.player = Number(b.dataset.player);
    act("POST", `${base()}/desk`, body);
  }));
  document.getElementById("desk-add").addEventListener("submit", (e) => {
    e.preventDefault();
    act("POST", `${base()}/desk`, { action: "add", name: e.target.name.value.trim() });
  });
  document.getElementById("desk-bots").addEventListener("submit", (e) => {
    e.preventDefault();
    act("POST", `${base()}/desk`, { action: "add_bots", count: Number(e.target.count.value) });
  });
  document.getElementById("desk-correct").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target;
    // what the director leaves blank is kept as recorded (points, or the deals' scores sport ulti compares)
    const points = [0, 1, 2, 3].map((i) => f[`p${i}`].value.trim()).filter((v) => v !== "").map(Number);
    const lines = f.deals.value.split("\n").map((line) => line.trim()).filter(Boolean);
    const deals = lines.map((line) => line.split(/[\s,;]+/).map(Number));
    act("POST", `${base()}/desk`, {
      action: "correct", round: Number(f.round.value), table: Number(f.table.value),
      ...(points.length ? { points } : {}), ...(deals.length ? { deals } : {}), reason: f.reason.value.trim() || null,
    });
  });
}

// ---------------------------------------------------------------- standings and schedule

/** An arena's standings: many short matches, so a line shows the matches played, not a column per wave. */
function renderArenaStandings() {
  const state = (p) => (view.arena.playing.includes(p) ? "playing" : view.arena.waiting.includes(p) ? "waiting" : "");
  const live = view.status === "running";
  const rows = view.standings.map((s) => html`<tr data-testid="standing-${s.player}" data-rank="${s.rank}" data-total="${s.total}" data-matches="${s.rounds.filter((r) => r !== null).length}" class="${s.withdrawn ? "muted" : ""}">
    <td>${s.rank}</td><td><button type="button" class="link" data-player="${s.player}" data-testid="player-link-${s.player}">${s.name}</button>${s.withdrawn ? html` <small>(${t("tournament.pstatus.withdrawn")})</small>` : ""}</td>
    <td><strong>${s.total}</strong></td><td>${s.rounds.filter((r) => r !== null).length}</td>
    <td>${s.wins}</td><td>${s.opponents}</td>
    <td data-testid="arena-state-${s.player}">${live && state(s.player) ? t(`tournament.arena_state.${state(s.player)}`) : ""}</td></tr>`);
  setHTML(document.getElementById("tournament-standings"), html`<table class="sheet" data-testid="standings-table">
    <thead><tr><th>#</th><th>${t("event.player")}</th><th>${t("tournament.total")}</th><th>${t("tournament.matches")}</th>
    <th>${t("tournament.tb.wins")}</th><th>${t("tournament.tb.opponents")}</th><th></th></tr></thead>
    <tbody>${rows}</tbody></table>`);
}

function renderStandings() {
  if (view.arena) {
    renderArenaStandings();
    document.querySelectorAll("#tournament-standings [data-player]").forEach((b) => b.addEventListener("click", () => showPlayer(Number(b.dataset.player))));
    setHTML(document.getElementById("tie-breaks"), html`${view.tie_breaks.map((c) => html`<li data-testid="tie-break-${c.name}"><strong>${t(`tournament.tb.${c.name}`)}</strong>: ${t(`tournament.tbhelp.${c.name}`)}</li>`)}`);
    return;
  }
  const rounds = Array.from({ length: view.round }, (_, i) => i + 1);
  const rows = view.standings.map((s) => html`<tr data-testid="standing-${s.player}" data-rank="${s.rank}" data-total="${s.total}" class="${s.withdrawn ? "muted" : ""}">
    <td>${s.rank}</td><td><button type="button" class="link" data-player="${s.player}" data-testid="player-link-${s.player}">${s.name}</button>${s.withdrawn ? html` <small>(${t("tournament.pstatus.withdrawn")})</small>` : ""}</td>
    <td><strong>${s.total}</strong></td>${s.rounds.map((r) => html`<td>${signed(r)}</td>`)}
    <td>${s.wins}</td><td>${s.opponents}</td><td>${s.best_round}</td></tr>`);
  setHTML(document.getElementById("tournament-standings"), html`<table class="sheet" data-testid="standings-table">
    <thead><tr><th>#</th><th>${t("event.player")}</th><th>${t("tournament.total")}</th>
    ${rounds.map((r) => html`<th>${t("tournament.round_short", { n: r })}</th>`)}
    <th>${t("tournament.tb.wins")}</th><th>${t("tournament.tb.opponents")}</th><th>${t("tournament.tb.best_round")}</th></tr></thead>
    <tbody>${rows}</tbody></table>
    ${view.team_standings ? html`<h3>${t("tournament.teams")}</h3><table class="sheet" data-testid="team-standings">
      <tbody>${view.team_standings.map((x, i) => html`<tr data-testid="team-${i + 1}"><td>${i + 1}</td><td>${x.team}</td><td><strong>${x.total}</strong></td></tr>`)}</tbody></table>` : ""}`);
  document.querySelectorAll("#tournament-standings [data-player]").forEach((b) => b.addEventListener("click", () => showPlayer(Number(b.dataset.player))));
  setHTML(document.getElementById("tie-breaks"), html`${view.tie_breaks.map((c) => html`<li data-testid="tie-break-${c.name}"><strong>${t(`tournament.tb.${c.name}`)}</strong>: ${t(`tournament.tbhelp.${c.name}`)}</li>`)}`);
}

/** One player's rounds: table, opponents, the points at the table and in the standings. */
async function showPlayer(number) {
  const box = document.getElementById("player-results");
  try {
    const got = await http("GET", `${base()}/players/${number}`);
    const rows = got.rounds.map((r) => html`<tr data-testid="player-round-${r.round}">
      <td>${r.round}</td><td>${t("event.table", { n: r.table })}</td><td>${r.opponents.map((o) => o || t("tournament.bot")).join(", ")}</td>
      <td>${r.hidden ? t("tournament.hidden") : signed(r.table_points)}</td><td>${r.hidden ? "" : signed(r.points)}</td></tr>`);
    setHTML(box, html`<h3 data-testid="player-results-name">${got.player.name} · ${t("tournament.total")}: ${got.line.total}</h3>
      <table class="sheet"><thead><tr><th>${t("tournament.round_label")}</th><th>${t("tournament.table_label")}</th>
      <th>${t("tournament.opponents")}</th><th>${t("tournament.table_points")}</th><th>${t("tournament.round_points")}</th></tr></thead>
      <tbody>${rows}</tbody></table>`);
    box.hidden = false;
  } catch (e) {
    toast(errorText(e), "error");
  }
}

function renderSchedule() {
  const watchable = view.settings.format !== "duplicate" || ["finished", "published"].includes(view.status);
  const parts = [...view.rounds].reverse().map((r) => {
    const tables = r.tables.map((tb) => html`<li class="lobby-table" data-testid="round-${r.round}-table-${tb.table}" data-done="${tb.result ? "1" : "0"}">
      <strong>${t("event.table", { n: tb.table })}</strong> · ${tb.seats.map((p, i) => html`${nameOf(p)}${tb.result ? html` (${signed(tb.result.points[i])})` : ""}`).reduce((a, b) => html`${a}, ${b}`)}
      ${tb.result && tb.result.corrections.length ? html` <small class="badge" title="${tb.result.corrections.join("; ")}">${t("tournament.corrected")}</small>` : ""}
      ${!tb.result && (r.round === view.round || view.arena) && !r.hidden && watchable ? html` <a class="button small" href="${tableUrl(tb.table_id)}" data-testid="watch-${r.round}-${tb.table}">${t("tournament.watch")}</a>` : ""}
      ${r.hidden ? html` <small class="muted">${t("tournament.hidden")}</small>` : ""}</li>`);
    return html`<section data-testid="round-${r.round}"><h3>${t("tournament.round_label")} ${r.round}</h3><ul class="table-list">${tables}</ul></section>`;
  });
  setHTML(document.getElementById("tournament-schedule"), parts.length ? html`${parts}` : html`<p class="muted">${t("tournament.noround")}</p>`);
}

function render() {
  if (!view) return;
  renderHead();
  renderDesk();
  renderStandings();
  renderSchedule();
}

async function refresh() {
  try {
    const fresh = await http("GET", base());
    // the desk's forms keep what the host is typing: they are drawn again only when something changed
    // (an arena's server clock, ``now``, moves with every answer and changes nothing drawn)
    const drawn = (v) => JSON.stringify(v, (k, x) => (k === "now" ? undefined : x));
    const changed = !view || drawn(fresh) !== drawn(view);
    view = fresh;
    if (fresh.arena) skew = fresh.arena.now - Date.now();
    if (changed) render();
  } catch (e) {
    toast(errorText(e), "error");
  }
}

// ---------------------------------------------------------------- the list and the form

/** The form's bot level: the offered levels with their ratings, the director's recommended one chosen at first. */
async function renderLevels() {
  const offer = await botLevels();
  const select = document.getElementById("tournament-form").level;
  setHTML(select, levelOptions(offer, select.value || offer.recommended));
}

async function showList() {
  document.getElementById("tournament-list-panel").hidden = false;
  await renderLevels();
  const { tournaments } = await http("GET", "/api/tournaments");
  setHTML(document.getElementById("tournament-list"), tournaments.length
    ? html`${tournaments.map((x) => html`<li class="lobby-table" data-testid="tournament-${x.id}">
        <strong>${x.name}</strong> · ${t("tournament.host", { name: x.host_name })} · ${t(`tournament.status.${x.status}`)}
        <a class="button small" href="/tournament.html?id=${encodeURIComponent(x.id)}" data-testid="open-tournament-${x.id}">${t("tournament.open")}</a></li>`)}`
    : html`<li class="empty" data-testid="no-tournaments">${t("tournament.none")}</li>`);
  const form = document.getElementById("tournament-form");
  // an arena's length and bot wait are asked only when the arena is chosen
  const arenaOnly = () => form.querySelectorAll("[data-arena-only]").forEach((el) => { el.hidden = form.format.value !== "arena"; });
  form.format.addEventListener("change", arenaOnly);
  arenaOnly();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    const body = {
      name: f.name.value.trim(), format: f.format.value, rounds: Number(f.rounds.value),
      deals_per_round: Number(f.deals.value), move_seconds: Number(f.move_seconds.value),
      break_seconds: Number(f.break_seconds.value), level: f.level.value, entry: f.entry.value,
      rated: f.rated.checked, late_entry: f.late_entry.checked,
    };
    if (f.format.value === "arena") {
      body.minutes = Number(f.minutes.value);
      body.bot_wait_seconds = Number(f.bot_wait_seconds.value);
    }
    if (f.start.value) body.start = new Date(f.start.value).toISOString();
    try {
      const res = await http("POST", "/api/tournaments", body);
      location.href = `/tournament.html?id=${encodeURIComponent(res.tournament_id)}`;
    } catch (err) {
      form.querySelector("[data-testid=t-error]").textContent = `${errorText(err)} ${err.message || ""}`;
    }
  });
}

async function main() {
  initPage("lobby");
  let player = await currentPlayer();
  if (!player) player = await askName(document.getElementById("name-slot"));
  if (!tournamentId) {
    await showList();
    onLangChange(() => { applyStatic(); renderLevels(); });
    return;
  }
  document.getElementById("tournament-panels").hidden = false;
  await refresh();
  setInterval(refresh, 2000);
  // the countdown moves every second between two answers
  setInterval(() => {
    const el = document.querySelector("[data-testid=countdown]");
    if (el && view) el.textContent = countdown();
  }, 1000);
  onLangChange(() => { applyStatic(); render(); });
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
