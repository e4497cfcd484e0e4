// The top bar of the felt: deal number, phase, contract or standing bid, the match's winner and, once it
// is over, each seat's accuracy over the match.
import { t } from "../i18n.js";
import { trumpOf } from "../cards.js";
import { html, updateHTML } from "../html.js";
import { $, nameOf, bidLabel, suitHtml } from "./names.js";
import { matchEndHtml } from "./coach.js";
import { sitsOutHtml, tableSeatName } from "./four.js";

function phaseKey(st) {
  if (st.table.status === "finished") return "finished";
  return st.deal ? st.deal.phase : "waiting";
}

function contractHtml(S) {
  const d = S.state.deal;
  const c = d.contract;
  if (c) {
    const tr = trumpOf(c);
    return html`<span class="contract" data-testid="contract"><span class="lbl">${t("table.contract")}:</span>
      <strong>${bidLabel(S, c.bid)}</strong> · ${nameOf(S, c.declarer)}
      · <span class="lbl">${t("table.trumps")}:</span> ${tr ? suitHtml(tr) : (c.bid.startsWith("N-") ? t("table.notrumps") : "?")}</span>`;
  }
  if (d.auction && d.auction.bid) {
    return html`<span class="contract" data-testid="contract"><span class="lbl">${t("table.standing")}:</span>
      <strong>${bidLabel(S, d.auction.bid)}</strong> · ${nameOf(S, d.auction.bidder)}</span>`;
  }
  return "";
}

export function renderTop(S, h) {
  const st = S.state;
  const m = st.match;
  const dealNo = t("table.deal", { n: st.deal_index + 1, m: m ? m.deals_planned : "?" });
  const contract = contractHtml(S);
  // at a table of four the winner may have sat the last deal out: named from the table's own view
  const won = st.four ? st.four.table.match.winner : m && m.winner;
  const winnerName = st.four ? tableSeatName(st, won) : nameOf(S, won);
  const winner = won !== null && won !== undefined
    ? html`<div class="winner-banner" data-testid="match-winner" role="status">★ ${t("match.winner", { name: winnerName })}
        <button type="button" class="primary small" data-open-sheet>${t("table.sheet")}</button></div>`
    : "";
  const tie = m && m.tie_break && m.winner === null ? html`<div class="tie-note" data-testid="tie-break">${t("match.tiebreak")}</div>` : "";
  // a seat whose player resigned stays with the bot: nothing to take back
  const away = st.you !== null && st.table.seats[st.you] && st.table.seats[st.you].away && !st.table.seats[st.you].resigned
    ? html`<button type="button" class="small warn" data-testid="back-btn" data-back>${t("seat.away")} – OK</button>` : "";
  const topHtml = html`
    <div class="top-line">
      <span class="deal-no" data-testid="deal-no">${dealNo}${m && m.tie_break ? html` (${t("table.tiebreak")})` : ""}</span>
      <span class="phase" data-testid="phase">${t(`phase.${phaseKey(st)}`)}</span>
      ${st.table.rated ? html`<span class="badge rated" data-testid="rated">${t("lobby.ratedbadge")}</span>` : ""}
      ${st.you === null ? html`<span class="watching" data-testid="watching" role="status" aria-label="${t("table.watching.label")}"><span aria-hidden="true">👁</span> ${t("table.watching")}</span>` : ""}
      <span class="top-buttons">
        ${away}
        <button type="button" class="small ghost" data-testid="last-trick-btn" aria-pressed="${S.showLastTrick}" data-last-trick>${S.showLastTrick ? t("table.lasttrick.hide") : t("table.lasttrick")}</button>
        <button type="button" class="small ghost" data-testid="sheet-btn" data-open-sheet>${t("table.sheet")}</button>
      </span>
    </div>
    ${contract ? html`<div class="top-line">${contract}</div>` : ""}
    ${sitsOutHtml(S)}
    ${winner}${tie}${matchEndHtml(S)}`;
  if (!updateHTML($("felt-top"), topHtml)) return;
  $("felt-top").querySelectorAll("[data-open-sheet]").forEach((b) => b.addEventListener("click", h.openSheet));
  $("felt-top").querySelector("[data-last-trick]").addEventListener("click", h.toggleLastTrick);
  const bb = $("felt-top").querySelector("[data-back]");
  if (bb) bb.addEventListener("click", h.back);
}
