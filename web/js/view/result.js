// The result of a deal, its bottom line first: who won what and each seat's score ("at a glance"),
// then the explanation under headings that say what they hold: the contract's parts, the silent
// bonuses, where the card points came from (card points, the talon, the last trick, marriages: each
// its own line). Shown in the controls when a deal is over (the glance also on the felt: trick.js renderCenter),
// in the "Last deal" dialog (any earlier deal of the match, also opened from the score sheet) and by
// the replay of past matches. Every number comes from the server's result (its `detail`,
// docs/protocol/views.md §10.2): nothing is worked out here.
import { t, partName } from "../i18n.js";
import { html, setHTML } from "../html.js";
import { SEAT_COLORS, nameOf, bidLabel, suitHtml } from "./names.js";
import { stateOfDeal } from "./four.js";

const signed = (n) => `${n > 0 ? "+" : ""}${n}`;

/** The lines saying where the points came from (trump contracts played out). */
function pointsHtml(r) {
  const d = r.detail;
  if (!d) {
    return r.points ? html`<p>${t("res.points", { d: r.points.declarer, f: r.points.defenders })}</p>` : html``;
  }
  const lines = [
    html`<li data-testid="res-cards">${t("res.cards", { d: d.declarer.cards, f: d.defenders.cards })}</li>`,
    html`<li data-testid="res-talon">${t("res.talon", { n: d.defenders.talon })}</li>`,
    html`<li data-testid="res-last">${t(d.declarer.last_trick ? "res.last.declarer" : "res.last.defenders")}</li>`,
    html`<li data-testid="res-marriages">${t("res.marriages", { d: d.declarer.marriages, f: d.defenders.marriages })}</li>`,
  ];
  if (d.declarer.zero) lines.push(html`<li data-testid="res-zero">${t("res.zero.declarer")}</li>`);
  if (d.defenders.zero) lines.push(html`<li data-testid="res-zero">${t("res.zero.defenders")}</li>`);
  lines.push(html`<li class="total" data-testid="res-total"><strong>${t("res.total", { d: r.points.declarer, f: r.points.defenders })}</strong></li>`);
  return html`<ul class="res-points" data-testid="res-points">${lines}</ul>`;
}

function silentLine(s) {
  const key = `res.silent.${s.bonus}.${s.side}${s.bonus === "100" ? "" : s.won ? ".won" : ".lost"}`;
  return html`<li data-testid="res-silent-${s.bonus}">${t(key, { n: signed(s.per_defender) })}</li>`;
}

/** "Anna won the game" / "Anna lost the game" / "Anna won Parti and lost Ulti" / "Anna gave up". */
function verdictText(S, r) {
  const name = nameOf(S, r.declarer);
  if (r.given_up) return t("res.givenup", { name });
  const parts = r.parts || [];
  const won = parts.filter((p) => p.won).map((p) => partName(p.part));
  const lost = parts.filter((p) => !p.won).map((p) => partName(p.part));
  if (!parts.length) return r.per_defender >= 0 ? t("res.verdict.won", { name }) : t("res.verdict.lost", { name });
  if (!lost.length) return t("res.verdict.won", { name });
  if (!won.length) return t("res.verdict.lost", { name });
  return t("res.verdict.mixed", { name, won: won.join(", "), lost: lost.join(", ") });
}

/**
 * The bottom line of deal `index`'s result `r`: the contract, who won what, what each defender pays
 * and each seat's score, large. `testid` names the box (the felt's copy is "felt-result").
 */
export function glanceHtml(S, r, index, testid = "res-glance") {
  if (!r) return html``;
  const mine = testid === "res-glance"; // the test ids of the scores belong to the first copy only
  const tr = r.trump ? html` · ${suitHtml(r.trump)}` : "";
  const verdictClass = r.per_defender > 0 ? "won" : r.per_defender < 0 ? "lost" : "";
  const scores = r.scores.map((s, i) => html`<li style="--seat-color:${SEAT_COLORS[i]}" ${mine ? html`data-testid="res-score-${i}"` : ""} data-seat="${i}"><span class="dot"></span><span class="res-name">${nameOf(S, i)}</span>: <strong class="${s > 0 ? "pos" : s < 0 ? "neg" : ""}">${signed(s)}</strong></li>`);
  return html`<div class="res-glance" data-testid="${testid}">
    <h3 data-testid="${mine ? "result-title" : "felt-result-title"}">${t("res.title", { n: index + 1 })}</h3>
    <p class="res-contract"><strong>${nameOf(S, r.declarer)}</strong>: ${bidLabel(S, r.bid)}${tr}</p>
    <p class="res-verdict ${verdictClass}" data-testid="${mine ? "res-verdict" : "felt-res-verdict"}">${verdictText(S, r)}</p>
    <p class="res-perdef">${r.per_defender >= 0 ? t("res.perdef", { n: r.per_defender }) : t("res.perdef.neg", { n: -r.per_defender })}</p>
    <ul class="scores res-scores" aria-label="${t("res.scores")}">${scores}</ul>
  </div>`;
}

