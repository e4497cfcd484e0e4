// Between two deals: the result stays on the table until each person clicks "Next deal"
// (state.next_deal, docs/protocol/views.md §10: who is ready, whom the next deal waits for), with the
// time limit after which the match goes on anyway (state.deadline, drawn by table.js's countdown).
import { t } from "../i18n.js";
import { html } from "../html.js";
import { nameOf } from "./names.js";

/** What follows the result of a finished deal: the "Next deal" button, or whom the table waits for. */
export function nextDealHtml(S) {
  const st = S.state;
  const nd = st.next_deal;
  if (!st.match || st.match.winner !== null || !nd) return html``;
  const me = st.you;
  const mine = me !== null && nd.waiting.includes(me);
  const others = nd.waiting.filter((s) => s !== me).map((s) => nameOf(S, s));
  const button = mine
    ? html`<button type="button" class="primary big" data-testid="next-deal" data-do="next-deal" ${S.readyFor === st.deal_index ? "disabled" : ""}>${t("res.next.btn")}</button>`
    : "";
  const waiting = others.length
    ? html`<p class="muted" data-testid="next-waiting">${t("res.next.waiting", { names: others.join(", ") })}</p>`
    : mine ? "" : html`<p class="muted" data-testid="next-waiting">${t("res.next.soon")}</p>`;
  const clock = nd.waiting.length
    ? html`<p class="muted small">${t("res.next.limit")} <span class="countdown" data-countdown></span></p>`
    : "";
  return html`<div class="next-deal" data-testid="next-deal-box">${button}${waiting}${clock}</div>`;
}
