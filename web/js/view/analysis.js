// A deal's analysis as the server computed it (docs/protocol.md §22): cost badges, the values of a
// decision's alternatives as a small bar chart, the graph of the declarer's double-dummy value after
// each action (inline SVG built here), each seat's totals, the costliest decisions as lessons, and each
// seat's accuracy over the match.
// Every number is the server's: nothing is priced here.
import { t } from "../i18n.js";
import { html } from "../html.js";
import { cardLabel, cardShort, SUIT_SYMBOL } from "../cards.js";
import { SEAT_COLORS } from "./names.js";
import { http, retryAfter } from "../api.js";

const signed = (n) => `${n > 0 ? "+" : ""}${Math.round(n * 100) / 100}`;

/** An alternative's key in words: a card, a kontra step's parts, a trump suit or the give-up, a discard. */
export function altText(kind, key) {
  if (kind === "play") return cardShort(key);
  if (kind === "kontra") return key === "none" ? t("an.kontra.none") : t("an.kontra.parts", { parts: key.split("+").join(", ") });
  if (kind === "trump") return key === "give_up" ? t("an.giveup") : `${SUIT_SYMBOL[key] || ""} ${t(`suit.${key}`)}`;
  if (kind === "discard") return t("an.discard", { cards: key.split("+").map(cardShort).join(" ") });
  return key;
}

/** The badge of one decision: its label (or "best"/"forced") and its cost. */
export function badgeHtml(d) {
  if (!d) return html``;
  if (d.forced) return html`<span class="an-badge forced" data-testid="an-badge" data-label="forced">${t("an.forced")}</span>`;
  const label = d.label || (d.cost > 0 ? "ok" : "best");
  const text = d.label ? t(`an.label.${d.label}`) : d.cost > 0 ? t("an.label.ok") : t("an.label.best");
  return html`<span class="an-badge ${label}" data-testid="an-badge" data-label="${label}" title="${t("an.cost", { cost: d.cost.toFixed(2), error: d.error.toFixed(2) })}">${text}${d.cost > 0 ? html` −${d.cost.toFixed(1)}` : ""}</span>`;
}

/** The values of a decision's alternatives as horizontal bars (seat's own points per defender). */
export function valuesChartHtml(kind, values, best, chosen, testid = "an-values") {
  const entries = Object.entries(values);
  if (!entries.length) return html``;
  const nums = entries.map(([, v]) => v);
  const lo = Math.min(0, ...nums);
  const hi = Math.max(0, ...nums);
  const span = hi - lo || 1;
  const W = 220;
  const L = kind === "play" ? 50 : 170; // the labels' column: a card code is short, a kontra's parts are not
  const rowH = 16;
  const zero = ((0 - lo) / span) * W;
  const rows = entries.map(([key, v], i) => {
    const x = Math.min(zero, ((v - lo) / span) * W);
    const w = Math.max(1, Math.abs(((v - lo) / span) * W - zero));
    const cls = key === best ? "best" : key === chosen ? "chosen" : "";
    const y = i * rowH;
    return html`<g class="an-bar ${cls}" data-testid="an-bar" data-key="${key}" data-value="${v}">
      <text x="0" y="${y + 12}" class="an-bar-label">${altText(kind, key)}</text>
      <rect x="${L + x}" y="${y + 2}" width="${w}" height="${rowH - 4}" rx="2"></rect>
      <text x="${L + W + 6}" y="${y + 12}" class="an-bar-value">${signed(v)}</text></g>`;
  });
  const height = entries.length * rowH;
  return html`<svg class="an-chart" data-testid="${testid}" viewBox="0 0 ${L + W + 50} ${height}" width="${L + W + 50}" height="${height}" role="img" aria-label="${t("an.chart")}">
    <line x1="${L + zero}" y1="0" x2="${L + zero}" y2="${height}" class="an-zero"></line>${rows}</svg>`;
}

/** The graph of the double-dummy value (per defender, for the declarer) after each action; `at` marks a frame. */
export function graphHtml(analysis, frames, at) {
  const pts = analysis.graph;
  if (!pts.length) return html`<p class="muted" data-testid="an-graph-none">${t("an.graph.none")}</p>`;
  const W = 420;
  const H = 120;
  const pad = 6;
  const values = pts.map((p) => p.value);
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x0 = pts[0].index;
  const xs = (i) => pad + ((i - x0) / Math.max(1, frames - x0)) * (W - 2 * pad);
  const ys = (v) => pad + ((hi - v) / span) * (H - 2 * pad);
  const path = pts.map((p, k) => `${k ? "L" : "M"}${xs(p.index).toFixed(1)},${ys(p.value).toFixed(1)}`).join(" ");
  const marks = analysis.decisions.filter((d) => d.label === "mistake" || d.label === "blunder")
    .map((d) => html`<circle class="an-mark ${d.label}" cx="${xs(d.index + 1).toFixed(1)}" cy="${ys(d.dd ?? 0).toFixed(1)}" r="3"><title>${t(`an.label.${d.label}`)}</title></circle>`);
  const cursor = at >= x0 ? html`<line class="an-cursor" data-testid="an-cursor" x1="${xs(at).toFixed(1)}" y1="0" x2="${xs(at).toFixed(1)}" y2="${H}"></line>` : "";
  return html`<svg class="an-graph" data-testid="an-graph" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${t("an.graph")}">
    <line class="an-zero" x1="0" y1="${ys(0).toFixed(1)}" x2="${W}" y2="${ys(0).toFixed(1)}"></line>
    <path class="an-line" data-testid="an-graph-line" d="${path}"></path>${marks}${cursor}</svg>`;
}

