// The player page (/@/<name>): the rating and its history as a chart, the matches played and won,
// the statistics per contract family, and the last matches with links to their replays.
// Reads the name from its own address and asks GET /api/players/{name}; every value is text (html`…`).
import { ApiError } from "./api.js";
import { initPage, errorText } from "./common.js";
import { t, partName, onLangChange, botName } from "./i18n.js";
import { html, setHTML } from "./html.js";
import { fetchPlayer, playerLink, ratingHtml, signed, when } from "./players.js";

const $ = (id) => document.getElementById(id);
const CHART = { width: 640, height: 220, left: 48, right: 12, top: 12, bottom: 28 };
let data = null;

/** The name in the address: everything after /@/, percent-decoded; null when it cannot be decoded. */
function nameFromPath() {
  const rest = location.pathname.replace(/^\/@\//, "");
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}

/** The rating history as an inline SVG line chart (one point per rated match, in time order). */
export function chart(history) {
  if (!history.length) return html`<p class="muted" data-testid="no-history">${t("player.nohistory")}</p>`;
  const values = history.map((p) => p.value);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const { width, height, left, right, top, bottom } = CHART;
  const w = width - left - right;
  const h = height - top - bottom;
  const x = (i) => left + (history.length === 1 ? w / 2 : (i * w) / (history.length - 1));
  const y = (v) => top + h - ((v - lo) * h) / (hi - lo);
  const pts = history.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const ticks = [hi, Math.round((hi + lo) / 2), lo];
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${t("player.history")}" data-points="${history.length}">
    ${ticks.map((v) => html`<line class="grid" x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line>
      <text class="tick" x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Math.round(v)}</text>`)}
    <text class="tick" x="${left}" y="${height - 8}">${when(history[0].at)}</text>
    ${history.length > 1 ? html`<text class="tick" x="${width - right}" y="${height - 8}" text-anchor="end">${when(history[history.length - 1].at)}</text>` : ""}
    <polyline class="line" points="${pts}"></polyline>
    ${history.map((p, i) => html`<circle class="dot" cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3.5"><title>${when(p.at)}: ${p.value}</title></circle>`)}
  </svg>`;
}

function average(side) {
  return side.average === null ? "–" : signed(side.average);
}

function renderCounts(m) {
  const row = (key, c) => html`<tr data-testid="count-${key}"><th scope="row">${t(`player.${key}`)}</th><td>${c.played}</td><td>${c.won}</td></tr>`;
  setHTML($("match-counts"), html`<table class="stats-table">
    <thead><tr><th></th><th scope="col">${t("player.played")}</th><th scope="col">${t("player.won")}</th></tr></thead>
    <tbody>${row("rated", m.rated)}${row("casual", m.casual)}</tbody></table>`);
}

function renderStats(s) {
  const averages = html`<p class="averages" data-testid="averages">${t("player.averages")}:
    ${t("player.as_declarer", { n: s.declarer.deals })} <strong data-testid="avg-declarer">${average(s.declarer)}</strong> ·
    ${t("player.as_defender", { n: s.defender.deals })} <strong data-testid="avg-defender">${average(s.defender)}</strong></p>`;
  if (!s.contracts.length) {
    setHTML($("stats"), html`${averages}<p class="muted">${t("player.nostats")}</p>`);
    return;
  }
  setHTML($("stats"), html`${averages}<table class="stats-table">
    <thead><tr><th scope="col">${t("player.contract")}</th><th scope="col">${t("player.declared")}</th>
      <th scope="col">${t("player.made")}</th><th scope="col">${t("player.kontrad")}</th>
      <th scope="col">${t("player.kontra_given")}</th><th scope="col">${t("player.kontra_won")}</th></tr></thead>
    <tbody>${s.contracts.map((c) => html`<tr data-testid="part-${c.part}"><th scope="row">${partName(c.part)}</th>
      <td>${c.declared}</td><td>${c.made}</td><td>${c.kontrad}</td><td>${c.kontra_given}</td><td>${c.kontra_won}</td></tr>`)}</tbody>
  </table>`);
}

function renderRecent(recent) {
  if (!recent.length) {
    setHTML($("recent"), html`<li class="muted">${t("player.nomatches")}</li>`);
    return;
  }
  setHTML($("recent"), html`${recent.map((m) => html`<li class="match-item" data-testid="recent-match" data-table="${m.table_id}">
    <span class="when">${when(m.finished_at)}</span>
    <span class="badge ${m.rated ? "rated" : "casual"}">${t(m.rated ? "player.rated" : "player.casual")}</span>
    <span class="place">${t("player.place", { rank: m.rank })}${m.left ? html` (${t("player.left")})` : ""}</span>
    ${m.rating_change !== null ? html`<span class="change" data-testid="rating-change">${signed(m.rating_change)} → ${m.rating_after}</span>` : ""}
    <span class="players">${m.players.map((p, i) => html`${i ? " · " : ""}${playerLink(p.name, p.bot)} <span class="total">${signed(p.total)}</span>`)}</span>
    <a href="${m.replay}" data-testid="replay-link">${t("player.replay")}</a>
  </li>`)}`);
}

function render() {
  if (!data) return;
  document.title = `${botName(data.name)} – ${t("app.title")}`;
  setHTML($("player-name"), html`${botName(data.name)}${data.bot ? html` <span class="badge bot-badge">${t("player.bot")}</span>` : ""}`);
  const r = data.rating;
  setHTML($("rating-value"), ratingHtml(r.value, r.provisional));
  $("rating-rank").textContent = data.rank ? t("player.rank", { rank: data.rank }) : t("player.unranked");
  setHTML($("rating-chart"), chart(r.history));
  renderCounts(data.matches);
  renderStats(data.stats);
  renderRecent(data.matches.recent);
  $("player-body").hidden = false;
  $("player-root").dataset.loaded = "1";
}

function showError(e) {
  const box = $("player-error");
  box.hidden = false;
  box.textContent = e instanceof ApiError && e.code === "not_found" ? t("player.notfound") : errorText(e);
  $("player-root").dataset.loaded = "error";
}

async function main() {
  initPage("player");
  onLangChange(render);
  const name = nameFromPath();
  $("player-name").textContent = name ?? "";
  if (!name) {
    showError(new ApiError(404, "not_found", ""));
    return;
  }
  data = await fetchPlayer(name);
  render();
}

main().catch(showError);
