// Cards drawn as SVG in two packs, plus sorting and names.
// Codes are docs/record.md's: rank 7 8 9 T J Q K A, then suit C S D H.
// Packs: "french" (clubs, spades, diamonds, hearts) and "hungarian", the German-suited pack Hungarian
// players know: acorns (makk) for C, leaves (zöld) for S, bells (tök) for D, hearts (piros) for H, with
// the under (alsó) for J and the over (felső) for Q. Every symbol is drawn here as SVG: no images.
// The pack in force is a setting of the page (pack.js); the words follow it too (i18n.js suitName, cardText).
import { t, lang, suitName, cardText } from "./i18n.js";
import { pack } from "./pack.js";
import { html } from "./html.js";

export { PACKS, pack, setPack } from "./pack.js";

export const SUITS = ["C", "S", "D", "H"];
export const SUIT_SYMBOL = { C: "♣", S: "♠", D: "♦", H: "♥" };
const RED = { D: true, H: true };

// High to low.
export const TRUMP_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"];
export const NOTRUMP_ORDER = ["A", "K", "Q", "J", "T", "9", "8", "7"];

export const rankOf = (code) => code[0];
export const suitOf = (code) => code[1];

/** Is the bid a no-trump bid (betli, no-trump durchmars)? */
export const isNoTrumpBid = (bid) => !!bid && bid.startsWith("N-");

/** The rank order (high to low) in force: no-trump order only under a no-trump contract. */
export function rankOrder(bid) {
  return isNoTrumpBid(bid) ? NOTRUMP_ORDER : TRUMP_ORDER;
}

/** The trump suit of a contract, or null. */
export function trumpOf(contract) {
  if (!contract) return null;
  if (contract.trump) return contract.trump;
  if (contract.bid && contract.bid.startsWith("H-")) return "H";
  return null;
}

/** Sort a hand by suit (alternating colours, trumps first) and by the contract's rank order. */
export function sortHand(cards, contract) {
  const order = rankOrder(contract && contract.bid);
  const trump = trumpOf(contract);
  let suits = ["C", "D", "S", "H"];
  if (trump) suits = [trump, ...suits.filter((s) => s !== trump)];
  return [...cards].sort((a, b) => {
    const sa = suits.indexOf(suitOf(a));
    const sb = suits.indexOf(suitOf(b));
    if (sa !== sb) return sa - sb;
    return order.indexOf(rankOf(a)) - order.indexOf(rankOf(b));
  });
}

/**
 * The short index of a rank in text: A K Q J 10 … in English; in Hungarian Ász K F A 10 …
 * (ász, király, felső, alsó): the ace is written out so that it never reads like the under's "A".
 */
export function rankFace(rank) {
  if (rank === "T") return "10";
  if (lang() === "hu") return { A: "Ász", K: "K", Q: "F", J: "A" }[rank] || rank;
  return rank;
}

const ROMAN = { 7: "VII", 8: "VIII", 9: "IX", T: "X" };

/** The index printed in a card's corner: the text index, or in the Hungarian pack Roman numbers and U/O (A/F). */
export function cornerIndex(rank) {
  if (pack() !== "hungarian") return rankFace(rank);
  if (ROMAN[rank]) return ROMAN[rank];
  if (lang() === "hu") return rankFace(rank);
  return { A: "A", K: "K", Q: "O", J: "U" }[rank] || rank;
}

/** "♠K" in the French pack; "leaves U" / "zöld A" in the Hungarian one (its signs are drawings, never glyphs). */
export function cardShort(code) {
  return cardText(code);
}

/** "king of spades" / "zöld király" */
export function cardName(code) {
  const r = rankOf(code);
  // the Hungarian pack has no queen and jack: its over and under
  const rank = t(pack() === "hungarian" && (r === "Q" || r === "J") ? `rank.hu.${r}` : `rank.${r}`);
  const suit = suitName(suitOf(code));
  return lang() === "hu" ? `${suit} ${rank}` : `${rank} ${t("of")} ${suit}`;
}

/** "♠K king of spades" for accessible labels and titles; "zöld felső" in the Hungarian pack (its short form says the same). */
export function cardLabel(code) {
  return pack() === "hungarian" ? cardName(code) : `${cardShort(code)} ${cardName(code)}`;
}

const PIPS = {
  // positions (x, y) on a 60 x 84 card for number cards
  "7": [[18, 20], [42, 20], [30, 32], [18, 42], [42, 42], [18, 64], [42, 64]],
  "8": [[18, 20], [42, 20], [30, 31], [18, 42], [42, 42], [30, 53], [18, 64], [42, 64]],
  "9": [[18, 18], [42, 18], [18, 34], [42, 34], [30, 42], [18, 50], [42, 50], [18, 66], [42, 66]],
  T: [[18, 18], [42, 18], [30, 26], [18, 34], [42, 34], [18, 50], [42, 50], [30, 58], [18, 66], [42, 66]],
};

