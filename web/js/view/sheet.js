// The score sheet (a dialog): running totals deal by deal, the winner, and a chart of the totals.
// Each deal's number opens that deal's result (`h.openResult`, the "Last deal" dialog).
import { t } from "../i18n.js";
import { html, setHTML } from "../html.js";
import { $, SEAT_COLORS, nameOf, bidLabel } from "./names.js";
import { tableSeatName } from "./four.js";

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

/** The running totals of the seats (three, or four) as a line chart (SVG); `names` label the legend. */
export function chartSvg(sheet, names) {
  const rows = [names.map(() => 0), ...sheet];
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
  const lines = names.map((_, s) => {
    const pts = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[s]).toFixed(1)}`).join(" ");
    const dots = rows.map((r, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(r[s]).toFixed(1)}" r="3" fill="${SEAT_COLORS[s]}"/>`);
    return html`<polyline points="${pts}" fill="none" stroke="${SEAT_COLORS[s]}" stroke-width="2.5" stroke-linejoin="round"/>${dots}`;
  });
  const legend = names.map((n, s) => html`<span class="legend-item"><span class="dot" style="background:${SEAT_COLORS[s]}"></span>${n}</span>`);
  return html`<figure class="chart" data-testid="sheet-chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${t("sheet.chart")}">
    <rect x="0" y="0" width="${W}" height="${H}" class="chart-bg"/>${grid}${xs}${lines}</svg>
    <figcaption>${t("sheet.chart")} <span class="legend">${legend}</span></figcaption></figure>`;
}

/** Solo duplicate (protocol §23.5): per deal your score, the par (the strong bot's with your cards) and the difference. */
function duplicateSheet(dup) {
  const sg = (n) => `${n > 0 ? "+" : ""}${n}`;
  const rows = dup.deals.map((r) => html`<tr data-testid="dup-row-${r.index}"><th scope="row">${r.index + 1}</th><td>${sg(r.you)}</td>
    <td>${r.par === null ? html`<small class="muted" data-testid="dup-pending-${r.index}">${t("dup.pending")}</small>` : sg(r.par)}</td>
    <td class="${r.diff > 0 ? "pos" : r.diff < 0 ? "neg" : ""}">${r.diff === null ? "" : sg(r.diff)}</td></tr>`);
  const verdict = dup.verdict ? html`<p class="winner-line" data-testid="dup-verdict">${t(`dup.verdict.${dup.verdict}`, { diff: Math.abs(dup.diff_total) })}</p>` : "";
  return html`<h3>${t("dup.title")}</h3>${verdict}<div class="sheet-scroll"><table class="sheet" data-testid="dup-table">
    <thead><tr><th scope="col">${t("sheet.deal")}</th><th scope="col">${t("dup.you")}</th><th scope="col">${t("dup.par")}</th><th scope="col">${t("dup.diff")}</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${t("sheet.total")}</th><td>${sg(dup.you_total)}</td><td>${sg(dup.par_total)}</td><td data-testid="dup-diff-total">${sg(dup.diff_total)}</td></tr></tfoot>
  </table></div>`;
}