/** Each seat's total cost in this deal and its accuracy. */
export function totalsHtml(analysis, names) {
  const rows = analysis.seats.map((s) => html`<tr data-testid="an-seat-${s.seat}" style="--seat-color:${SEAT_COLORS[s.seat]}">
    <td><span class="dot"></span> ${names[s.seat]}</td><td>${t(`an.role.${s.role}`)}</td>
    <td data-testid="an-cost-${s.seat}">${s.cost.toFixed(2)}</td><td>${s.accuracy === null ? "–" : `${Math.round(s.accuracy)}%`}</td>
    <td>${s.labels.blunder || 0} / ${s.labels.mistake || 0} / ${s.labels.inaccuracy || 0}</td></tr>`);
  return html`<table class="an-totals" data-testid="an-totals"><thead><tr><th></th><th></th><th>${t("an.totalcost")}</th><th>${t("an.accuracy")}</th><th>${t("an.counts")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** One decision in words: who did what, the badge, and the best alternative when it was not taken. */
export function decisionHtml(d, names) {
  const what = d.kind === "play" ? cardLabel(d.key) : altText(d.kind, d.key);
  const better = !d.forced && d.best !== d.key
    ? html` <span class="an-best" data-testid="an-best">${t("an.best", { alt: altText(d.kind, d.best), cost: d.cost.toFixed(1) })}</span>` : "";
  return html`<span class="an-decision" data-testid="an-decision" data-index="${d.index}"><strong>${names[d.seat]}</strong>: ${what} ${badgeHtml(d)}${better}</span>`;
}

/** The deal's costliest decisions (at most `n`), each a short lesson linking to its moment in the replay. */
export function lessonsHtml(analysis, names, replayUrl, n = 3) {
  const worst = analysis.decisions.filter((d) => !d.forced && d.cost > 0)
    .sort((a, b) => b.cost - a.cost || a.index - b.index).slice(0, n);
  if (!worst.length) return html`<p data-testid="lessons-none">${t("an.lessons.none")}</p>`;
  return html`<ol class="lessons" data-testid="lessons">${worst.map((d) => html`<li data-testid="lesson">
    ${d.trick ? t("an.lesson.trick", { n: d.trick }) : ""} ${t("an.lesson", { name: names[d.seat], did: altText(d.kind, d.key), alt: altText(d.kind, d.best), cost: d.cost.toFixed(1) })}
    <a href="${replayUrl(d.index + 1)}" data-testid="lesson-link">${t("an.lesson.see")}</a></li>`)}</ol>`;
}

/** Each seat's accuracy and cost over the analysed deals of a match (GET /api/tables/{id}/analysis). */
export function matchAccuracyHtml(answer, names) {
  if (!answer) return html``;
  const rows = answer.seats.map((s) => html`<tr data-testid="match-acc-${s.seat}" style="--seat-color:${SEAT_COLORS[s.seat]}">
    <td><span class="dot"></span> ${names[s.seat]}</td>
    <td data-testid="match-acc-value-${s.seat}">${s.accuracy === null ? "–" : `${Math.round(s.accuracy)}%`}</td>
    <td>${s.cost.toFixed(2)}</td><td>${s.decisions}</td></tr>`);
  const progress = answer.status === "done" ? ""
    : html`<p class="muted" data-testid="match-acc-progress">${t("an.match.progress", { done: answer.analysed.length, total: answer.deals })}</p>`;
  return html`<div class="an-match" data-testid="match-accuracy" data-status="${answer.status}"><h4>${t("an.match.title")}</h4>${progress}
    <table class="an-totals"><thead><tr><th></th><th>${t("an.accuracy")}</th><th>${t("an.totalcost")}</th><th>${t("an.match.decisions")}</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

/** Fetch the match's figures, and poll while deals are still being analysed; `show(answer)` each time.
 * `alive()` says whether the page still wants them (another match opened: stop). */
export async function pollMatchAccuracy(tableId, show, alive = () => true) {
  for (let tries = 0; tries < 600; tries++) {
    let answer;
    try {
      answer = await http("GET", `/api/tables/${encodeURIComponent(tableId)}/analysis`);
    } catch (e) {
      const wait = retryAfter(e);
      if (wait === null) return;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000)); // over a quota: ask again when told
      continue;
    }
    if (!alive()) return;
    show(answer);
    if (answer.status === "done") return;
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}
