// What every view of the table shares: the seat colours and the words for seats, bids and suits.
import { bidName, suitName, suitText } from "../i18n.js";
import { suitIcon } from "../cards.js";
import { html } from "../html.js";
import { seatName } from "../common.js";

export const $ = (id) => document.getElementById(id);

export const SEAT_COLORS = ["#f4c542", "#5ec8f2", "#f28b82"];

/** The name shown for a seat: the player's name, or the bot's own name (distinct at its table). */
export function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return "";
  const s = S.state.table.seats[seat];
  if (!s) return "";
  return s.kind === "bot" || !s.name ? seatName(s) : s.name;
}

export function bidLabel(S, code) {
  return bidName(code, S.bids);
}

export function bidInfo(S, code) {
  return S.bids.find((b) => b.code === code);
}

/** A suit in text, in the pack in force: "♠ spades", or "leaves" / "zöld" in the Hungarian pack. */
export function suitWord(suit) {
  return suitText(suit);
}

/** A suit in markup: its sign in the pack in force (a glyph, or the Hungarian pack's drawing) and its name. */
export function suitHtml(suit) {
  return html`<span class="suit-word suit-${suit}">${suitIcon(suit)} ${suitName(suit)}</span>`;
}
