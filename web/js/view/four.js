// A table of four (docs/protocol/views.md §10.5): each deal's dealer sits out and the other three play it.
// The page draws a deal of three seats, so `dealState` turns the table's view (table seats 0..3) into the
// current deal's (its seats 0..2, `four.seats` naming the table seat behind each); the player sitting the
// deal out gets `you: null`, the spectator's page. The score sheet and the sitter-out's plate use the
// table's own view, kept as `four.table`.
import { t } from "../i18n.js";
import { html } from "../html.js";
import { seatName } from "../common.js";

/** The deal's view of a table of four's `raw` view (unchanged at a table of three, or before a deal). */
export function dealState(raw) {
  if (!raw || !raw.four || !raw.match) return raw;
  const f = raw.four;
  const seatOf = (p) => f.seats.indexOf(p); // table seat -> deal seat (-1: sits this deal out)
  const mapSeats = (list) => list.map(seatOf).filter((s) => s >= 0);
  const dealSeat = (p) => (p === null || p === undefined || seatOf(p) < 0 ? null : seatOf(p));
  const m = raw.match;
  return {
    ...raw,
    you: f.you_play,
    table: { ...raw.table, seats: f.seats.map((p) => raw.table.seats[p]) },
    next_deal: raw.next_deal && { ready: mapSeats(raw.next_deal.ready), waiting: mapSeats(raw.next_deal.waiting) },
    waiting: (raw.waiting || []).filter((w) => seatOf(w.seat) >= 0)
      .map((w) => ({ ...w, seat: seatOf(w.seat), agreed: mapSeats(w.agreed) })),
    chat: raw.chat.map((line) => ({ ...line, seat: dealSeat(line.seat) })),
    match: { ...m, totals: f.seats.map((p) => m.totals[p]), sheet: m.sheet.map((row) => f.seats.map((p) => row[p])),
      winner: dealSeat(m.winner) },
    four: { ...f, table: raw },
  };
}

/** A table seat's name at a table of four (from the table's own view). */
export function tableSeatName(st, seat) {
  const s = st.four.table.table.seats[seat];
  if (!s) return "";
  return s.kind === "bot" || !s.name ? seatName(s) : s.name;
}

/** The plate of the player sitting this deal out, and what it means for the viewer. */
export function sitsOutHtml(S) {
  const st = S.state;
  if (!st.four) return "";
  const out = st.four.sits_out;
  const mine = st.four.table.you === out;
  const words = mine ? t("four.sitsout.you") : t("four.sitsout", { name: tableSeatName(st, out) });
  return html`<div class="top-line sits-out" data-testid="sits-out" data-seat="${out}" role="status">
    <span class="seat-plate" data-testid="seat-out-name">${tableSeatName(st, out)}</span> <span class="muted">${words}</span></div>`;
}

/**
 * `S` as deal `k` saw it: at a table of four a past deal was played by other table seats than the current
 * one (`match.deal_seats[k]`), so its result names those players in its seats 0..2. Unchanged at a table
 * of three. A copy for drawing only.
 */
export function stateOfDeal(S, k) {
  const st = S.state;
  if (!st || !st.four) return S;
  const raw = st.four.table;
  const seats = raw.match && raw.match.deal_seats && raw.match.deal_seats[k];
  if (!seats) return S;
  return { ...S, state: { ...st, table: { ...st.table, seats: seats.map((p) => raw.table.seats[p]) } } };
}
