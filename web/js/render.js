// The table page drawn from its state: state in, DOM out. Event handlers come from table.js (`h`).
// One view module per part of the table, in web/js/view/:
//   names.js     seat colours, the names of seats, bids and suits (shared by the views)
//   chat.js      the table chat            waiting.js  the waiting room before the match
//   top.js       the top bar of the felt   seats.js    the three seats and the others' hands
//   trick.js     the centre: trick, standing bid, talon
//   hand.js      my hand (cards as buttons, keys)
//   controls.js  what I may do now, built from auction.js, kontra.js and result.js
//   kontra.js    kontra choices and the multipliers panel
//   log.js       the log of the deal       result.js   a deal's result
//   sheet.js     the score sheet and its chart
//   absent.js    the absent players a table waits for, and what a bot played for me
//   dock.js      on a small screen: the hand and the current decision in a bar fixed at the bottom
//   matchactions.js  resign (with its confirmation) and rematch
// Every view builds its markup with html`…` (web/js/html.js): values are escaped by construction.
import { $ } from "./view/names.js";
import { renderChat } from "./view/chat.js";
import { renderWaiting } from "./view/waiting.js";
import { renderTop } from "./view/top.js";
import { renderSeats } from "./view/seats.js";
import { renderCenter } from "./view/trick.js";
import { renderHand } from "./view/hand.js";
import { renderControls } from "./view/controls.js";
import { renderKontraView } from "./view/kontra.js";
export { kontraKey } from "./view/kontra.js";
import { renderLog } from "./view/log.js";
import { placeDock } from "./view/dock.js";
import { renderMatchActions } from "./view/matchactions.js";
import { renderAbsent } from "./view/absent.js";
export { tickAbsent } from "./view/absent.js";

export { SEAT_COLORS } from "./view/names.js";
export { freeChatAllowed, chatWait, noteChat } from "./view/chat.js";
export { positions } from "./view/seats.js";
export { refusedReason, globalKeys, outOfTurnText } from "./view/hand.js";
export { resultHtml } from "./view/result.js";
export { chartSvg, renderSheet } from "./view/sheet.js";

export function renderTable(S, h) {
  const st = S.state;
  const waiting = st.table.status === "open" || !st.deal;
  $("waiting").hidden = !waiting;
  $("layout").hidden = waiting;
  renderChat(S, h, waiting);
  placeDock(waiting);
  if (waiting) {
    renderWaiting(S, h);
    return;
  }
  renderTop(S, h);
  renderAbsent(S, h);
  renderSeats(S, h);
  renderCenter(S, h);
  renderHand(S, h);
  renderControls(S, h);
  renderKontraView(S);
  renderLog(S, h);
  renderMatchActions(S, h);
}
