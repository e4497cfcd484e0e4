// The result of a deal: the parts won and lost, silent bonuses, card points and what each seat scores.
// Shown in the controls when a deal is over, and by the replay of past matches.
import { t, partName } from "../i18n.js";
import { html } from "../html.js";
import { SEAT_COLORS, nameOf, bidLabel, suitWord } from "./names.js";

const signed = (n) => `${n > 0 ? "+" : ""}${n}`;

/** The result `r` of deal `index` (0-based); `S` gives the seats' names and the bids. Empty without a result. */
export function resultHtml(S, r, index) {
  if (!r) return html``;
  const name = (s) => nameOf(S, s);
  const tr = r.trump ? ` · ${suitWord(r.trump)}` : "";
  const body = [html`<h3 data-testid="result-title">${t("res.title", { n: index + 1 })}</h3>
    <p><strong>${name(r.declarer)}</strong>: ${bidLabel(S, r.bid)}${tr}</p>`];
  if (r.given_up) body.push(html`<p data-testid="given-up">${t("res.givenup", { name: name(r.declarer) })}</p>`);
  if (r.parts && r.parts.length) {
    body.push(html`<table class="result-table"><thead><tr><th>${t("res.part")}</th><th>${t("res.outcome")}</th><th>${t("res.value")}</th><th>${t("res.mult")}</th><th>${t("res.amount")}</th></tr></thead><tbody>
      ${r.parts.map((p) => html`<tr class="${p.won ? "won" : "lost"}" data-testid="result-part-${p.part}"><td>${partName(p.part)}</td><td>${p.won ? t("res.won") : t("res.lost")}</td><td>${p.value}</td><td>×${p.multiplier}</td><td>${signed(p.per_defender)}</td></tr>`)}
      </tbody></table>`);
  }
  if (r.silent && r.silent.length) {
    const silent = r.silent.map((s) => `${t(`res.silent.${s.bonus}`)} (${t(`res.side.${s.side}`)}, ${s.won ? t("res.won") : t("res.lost")}, ${signed(s.per_defender)})`).join("; ");
    body.push(html`<p class="silent"><strong>${t("res.silent")}:</strong> ${silent}</p>`);
  }
  if (r.points) body.push(html`<p>${t("res.points", { d: r.points.declarer, f: r.points.defenders })}</p>`);
  body.push(html`<p>${r.per_defender >= 0 ? t("res.perdef", { n: r.per_defender }) : t("res.perdef.neg", { n: -r.per_defender })}</p>`);
  body.push(html`<ul class="scores">${r.scores.map((s, i) => html`<li style="--seat-color:${SEAT_COLORS[i]}"><span class="dot"></span>${name(i)}: <strong class="${s > 0 ? "pos" : s < 0 ? "neg" : ""}">${signed(s)}</strong></li>`)}</ul>`);
  return html`<div class="deal-result" data-testid="deal-result">${body}</div>`;
}