/**
 * A card face as SVG markup (an html`…` result, viewBox 60 x 84) in the pack in force. `faceDown` draws the back.
 * The index (rank + suit) sits in the top-left corner, so it stays visible when cards overlap.
 */
export function cardSvg(code, { faceDown = false } = {}) {
  if (faceDown || !code) {
    return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="5" class="card-back"/>
<rect x="5" y="5" width="50" height="74" rx="3" class="card-back-inner"/>
</svg>`;
  }
  return pack() === "hungarian" ? hungarianSvg(code) : frenchSvg(code);
}

function frenchSvg(code) {
  const r = rankOf(code);
  const s = suitOf(code);
  const sym = SUIT_SYMBOL[s];
  const face = cornerIndex(r);
  const color = RED[s] ? "red" : "black";
  const wide = face.length > 2 ? "idx-wide" : "";
  let middle;
  if (PIPS[r]) {
    middle = PIPS[r].map(([x, y]) => html`<text x="${x}" y="${y + 4}" class="pip">${sym}</text>`);
  } else if (r === "A") {
    middle = html`<text x="30" y="55" class="pip-ace">${sym}</text>`;
  } else {
    middle = html`<rect x="14" y="20" width="32" height="46" rx="3" class="court"/>
<text x="30" y="41" class="court-rank">${face}</text><text x="30" y="60" class="court-suit">${sym}</text>`;
  }
  return html`<svg class="card-svg french ${color}" viewBox="0 0 60 84" aria-hidden="true" focusable="false" data-pack="french">
<rect x="1" y="1" width="58" height="82" rx="5" class="card-face"/>
<text x="4" y="15" class="idx ${wide}">${face}</text><text x="4.5" y="27" class="idx-suit">${sym}</text>
<g class="mid">${middle}</g>
<text x="56" y="80" class="idx idx-br">${face}</text>
</svg>`;
}

// ---------------------------------------------------------------- the Hungarian pack

/** Colours of the Hungarian suits: fill, outline, and a light tint for the court figures' clothes. */
const HU = {
  C: { fill: "#b07434", line: "#5a3510", tint: "#efd9bd", name: "acorns" }, // makk
  S: { fill: "#2f8f3a", line: "#17521f", tint: "#cfe8cf", name: "leaves" }, // zöld
  D: { fill: "#e2a400", line: "#7d5400", tint: "#f8e6ae", name: "bells" }, // tök
  H: { fill: "#c8102e", line: "#7a0a1b", tint: "#f6cdd2", name: "hearts" }, // piros
};

/** A Hungarian suit symbol drawn in a 20 x 20 box, as SVG elements (no <svg> around them). */
function huShape(s) {
  const c = HU[s];
  if (s === "H") {
    return html`<path d="M10 17.8C4.4 13.6 1.8 10.5 1.8 7.3 1.8 4.8 3.7 3 6 3c1.7 0 3.1 1 4 2.6C10.9 4 12.3 3 14 3c2.3 0 4.2 1.8 4.2 4.3 0 3.2-2.6 6.3-8.2 10.5z" fill="${c.fill}" stroke="${c.line}" stroke-width="0.8"/>`;
  }
  if (s === "S") {
    return html`<path d="M10 1.2C15.8 4.8 17.4 9.6 14.8 14 13.4 16.4 11.4 17.4 10 17.8 8.6 17.4 6.6 16.4 5.2 14 2.6 9.6 4.2 4.8 10 1.2z" fill="${c.fill}" stroke="${c.line}" stroke-width="0.8"/>
<path d="M10 3.5V19.2M10 8.2 13 6.2M10 11.2 13.8 9M10 8.2 7 6.2M10 11.2 6.2 9M10 14.2 12.6 12.6M10 14.2 7.4 12.6" fill="none" stroke="${c.line}" stroke-width="0.8" stroke-linecap="round"/>`;
  }
  if (s === "D") {
    return html`<circle cx="10" cy="3" r="1.5" fill="none" stroke="${c.line}" stroke-width="0.9"/>
<circle cx="10" cy="11" r="7" fill="${c.fill}" stroke="${c.line}" stroke-width="0.8"/>
<path d="M3.4 9.2h13.2M3.4 11.6h13.2" stroke="${c.line}" stroke-width="0.8"/>
<path d="M10 14v3.4" stroke="${c.line}" stroke-width="1.2" stroke-linecap="round"/><circle cx="10" cy="14" r="1.1" fill="${c.line}"/>`;
  }
  // acorn: the nut, the scaly cap over it, the stalk
  return html`<path d="M5.2 9.6h9.6c0 4.6-2.1 7.9-4.8 8.6-2.7-.7-4.8-4-4.8-8.6z" fill="${c.fill}" stroke="${c.line}" stroke-width="0.8"/>
<path d="M3.8 10c0-3.9 2.7-6.4 6.2-6.4s6.2 2.5 6.2 6.4z" fill="#6b4218" stroke="${c.line}" stroke-width="0.8"/>
<path d="M6 6.4 9 9.6M9 4.4l4.2 5.2M12.6 4.8l2.6 3.4M5 8.6 6.2 10M14 6.2 8 10M11 4.4 5 9.4" stroke="#c9a16a" stroke-width="0.55"/>
<path d="M10 3.8V1.4" stroke="${c.line}" stroke-width="1.2" stroke-linecap="round"/>`;
}

/** One Hungarian suit symbol of `size` centred on (x, y) inside a card's SVG. */
function huSymbol(s, x, y, size) {
  const k = size / 20;
  return html`<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})">${huShape(s)}</g>`;
}

