// What every view of the table shares: the seat colours and the words for seats, bids and suits.
import { bidName, suitName, suitText } from "../i18n.js";
import { suitIcon } from "../cards.js";
import { html } from "../html.js";
import { seatName } from "../common.js";

export const $ = (id) => document.getElementById(id);

export const SEAT_COLORS = ["#f4c542", "#5ec8f2", "#f28b82", "#a5d6a7"]; // the fourth: a table of four's sheet

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

/** The kontra chain's steps that either defender may say (docs/protocol/table.md §12). */
const DEFENDER_STEPS = new Set(["szubkontra", "mordkontra"]);

/** The seats the table waits for now: the seat on turn, or, while the kontra chain waits for the
 * defenders' step, each defender who has not declined it (either may speak). Empty once the deal is over. */
export function turnSeats(S) {
  const d = S.state.deal;
  if (!d || d.phase === "done" || d.to_move < 0) return [];
  const c = d.chain;
  if (c && DEFENDER_STEPS.has(c.step) && d.contract) {
    const declined = new Set(c.declined || []);
    return [0, 1, 2].filter((s) => s !== d.contract.declarer && !declined.has(s));
  }
  return [d.to_move];
}
