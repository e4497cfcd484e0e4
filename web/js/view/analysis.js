// A deal's analysis as the server computed it (docs/protocol/analysis.md §22): cost badges, the values of a
// decision's alternatives as a small bar chart, the graph of the declarer's double-dummy value after
// each action (inline SVG built here), each seat's totals, the costliest decisions as lessons, and each
// seat's accuracy over the match.
// Every number is the server's: nothing is priced here.
import { t, suitText } from "../i18n.js";
import { html } from "../html.js";
import { cardLabel, cardShort } from "../cards.js";
import { SEAT_COLORS } from "./names.js";
import { http, retryAfter } from "../api.js";

const signed = (n) => `${n > 0 ? "+" : ""}${Math.round(n * 100) / 100}`;

/** An alternative's key in words: a card, a kontra step's parts, a trump suit or the give-up, a discard. */
export function altText(kind, key) {
  if (kind === "play") return cardShort(key);
  if (kind === "kontra") return key === "none" ? t("an.kontra.none") : t("an.kontra.parts", { parts: key.split("+").join(", ") });
  if (kind === "trump") return key === "give_up" ? t("an.giveup") : suitText(key);
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

/** Round tick values for an axis from `lo` to `hi` (about four steps of 1, 2 or 5 × 10^k; 0 among them). */
export function axisTicks(lo, hi) {
  const raw = (hi - lo) / 4 || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((v) => v >= raw) || 10 * mag;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) ticks.push(Math.round(v * 100) / 100);
  return { ticks, step };
}

/**
 * The graph of the double-dummy value (per defender, for the declarer) after each action: a y axis with
 * its values and its label, the zero line (the declarer neither wins nor pays), the tricks along the x
 * axis, the costly decisions as dots, and frame `at` (the replay's current move) marked with its value.
 */
export function graphHtml(analysis, frames, at) {
  const pts = analysis.graph;
  if (!pts.length) return html`<p class="muted" data-testid="an-graph-none">${t("an.graph.none")}</p>`;
  // a narrower drawing on a phone: scaled to the screen, its words keep a readable size
  const W = typeof window !== "undefined" && window.innerWidth <= 519 ? 340 : 480;
  const H = 230;
  const left = 48; // the y axis's values and its label
  const right = 12;
  const top = 12;
  const bottom = 40; // the trick numbers and the x axis's label
  const values = pts.map((p) => p.value);
  const { ticks, step } = axisTicks(Math.min(0, ...values), Math.max(0, ...values));
  const lo = Math.min(ticks[0], ...values);
  const hi = Math.max(ticks[ticks.length - 1], ...values, lo + step);
  const span = hi - lo || 1;
  const x0 = pts[0].index;
  const xs = (i) => left + ((i - x0) / Math.max(1, frames - x0)) * (W - left - right);
  const ys = (v) => top + ((hi - v) / span) * (H - top - bottom);
  const f = (n) => n.toFixed(1);
  const path = pts.map((p, k) => `${k ? "L" : "M"}${f(xs(p.index))},${f(ys(p.value))}`).join(" ");
  const yAxis = ticks.map((v) => html`<g class="an-ytick" data-testid="an-ytick" data-value="${v}">
    <line class="${v === 0 ? "an-zero" : "an-grid"}" ${v === 0 ? html`data-testid="an-zero"` : ""} x1="${left}" y1="${f(ys(v))}" x2="${W - right}" y2="${f(ys(v))}"></line>
    <text class="an-tick" x="${left - 5}" y="${f(ys(v) + 4)}" text-anchor="end">${v > 0 ? "+" : ""}${v}</text></g>`);
  // the x axis: each trick's number where its first card was played
  const firsts = [];
  for (const d of analysis.decisions) {
    if (d.kind === "play" && d.trick && !firsts.some((x) => x.trick === d.trick)) firsts.push(d);
  }
  const xAxis = firsts.map((d) => html`<g class="an-xtick" data-testid="an-xtick" data-trick="${d.trick}">
    <line class="an-grid" x1="${f(xs(d.index + 1))}" y1="${H - bottom}" x2="${f(xs(d.index + 1))}" y2="${H - bottom + 4}"></line>
    <text class="an-tick" x="${f(xs(d.index + 1))}" y="${H - bottom + 15}" text-anchor="middle">${d.trick}</text></g>`);
  const marks = analysis.decisions.filter((d) => d.label === "mistake" || d.label === "blunder")
    .map((d) => html`<circle class="an-mark ${d.label}" cx="${f(xs(d.index + 1))}" cy="${f(ys(d.dd ?? 0))}" r="3.5"><title>${t(`an.label.${d.label}`)}</title></circle>`);
  let cursor = "";
  if (at >= x0) {
    // the value in force at the current move: the last point at or before it
    const here = [...pts].reverse().find((p) => p.index <= at) || pts[0];
    const cx = xs(Math.min(at, frames));
    const anchor = cx > W - 90 ? "end" : "start";
    cursor = html`<line class="an-cursor" data-testid="an-cursor" x1="${f(cx)}" y1="${top}" x2="${f(cx)}" y2="${H - bottom}"></line>
      <circle class="an-here" data-testid="an-here" cx="${f(cx)}" cy="${f(ys(here.value))}" r="5"></circle>
      <text class="an-here-label" data-testid="an-here-label" x="${f(cx + (anchor === "end" ? -8 : 8))}" y="${f(Math.max(top + 10, ys(here.value) - 8))}" text-anchor="${anchor}">${t("an.graph.here", { n: `${here.value > 0 ? "+" : ""}${here.value}` })}</text>`;
  }
  return html`<figure class="an-figure"><svg class="an-graph" data-testid="an-graph" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${t("an.graph")}">
    <line class="an-axis" x1="${left}" y1="${top}" x2="${left}" y2="${H - bottom}"></line>
    <line class="an-axis" x1="${left}" y1="${H - bottom}" x2="${W - right}" y2="${H - bottom}"></line>
    ${yAxis}${xAxis}
    <text class="an-axis-label" data-testid="an-ylabel" transform="translate(12 ${f((top + H - bottom) / 2)}) rotate(-90)" text-anchor="middle">${t("an.graph.y")}</text>
    <text class="an-axis-label" data-testid="an-xlabel" x="${f((left + W - right) / 2)}" y="${H - 4}" text-anchor="middle">${t("an.graph.x")}</text>
    <path class="an-line" data-testid="an-graph-line" d="${path}"></path>${marks}${cursor}</svg></figure>`;
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
