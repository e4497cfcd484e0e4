// The score sheet (a dialog): running totals deal by deal, the winner, and a chart of the totals.
import { t } from "../i18n.js";
import { html, setHTML } from "../html.js";
import { $, SEAT_COLORS, nameOf, bidLabel } from "./names.js";

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

/** The running totals of the three seats as a line chart (SVG); `names` label the legend. */
export function chartSvg(sheet, names) {
  const rows = [[0, 0, 0], ...sheet];
  const W = 520;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 26 };
  const vals = rows.flat();
  let max = Math.max(10, ...vals);
  let min = Math.min(-10, ...vals);
  const span = max - min;
  max += span * 0.05;
  min -= span * 0.05;
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / Math.max(1, rows.length - 1);
  const y = (v) => pad.t + ((max - v) * (H - pad.t - pad.b)) / (max - min);
  const grid = [];
  const step = niceStep((max - min) / 5);
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) {
    grid.push(html`<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v)}" y2="${y(v)}" class="${v === 0 ? "zero" : "grid"}"/><text x="${pad.l - 4}" y="${y(v) + 4}" class="axis" text-anchor="end">${v}</text>`);
  }
  const xs = rows.map((_, i) => html`<text x="${x(i)}" y="${H - 8}" class="axis" text-anchor="middle">${i}</text>`);
  const lines = [0, 1, 2].map((s) => {
    const pts = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[s]).toFixed(1)}`).join(" ");
    const dots = rows.map((r, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(r[s]).toFixed(1)}" r="3" fill="${SEAT_COLORS[s]}"/>`);
    return html`<polyline points="${pts}" fill="none" stroke="${SEAT_COLORS[s]}" stroke-width="2.5" stroke-linejoin="round"/>${dots}`;
  });
  const legend = names.map((n, s) => html`<span class="legend-item"><span class="dot" style="background:${SEAT_COLORS[s]}"></span>${n}</span>`);
  return html`<figure class="chart" data-testid="sheet-chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${t("sheet.chart")}">
    <rect x="0" y="0" width="${W}" height="${H}" class="chart-bg"/>${grid}${xs}${lines}</svg>
    <figcaption>${t("sheet.chart")} <span class="legend">${legend}</span></figcaption></figure>`;
}

export function renderSheet(S) {
  const st = S.state;
  const body = $("sheet-body");
  const m = st && st.match;
  const names = [0, 1, 2].map((s) => nameOf(S, s));
  if (!m || !m.sheet.length) {
    setHTML(body, html`<p data-testid="sheet-empty">${t("sheet.empty")}</p>`);
    return;
  }
  const rows = m.sheet.map((row, k) => {
    const r = m.results[k];
    const prev = k ? m.sheet[k - 1] : [0, 0, 0];
    const what = r ? `${names[r.declarer]}: ${bidLabel(S, r.bid)}${r.given_up ? " ✗" : ""}` : "";
    return html`<tr data-testid="sheet-row-${k}"><th scope="row">${k + 1}</th><td class="what">${what}</td>${row.map((v, s) => {
      const dlt = v - prev[s];
      return html`<td><span class="tot">${v}</span> <small class="${dlt > 0 ? "pos" : dlt < 0 ? "neg" : ""}">(${dlt > 0 ? "+" : ""}${dlt})</small></td>`;
    })}</tr>`;
  });
  const winner = m.winner !== null && m.winner !== undefined
    ? html`<p class="winner-line" data-testid="sheet-winner">★ ${t("match.winner", { name: names[m.winner] })}</p>` : "";
  const tie = m.tie_break && m.winner === null ? html`<p>${t("match.tiebreak")}</p>` : "";
  setHTML(body, html`${winner}${tie}<div class="sheet-scroll"><table class="sheet" data-testid="sheet-table">
    <thead><tr><th scope="col">${t("sheet.deal")}</th><th scope="col" class="what">${t("sheet.bid")}</th>${names.map((n, s) => html`<th scope="col" style="--seat-color:${SEAT_COLORS[s]}"><span class="dot"></span>${n}</th>`)}</tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${t("sheet.total")}</th><td class="what"></td>${m.totals.map((v, s) => html`<td data-testid="sheet-total-${s}" class="${m.winner === s ? "win" : ""}">${v}</td>`)}</tr></tfoot>
  </table></div>${chartSvg(m.sheet, names)}`);
}