/** A suit symbol as a small inline SVG in the pack in force (for buttons and labels); text in the French pack. */
export function suitIcon(s) {
  if (pack() !== "hungarian") return html`<span class="suit-sym suit-${s}" aria-hidden="true">${SUIT_SYMBOL[s]}</span>`;
  return html`<svg class="suit-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false" data-suit-icon="${HU[s].name}">${huShape(s)}</svg>`;
}

/** A court figure of the Hungarian pack: under, over or king, in the suit's colours, holding the suit's symbol. */
function huCourt(r, s) {
  const c = HU[s];
  const crown = r === "K"
    ? html`<path d="M23.5 24.5 24.5 17l3 4 2.5-5 2.5 5 3-4 1 7.5z" fill="#e9c23a" stroke="#7d5400" stroke-width="0.7"/>`
    : html`<path d="M23.5 24.6c0-3.8 2.9-6.2 6.5-6.2s6.5 2.4 6.5 6.2z" fill="${c.fill}" stroke="${c.line}" stroke-width="0.7"/><path d="M36 21.5l5-2.5" stroke="${c.line}" stroke-width="1.2" stroke-linecap="round"/>`;
  // the over holds the symbol high, the under low, the king at his chest
  const held = r === "Q" ? huSymbol(s, 44, 24, 12) : r === "J" ? huSymbol(s, 44, 60, 12) : huSymbol(s, 30, 50, 11);
  return html`<rect x="9" y="13" width="42" height="60" rx="3" fill="${c.tint}" stroke="${c.line}" stroke-width="0.6" opacity="0.55"/>
<path d="M17 72c0-14 3.5-24 13-25.5C39.5 48 43 58 43 72z" fill="${c.fill}" stroke="${c.line}" stroke-width="0.8"/>
<path d="M30 47v25M25 55h10" stroke="${c.tint}" stroke-width="1.6"/>
<circle cx="30" cy="30" r="6.5" fill="#f3d5b5" stroke="#8a6a4a" stroke-width="0.8"/>
<path d="M27.4 29.2h.01M32.6 29.2h.01" stroke="#3a2a1a" stroke-width="1.4" stroke-linecap="round"/>
<path d="M27.5 33.2c1.6 1 3.4 1 5 0" fill="none" stroke="#8a4a3a" stroke-width="0.8"/>
${crown}${held}`;
}

function hungarianSvg(code) {
  const r = rankOf(code);
  const s = suitOf(code);
  const c = HU[s];
  const face = cornerIndex(r);
  const wide = face.length > 2 ? "idx-wide" : "";
  let middle;
  if (PIPS[r]) {
    // the pips a little right of and below the French ones: the corner index keeps its own room
    middle = PIPS[r].map(([x, y]) => huSymbol(s, 24 + (x - 18) * 0.9, 23 + (y - 18) * 0.94, 11));
  } else if (r === "A") {
    middle = html`<path d="M14 62c6 4 26 4 32 0l-2 7c-6 3-22 3-28 0z" fill="${c.tint}" stroke="${c.line}" stroke-width="0.7"/>${huSymbol(s, 30, 40, 30)}`;
  } else {
    middle = huCourt(r, s);
  }
  return html`<svg class="card-svg hu hu-${s}" viewBox="0 0 60 84" aria-hidden="true" focusable="false" data-pack="hungarian">
<rect x="1" y="1" width="58" height="82" rx="5" class="card-face"/>
<rect x="4" y="4" width="52" height="76" rx="3" fill="none" stroke="${c.fill}" stroke-width="0.7" opacity="0.6"/>
<g class="mid">${middle}</g>
${PIPS[r] ? "" : html`<rect x="2" y="3" width="${face.length > 2 ? 19 : 14}" height="27" rx="2" fill="#fffdf8" opacity="0.9"/>`}
<text x="4" y="14" class="idx ${wide}">${face}</text>${huSymbol(s, 9, 22, 10)}
<text x="56" y="80" class="idx idx-br">${face}</text>
</svg>`;
}
