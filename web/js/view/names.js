// What every view of the table shares: the seat colours and the words for seats, bids and suits.
import { t, bidName } from "../i18n.js";
import { SUIT_SYMBOL } from "../cards.js";
import { seatName } from "../common.js";

export const $ = (id) => document.getElementById(id);

export const SEAT_COLORS = ["#f4c542", "#5ec8f2", "#f28b82"];

/** The name shown for a seat: the player's name, or the bot's own name (distinct at its table). */
export function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return "";
  const s = S.state.table.seats[seat];
  if (!s) return "";
  return s.name || seatName(s);
}

export function bidLabel(S, code) {
  return bidName(code, S.bids);
}

export function bidInfo(S, code) {
  return S.bids.find((b) => b.code === code);
}

/** "♠ spades" */
export function suitWord(suit) {
  return `${SUIT_SYMBOL[suit]} ${t(`suit.${suit}`)}`;
}

/** The kontra chain's steps that either defender may say (docs/protocol.md §12). */
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
