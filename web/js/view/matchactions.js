// Resign and rematch, in the side column below the current decision: while the match is under way a seated player may
// resign it (after an explicit confirmation: a bot plays the seat to the end, and the player ranks as
// one who left); once it is over, each seated player may ask for a rematch or accept the one asked for.
// Who resigned is said here for everyone at the table.
import { t } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { nameOf } from "./names.js";

function box() {
  let el = document.getElementById("match-actions");
  if (!el) {
    el = document.createElement("section");
    el.id = "match-actions";
    el.className = "card-panel match-actions";
    el.dataset.testid = "match-actions";
    // below the current decision (which stays first in the column), above the kontra panel and the log
    const side = document.getElementById("side");
    side.insertBefore(el, document.getElementById("kontra-view"));
  }
  return el;
}

function resignHtml(S, mine) {
  if (mine.resigned) return html`<p class="muted" data-testid="you-resigned">${t("match.resigned.you")}</p>`;
  if (!S.confirmResign) {
    return html`<p><button type="button" class="small" data-testid="resign-btn" data-do="ask-resign">${t("match.resign")}</button></p>`;
  }
  return html`<div class="confirm" role="alertdialog" aria-labelledby="resign-q" data-testid="resign-confirm">
    <p id="resign-q">${t("match.resign.confirm")}</p>
    <div class="row"><button type="button" class="small warn" data-testid="resign-yes" data-do="resign">${t("match.resign.yes")}</button>
      <button type="button" class="small" data-testid="resign-no" data-do="keep">${t("match.resign.no")}</button></div>
  </div>`;
}

function rematchHtml(S) {
  const st = S.state;
  const offer = st.rematch;
  const asked = offer && offer.seat === st.you;
  const label = offer && !asked ? t("match.rematch.accept") : t("match.rematch");
  const by = offer && !asked ? html`<p data-testid="rematch-offer">${t("match.rematch.offered", { name: nameOf(S, offer.seat) })}</p>` : "";
  return html`${by}<p><button type="button" class="primary small" data-testid="rematch-btn" data-do="rematch" ${S.rematchPending ? "disabled" : ""}>${label}</button></p>`;
}

/** Draw the box (empty for spectators, and before the match starts). */
export function renderMatchActions(S, h) {
  const st = S.state;
  const el = box();
  const parts = [];
  st.table.seats.forEach((seat, i) => {
    if (seat.resigned && i !== st.you) parts.push(html`<p class="muted" data-testid="resigned-${i}">${t("match.resigned", { name: nameOf(S, i) })}</p>`);
  });
  const mine = st.you === null ? null : st.table.seats[st.you];
  if (mine && st.table.status === "playing") parts.push(resignHtml(S, mine));
  if (mine && st.table.status === "finished" && !st.table.event) parts.push(rematchHtml(S));
  if (!updateHTML(el, html`${parts}`)) return;
  el.querySelectorAll("[data-do]").forEach((b) => {
    const what = b.dataset.do;
    b.addEventListener("click", what === "ask-resign" ? h.askResign : what === "resign" ? h.resign : what === "keep" ? h.keepPlaying : h.rematch);
  });
}