/** The explanation of result `r`, each part under a heading that says what it holds. */
export function explainHtml(S, r, index) {
  if (!r) return html``;
  const body = [];
  if (r.given_up) body.push(html`<p data-testid="given-up">${t("res.givenup", { name: nameOf(S, r.declarer) })}</p>`);
  const lostUlti = r.detail && r.detail.lost_ulti;
  if (r.parts && r.parts.length) {
    const rows = r.parts.map((p) => {
      // a lost ulti: its kontra amount here, the extra penalty on a line of its own below
      const amount = p.part === "ulti" && lostUlti ? lostUlti.amount : p.per_defender;
      return html`<tr class="${p.won ? "won" : "lost"}" data-testid="result-part-${p.part}"><td>${partName(p.part)}</td><td>${p.won ? t("res.won") : t("res.lost")}</td><td>${p.value}</td><td>×${p.multiplier}</td><td>${signed(amount)}</td></tr>`;
    });
    if (lostUlti) {
      rows.push(html`<tr class="lost" data-testid="result-ulti-extra"><td colspan="4">${t("res.ultiextra")}</td><td>${signed(lostUlti.extra)}</td></tr>`);
    }
    body.push(html`<h4 data-testid="res-h-parts">${t("res.h.parts")}</h4><table class="result-table"><thead><tr><th>${t("res.part")}</th><th>${t("res.outcome")}</th><th>${t("res.value")}</th><th>${t("res.mult")}</th><th>${t("res.amount")}</th></tr></thead><tbody>
      ${rows}</tbody></table>`);
  }
  if (r.silent && r.silent.length) {
    body.push(html`<h4 class="silent" data-testid="res-h-silent">${t("res.silent")}</h4><ul class="silent" data-testid="res-silent">${r.silent.map(silentLine)}</ul>`);
  }
  const points = pointsHtml(r);
  if (r.detail || r.points) body.push(html`<h4 data-testid="res-h-points">${t("res.h.points")}</h4>${points}`);
  body.push(parLine(S, index));
  return html`<div class="res-explain" data-testid="res-explain">${body}</div>`;
}

/** The result `r` of deal `index` (0-based), bottom line first; `S` gives the seats' names and the bids. Empty without a result. */
export function resultHtml(S, r, index) {
  if (!r) return html``;
  return html`<div class="deal-result" data-testid="deal-result">${glanceHtml(S, r, index)}${explainHtml(S, r, index)}</div>`;
}

/** Solo duplicate (protocol §23.5): the player's score on deal `index` beside the strong bot's with the same cards. */
export function parLine(S, index) {
  const dup = S.state && S.state.match && S.state.match.duplicate;
  const row = dup && dup.deals.find((d) => d.index === index);
  if (!row) return html``;
  if (row.par === null) {
    return html`<p class="par-line pending" data-testid="par-line" data-pending="1">${t("dup.line.pending", { you: signed(row.you) })}</p>`;
  }
  const key = row.diff > 0 ? "dup.line" : row.diff < 0 ? "dup.line.behind" : "dup.line.level";
  return html`<p class="par-line" data-testid="par-line" data-diff="${row.diff}">${t(key, { you: signed(row.you), par: signed(row.par), diff: Math.abs(row.diff) })}</p>`;
}

// ------------------------------------------------------------------ the "Last deal" dialog

let dialogIndex = null; // the deal whose result the dialog shows

function resultDialog() {
  let dlg = document.getElementById("result-dialog");
  if (dlg) return dlg;
  // built with DOM calls, not markup: the page's HTML stays as it is
  dlg = document.createElement("dialog");
  dlg.id = "result-dialog";
  dlg.className = "sheet-dialog result-dialog";
  dlg.dataset.testid = "result-dialog";
  dlg.setAttribute("aria-labelledby", "result-dialog-title");
  const body = document.createElement("div");
  body.id = "result-dialog-body";
  dlg.appendChild(body);
  dlg.addEventListener("close", () => { dialogIndex = null; });
  (document.getElementById("table-root") || document.body).appendChild(dlg);
  return dlg;
}

/** Fill the dialog with deal `k`'s result and its navigation. */
function renderResultDialog(S) {
  const dlg = resultDialog();
  const m = S.state && S.state.match;
  const results = (m && m.results) || [];
  if (dialogIndex === null || !results.length) return;
  const k = Math.max(0, Math.min(dialogIndex, results.length - 1));
  dialogIndex = k;
  const body = dlg.querySelector("#result-dialog-body");
  setHTML(body, html`<div class="dialog-head">
      <h2 id="result-dialog-title">${t("res.dialog", { n: k + 1, m: results.length })}</h2>
      <button type="button" class="close" data-testid="result-dialog-close" data-res-close>${t("table.close")}</button>
    </div>
    <div class="result-dialog-body">${resultHtml(stateOfDeal(S, k), results[k], k)}</div>
    <div class="result-nav">
      <button type="button" class="small" data-testid="result-prev" data-res-go="${k - 1}" ${k === 0 ? "disabled" : ""}>${t("res.prev")}</button>
      <button type="button" class="small" data-testid="result-next" data-res-go="${k + 1}" ${k === results.length - 1 ? "disabled" : ""}>${t("res.nextdeal")}</button>
    </div>`);
  body.querySelector("[data-res-close]").addEventListener("click", () => dlg.close());
  body.querySelectorAll("[data-res-go]").forEach((b) => b.addEventListener("click", () => {
    dialogIndex = Number(b.dataset.resGo);
    renderResultDialog(S);
  }));
}

/** Open the result of finished deal `k` (0-based) of the match: from "Last deal" and the score sheet. */
export function openResult(S, k) {
  const dlg = resultDialog();
  dialogIndex = k;
  renderResultDialog(S);
  if (!dlg.open) dlg.showModal();
}

/** Keep an open dialog current (names, language). */
export function refreshResult(S) {
  const dlg = document.getElementById("result-dialog");
  if (dlg && dlg.open) renderResultDialog(S);
}
