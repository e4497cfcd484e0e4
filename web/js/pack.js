// The card pack in force: "french" (clubs, spades, diamonds, hearts) or "hungarian" (acorns, leaves,
// bells, hearts). A setting of the page, remembered in localStorage ("ulti.pack"); French by default.
// Its own module so that the words (i18n.js) and the drawings (cards.js) both follow it.

export const PACKS = ["french", "hungarian"];
const PACK_KEY = "ulti.pack";
let currentPack = (() => {
  try {
    const saved = localStorage.getItem(PACK_KEY);
    if (PACKS.includes(saved)) return saved;
  } catch { /* private mode */ }
  return "french";
})();

/** The pack in force: "french" or "hungarian". */
export function pack() {
  return currentPack;
}

/** Choose the pack (remembered); the page re-renders through the caller. */
export function setPack(p) {
  currentPack = PACKS.includes(p) ? p : "french";
  try { localStorage.setItem(PACK_KEY, currentPack); } catch { /* ignore */ }
  document.documentElement.dataset.pack = currentPack;
}
