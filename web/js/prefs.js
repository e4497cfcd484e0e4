// The player's own settings, kept in this browser (localStorage, keys `ulti.*`): sound, theme, card
// size and the pause after a trick. Each has a fixed set of values; an unknown or missing stored value
// reads as the default. The theme and the card size are applied to <html> (data-theme, data-card-size)
// so that the style sheets (css/theme.css) follow them on every page.

/** Each setting: its localStorage key, its values (the first is the default). */
export const PREFS = {
  sound: { key: "ulti.sound", values: ["on", "off"] },
  theme: { key: "ulti.theme", values: ["system", "light", "dark"] },
  cardSize: { key: "ulti.cardSize", values: ["normal", "small", "large"] },
  // read by the table page's trick pacing: how long a finished trick stays in view
  trickPause: { key: "ulti.trickPause", values: ["normal", "fast", "slow"] },
};

const listeners = [];

/** The current value of setting `name` (its default when nothing valid is stored). */
export function getPref(name) {
  const spec = PREFS[name];
  let stored = null;
  try { stored = localStorage.getItem(spec.key); } catch { /* private mode: defaults only */ }
  return spec.values.includes(stored) ? stored : spec.values[0];
}

/** Store `value` for setting `name` (ignored unless it is one of its values) and apply it at once. */
export function setPref(name, value) {
  const spec = PREFS[name];
  if (!spec || !spec.values.includes(value)) return;
  try { localStorage.setItem(spec.key, value); } catch { /* not remembered, still applied */ }
  applyPrefs();
  listeners.forEach((fn) => fn(name, value));
}

/** Call `fn(name, value)` whenever a setting changes (here, or in another tab of this browser). */
export function onPrefChange(fn) {
  listeners.push(fn);
}

const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The theme in force: the chosen one, or the system's when the choice is "follow the system". */
export function themeInForce() {
  const chosen = getPref("theme");
  if (chosen !== "system") return chosen;
  return darkQuery && darkQuery.matches ? "dark" : "light";
}

/** Put the theme and the card size on <html>, where the style sheets read them. */
export function applyPrefs() {
  const root = document.documentElement;
  root.dataset.theme = themeInForce();
  root.dataset.themeChoice = getPref("theme");
  root.dataset.cardSize = getPref("cardSize");
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute("content", root.dataset.theme === "dark" ? "#0c1a12" : "#0a4d2a");
}

if (darkQuery) {
  // "follow the system": the page changes with the system's setting, without a reload
  darkQuery.addEventListener("change", () => {
    applyPrefs();
    listeners.forEach((fn) => fn("theme", getPref("theme")));
  });
}
window.addEventListener("storage", (ev) => {
  const name = Object.keys(PREFS).find((n) => PREFS[n].key === ev.key);
  if (!name) return;
  applyPrefs();
  listeners.forEach((fn) => fn(name, getPref(name)));
});
applyPrefs();
