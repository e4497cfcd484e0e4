// The three seats around the felt: name, turn and countdown, cards and tricks, badges, marriages,
// and the hands of the others (backs, or faces when open).
import { t } from "../i18n.js";
import { cardSvg, cardLabel, sortHand } from "../cards.js";
import { html, join, updateHTML } from "../html.js";
import { $, SEAT_COLORS, nameOf, turnSeats } from "./names.js";

export function positions(st) {
  const me = st.you === null ? 0 : st.you;
  // Play goes to the "next seat" (s+1): counter-clockwise, as in Hungary, so it sits on the right.
  return { me, right: (me + 1) % 3, left: (me + 2) % 3 };
}

function marriageText(m) {
  if (!m) return "";
  const parts = [];
  if (m.forty) parts.push("40");
  for (let i = 0; i < m.twenties; i++) parts.push("20");
  if (!parts.length) return t("table.nomarriage");
  return parts.join(" + ");
}

/**
 * Once the deal is over, the hand `seat` played it with: its cards in the tricks and any it still
 * holds (a deal given up or decided early). The view carries every hand only after the deal's end.
 */
export function handInPlay(d, seat) {
  const cards = [];
  const add = (trick) => trick.cards.forEach((c, i) => { if ((trick.leader + i) % 3 === seat) cards.push(c); });
  d.tricks.forEach(add);
  if (d.trick && d.trick.cards.length) add(d.trick);
  return [...cards, ...(d.hands[String(seat)] || [])];
}

function miniHand(S, seat, cards, testid) {
  const sorted = sortHand(cards, S.state.deal.contract);
  return html`<div class="mini-hand open" data-testid="${testid}" aria-label="${t("table.hand.of", { name: nameOf(S, seat) })}">${sorted.map((c) => html`<span class="mini-card" title="${cardLabel(c)}" aria-label="${cardLabel(c)}" role="img" data-card="${c}">${cardSvg(c)}</span>`)}</div>`;
}

function seatBox(S, seat, where) {
  const st = S.state;
  const d = st.deal;
  const s = st.table.seats[seat];
  const onTurn = turnSeats(S).includes(seat);
  const badges = [];
  if (st.you === seat) badges.push(html`<span class="badge you">${t("seat.you")}</span>`);
  if (d.dealer === seat) badges.push(html`<span class="badge dealer" title="${t("seat.dealer")}">${t("seat.dealer")}</span>`);
  if (d.contract && d.contract.declarer === seat) badges.push(html`<span class="badge decl">${t("table.declarer")}</span>`);
  if (s.kind === "bot") badges.push(html`<span class="badge bot">${t("seat.bot")}</span>`);
  if (s.bot) badges.push(html`<span class="badge bot" data-testid="bot-mark-${seat}">${t("seat.botmark")}</span>`); // a bot account (bot API)
  if (s.away) badges.push(html`<span class="badge away" data-testid="away-${seat}" title="${t("seat.away")}">${t("seat.away")}</span>`);
  const waited = (st.waiting || []).some((w) => w.seat === seat);
  if (waited) badges.push(html`<span class="badge off waited" data-testid="waited-${seat}">${t("seat.waited")}</span>`);
  else if (s.kind === "player" && s.connected === false && !s.away) badges.push(html`<span class="badge off">${t("seat.offline")}</span>`);
  const mar = d.marriages && d.marriages[String(seat)];
  const marriage = mar ? html`<span class="marriage" data-testid="marriage-${seat}" title="${t("table.marriages")}"><small>${t("table.marriages")}:</small> ${marriageText(mar)}${mar.counting ? html` <small>(${t("table.counts", { n: mar.counting })})</small>` : ""}</span>` : "";
  const size = d.hand_sizes[seat];
  let cards = "";
  if (d.phase === "done" && d.hands[String(seat)]) {
    // every hand face up at the table once the deal is over (the server sends them only then)
    cards = html`<div class="shown-hand"><small>${t("table.hand.played")}</small>${miniHand(S, seat, handInPlay(d, seat), `shown-hand-${seat}`)}</div>`;
  } else if (where !== "me") {
    const open = d.hands[String(seat)];
    if (open) {
      cards = miniHand(S, seat, open, `open-hand-${seat}`);
    } else if (size) {
      cards = html`<div class="mini-hand backs" aria-hidden="true">${Array.from({ length: size }, () => html`<span class="mini-card">${cardSvg(null, { faceDown: true })}</span>`)}</div>`;
    }
  }
  return html`<div class="seat-inner ${onTurn ? "on-turn" : ""}" data-testid="seat-${seat}" data-on-turn="${onTurn ? 1 : 0}" style="--seat-color:${SEAT_COLORS[seat]}">
    <div class="seat-head"><span class="dot" aria-hidden="true"></span><strong class="seat-name" data-testid="seat-name-${seat}">${nameOf(S, seat)}</strong>
      ${onTurn ? html`<span class="turn-mark" data-testid="turn-${seat}">▶ ${t("seat.onturn")}</span><span class="countdown" data-countdown data-testid="countdown-${seat}"></span>` : ""}</div>
    <div class="seat-meta"><span data-testid="hand-size-${seat}">${t("seat.cards", { n: size })}</span> · <span>${t("seat.tricks", { n: d.won[seat] })}</span> ${marriage}</div>
    <div class="badges">${join(badges, " ")}</div>
    ${cards}
  </div>`;
}

export function renderSeats(S) {
  const pos = positions(S.state);
  updateHTML($("seat-left"), seatBox(S, pos.left, "left"));
  updateHTML($("seat-right"), seatBox(S, pos.right, "right"));
  updateHTML($("seat-me"), seatBox(S, pos.me, "me"));
}
