// Cards drawn as SVG with French suits, plus sorting and names.
// Codes are RECORD.md's: rank 7 8 9 T J Q K A, then suit C S D H.
import { t, lang } from "./i18n.js";
import { html } from "./html.js";

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

/** The short index printed in the corner: A K Q J 10 … (Á K F A 10 … in Hungarian). */
export function rankFace(rank) {
  if (rank === "T") return "10";
  if (lang() === "hu") return { A: "Á", K: "K", Q: "F", J: "A" }[rank] || rank;
  return rank;
}

/** "♠K" */
export function cardShort(code) {
  return SUIT_SYMBOL[suitOf(code)] + rankFace(rankOf(code));
}

/** "king of spades" / "zöld király" */
export function cardName(code) {
  const rank = t(`rank.${rankOf(code)}`);
  const suit = t(`suit.${suitOf(code)}`);
  return lang() === "hu" ? `${suit} ${rank}` : `${rank} ${t("of")} ${suit}`;
}

/** "♠K (king of spades)" for accessible labels and titles. */
export function cardLabel(code) {
  return `${cardShort(code)} ${cardName(code)}`;
}

const PIPS = {
  // positions (x, y) on a 60 x 84 card for number cards
  "7": [[18, 20], [42, 20], [30, 32], [18, 42], [42, 42], [18, 64], [42, 64]],
  "8": [[18, 20], [42, 20], [30, 31], [18, 42], [42, 42], [30, 53], [18, 64], [42, 64]],
  "9": [[18, 18], [42, 18], [18, 34], [42, 34], [30, 42], [18, 50], [42, 50], [18, 66], [42, 66]],
  T: [[18, 18], [42, 18], [30, 26], [18, 34], [42, 34], [18, 50], [42, 50], [30, 58], [18, 66], [42, 66]],
};

/**
 * A card face as SVG markup (an html`…` result, viewBox 60 x 84). `faceDown` draws the back.
 * The index (rank + suit) sits in the top-left corner, so it stays visible when cards overlap.
 */
export function cardSvg(code, { faceDown = false } = {}) {
  if (faceDown || !code) {
    return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="5" class="card-back"/>
<rect x="5" y="5" width="50" height="74" rx="3" class="card-back-inner"/>
</svg>`;
  }
  const r = rankOf(code);
  const s = suitOf(code);
  const sym = SUIT_SYMBOL[s];
  const face = rankFace(r);
  const color = RED[s] ? "red" : "black";
  let middle;
  if (PIPS[r]) {
    middle = PIPS[r].map(([x, y]) => html`<text x="${x}" y="${y + 4}" class="pip">${sym}</text>`);
  } else if (r === "A") {
    middle = html`<text x="30" y="55" class="pip-ace">${sym}</text>`;
  } else {
    middle = html`<rect x="14" y="20" width="32" height="46" rx="3" class="court"/>
<text x="30" y="41" class="court-rank">${face}</text><text x="30" y="60" class="court-suit">${sym}</text>`;
  }
  return html`<svg class="card-svg ${color}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="5" class="card-face"/>
<text x="4" y="15" class="idx">${face}</text><text x="4.5" y="27" class="idx-suit">${sym}</text>
<g class="mid">${middle}</g>
<text x="56" y="80" class="idx idx-br">${face}</text>
</svg>`;
}