export function renderSheet(S, h) {
  if (S.state && S.state.four) {
    fourSheet(S, h);
    return;
  }
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
    const open = r && h
      ? html`<button type="button" class="link-btn" data-testid="sheet-open-${k}" data-open-result="${k}" aria-label="${t("sheet.open", { n: k + 1 })}">${k + 1}</button>`
      : k + 1;
    return html`<tr data-testid="sheet-row-${k}"><th scope="row">${open}</th><td class="what">${what}</td>${row.map((v, s) => {
      const dlt = v - prev[s];
      return html`<td><span class="tot">${v}</span> <small class="${dlt > 0 ? "pos" : dlt < 0 ? "neg" : ""}">(${dlt > 0 ? "+" : ""}${dlt})</small></td>`;
    })}</tr>`;
  });
  const winner = m.winner !== null && m.winner !== undefined
    ? html`<p class="winner-line" data-testid="sheet-winner">★ ${t("match.winner", { name: names[m.winner] })}</p>` : "";
  const tie = m.tie_break && m.winner === null ? html`<p>${t("match.tiebreak")}</p>` : "";
  const dup = m.duplicate ? duplicateSheet(m.duplicate) : "";
  setHTML(body, html`${winner}${tie}<div class="sheet-scroll"><table class="sheet" data-testid="sheet-table">
    <thead><tr><th scope="col">${t("sheet.deal")}</th><th scope="col" class="what">${t("sheet.bid")}</th>${names.map((n, s) => html`<th scope="col" style="--seat-color:${SEAT_COLORS[s]}"><span class="dot"></span>${n}</th>`)}</tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${t("sheet.total")}</th><td class="what"></td>${m.totals.map((v, s) => html`<td data-testid="sheet-total-${s}" class="${m.winner === s ? "win" : ""}">${v}</td>`)}</tr></tfoot>
  </table></div>${dup}${chartSvg(m.sheet, names)}`);
  if (h) body.querySelectorAll("[data-open-result]").forEach((b) => b.addEventListener("click", () => h.openResult(Number(b.dataset.openResult))));
}

/** A table of four's sheet: four columns by table seat, the one sitting each deal out marked (it scores 0);
 * each deal's declarer named through that deal's seats (`match.deal_seats`); each deal's number opens its
 * result, which names that deal's players (result.js through `stateOfDeal`). */
function fourSheet(S, h) {
  const st = S.state;
  const m = st.four.table.match;
  const names = [0, 1, 2, 3].map((s) => tableSeatName(st, s));
  const rows = m.sheet.map((row, k) => {
    const r = m.results[k];
    const prev = k ? m.sheet[k - 1] : [0, 0, 0, 0];
    const what = r ? `${names[m.deal_seats[k][r.declarer]]}: ${bidLabel(S, r.bid)}${r.given_up ? " ✗" : ""}` : "";
    const open = r && h
      ? html`<button type="button" class="link-btn" data-testid="sheet-open-${k}" data-open-result="${k}" aria-label="${t("sheet.open", { n: k + 1 })}">${k + 1}</button>`
      : k + 1;
    return html`<tr data-testid="sheet-row-${k}"><th scope="row">${open}</th><td class="what">${what}</td>${row.map((v, s) => {
      if (m.sits_out[k] === s) return html`<td class="sat-out" data-testid="sheet-out-${k}-${s}" title="${t("four.satout")}"><span class="tot">${v}</span> <small>(${t("four.satout.short")})</small></td>`;
      const dlt = v - prev[s];
      return html`<td><span class="tot">${v}</span> <small class="${dlt > 0 ? "pos" : dlt < 0 ? "neg" : ""}">(${dlt > 0 ? "+" : ""}${dlt})</small></td>`;
    })}</tr>`;
  });
  const winner = m.winner !== null && m.winner !== undefined
    ? html`<p class="winner-line" data-testid="sheet-winner">★ ${t("match.winner", { name: names[m.winner] })}</p>` : "";
  const tie = m.tie_break && m.winner === null ? html`<p>${t("match.tiebreak")}</p>` : "";
  setHTML($("sheet-body"), html`${winner}${tie}<p class="muted" data-testid="four-sheet-note">${t("four.sheet")}</p><div class="sheet-scroll"><table class="sheet four" data-testid="sheet-table">
    <thead><tr><th scope="col">${t("sheet.deal")}</th><th scope="col" class="what">${t("sheet.bid")}</th>${names.map((n, s) => html`<th scope="col" style="--seat-color:${SEAT_COLORS[s]}"><span class="dot"></span>${n}</th>`)}</tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${t("sheet.total")}</th><td class="what"></td>${m.totals.map((v, s) => html`<td data-testid="sheet-total-${s}" class="${m.winner === s ? "win" : ""}">${v}</td>`)}</tr></tfoot>
  </table></div>${chartSvg(m.sheet, names)}`);
  if (h) $("sheet-body").querySelectorAll("[data-open-result]").forEach((b) => b.addEventListener("click", () => h.openResult(Number(b.dataset.openResult))));
}
