// Kontra: the choice of parts to double (in the controls), and the multipliers of the contract's parts.
import { t, stepName, partName } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { $, bidLabel, bidInfo } from "./names.js";

/** Where the deal stands for a kontra offer: a "no kontra" said here folds the box until the card is played. */
export function kontraKey(S) {
  const st = S.state;
  const d = st && st.deal;
  if (!d || d.chain) return "";
  return `${st.deal_index}|${d.tricks.length}|${d.trick ? d.trick.cards.length : 0}|${d.to_move}`;
}

/** The kontra box of the controls: toggles for the parts `k.parts`, say / decline. */
export function kontraHtml(S, k, d, busy) {
  const key = kontraKey(S);
  if (key && S.kontraDeclined === key) {
    return html`<p class="hint kontra-declined" data-testid="kontra-declined">${t("act.kontra.declined")}</p>`;
  }
  const step = stepName(k.step);
  const parts = k.parts.map((p) => {
    const cur = (d.kontra && d.kontra[p]) || 1;
    const on = S.kontraParts.has(p);
    return html`<button type="button" class="toggle kontra-part ${on ? "on" : ""}" aria-pressed="${on}" data-kpart="${p}" data-testid="kontra-part-${p}" ${busy ? "disabled" : ""}>
      ${partName(p)} <span class="mult">×${cur} → ×${cur * 2}</span></button>`;
  });
  return html`<div class="kontra-box" data-testid="kontra-box" data-step="${k.step}">
    <h3>${t("act.kontra.title", { step })}</h3>
    <p class="hint">${t("act.kontra.hint")}</p>
    <div class="btn-row wrap">${parts}</div>
    <div class="btn-row">
      <button type="button" class="act primary" data-do="kontra-say" data-testid="act-kontra-say" ${busy || !S.kontraParts.size ? "disabled" : ""}>${t("act.kontra.say", { step })}</button>
      <button type="button" class="act" data-do="kontra-decline" data-testid="act-kontra-decline" ${busy ? "disabled" : ""}>${t("act.kontra.decline", { step: k.step })}</button>
    </div></div>`;
}

/** The side panel: the contract's parts, their values and multipliers, and the open kontra chain. */
export function renderKontraView(S) {
  const d = S.state.deal;
  const box = $("kontra-view");
  if (!d.contract) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const info = bidInfo(S, d.contract.bid);
  const parts = info ? info.parts : Object.keys(d.kontra || {}).map((p) => ({ part: p, value: "" }));
  const chain = d.chain ? html`<p class="chain" data-testid="chain">${stepName(d.chain.step)}: ${d.chain.parts.map(partName).join(", ")}</p>` : "";
  updateHTML(box, html`<h3>${t("table.contract")}: ${bidLabel(S, d.contract.bid)}</h3>
    <ul class="parts">${parts.map((p) => {
      const m = (d.kontra && d.kontra[p.part]) || 1;
      return html`<li data-testid="part-${p.part}"><span>${partName(p.part)}</span><span class="val">${p.value}</span><span class="mult ${m > 1 ? "hot" : ""}" data-testid="mult-${p.part}">×${m}</span></li>`;
    })}</ul>${chain}`);
}
