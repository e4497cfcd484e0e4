// What every page shares: the header with the menu and the language switch, the session, toasts.
import { api, ApiError } from "./api.js";
import { t, lang, setLang, applyStatic, onLangChange, refusalMessage, botName } from "./i18n.js";
import { html, setHTML } from "./html.js";
import { pack, setPack, suitIcon, SUITS } from "./cards.js";
import { applyPrefs } from "./prefs.js";
import { openSettings, renderSettings } from "./view/settings.js";
import { registerWorker } from "./install.js";

/** Build the page header (menu + language switch) into <header id="site-header">. */
export function initPage(active) {
  document.documentElement.lang = lang();
  const header = document.getElementById("site-header");
  if (header) {
    const current = (page) => (active === page ? html`aria-current="page"` : "");
    setHTML(header, html`
      <a class="brand" href="/index.html" data-testid="brand"><span class="brand-suits" aria-hidden="true"></span> <span data-i18n="app.title"></span></a>
      <nav aria-label="${t("nav.menu")}" data-i18n-label="nav.menu" class="menu">
        <a href="/index.html" data-testid="nav-lobby" ${current("lobby")} data-i18n="nav.lobby"></a>
        <a href="/rules.html" data-testid="nav-rules" ${current("rules")} data-i18n="nav.rules"></a>
        <a href="/matches.html" data-testid="nav-matches" ${current("matches")} data-i18n="nav.matches"></a>
        <a href="/leaderboard.html" data-testid="nav-leaderboard" ${current("leaderboard")} data-i18n="nav.leaderboard"></a>
        <a href="/puzzles.html" data-testid="nav-puzzles" ${current("puzzles")} data-i18n="nav.puzzles"></a>
        <button type="button" class="lang-btn" data-testid="lang-toggle" data-i18n="nav.lang" data-i18n-label="nav.lang.label"></button>
        <button type="button" class="lang-btn pack-btn" data-testid="pack-toggle" data-i18n-label="nav.pack.label"></button>
        <button type="button" class="lang-btn settings-btn" data-testid="settings-toggle" data-i18n-label="settings.open"><span aria-hidden="true">⚙</span></button>
      </nav>`);
    header.querySelector("[data-testid=settings-toggle]").addEventListener("click", openSettings);
    onLangChange(() => {
      const dlg = document.getElementById("settings-dialog");
      if (dlg && dlg.open) renderSettings();
    });
    header.querySelector("[data-testid=lang-toggle]").addEventListener("click", () => setLang(lang() === "hu" ? "en" : "hu"));
    const packBtn = header.querySelector(".pack-btn");
    const showPack = () => {
      setHTML(packBtn, html`${suitIcon("H")}<span class="pack-name">${t(`nav.pack.${pack()}`)}</span>`);
      packBtn.dataset.pack = pack();
      packBtn.title = t("nav.pack.label");
      // the brand's four suits in the pack in force: the Hungarian pack's drawings, never the French glyphs
      setHTML(header.querySelector(".brand-suits"), html`${SUITS.map((s) => suitIcon(s))}`);
    };
    showPack();
    onLangChange(showPack);
    packBtn.addEventListener("click", () => {
      setPack(pack() === "hungarian" ? "french" : "hungarian");
      // every page re-renders on a language change: saying the language again redraws the cards too
      setLang(lang());
    });
  }
  document.documentElement.dataset.pack = pack();
  applyPrefs();
  registerWorker();
  applyStatic();
  onLangChange(() => {});
}

let toastTimer = null;
/** A short message at the bottom of the screen (also read by screen readers). */
export function toast(text, kind = "info") {
  let el = document.getElementById("toast");
  if (!el) {
    el = document.createElement("div");
    el.id = "toast";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    el.dataset.testid = "toast";
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = "toast"; }, 3500);
}

/** The words of an error: a refusal by the server is worded from its code and values (protocol §16). */
export function errorText(e) {
  if (e instanceof ApiError) return refusalMessage(e);
  return String(e && e.message ? e.message : e);
}

/** The current player, or null when there is no valid session cookie (asked without a 401: a first visit logs no error). */
export async function currentPlayer() {
  try {
    return (await api.whoami()).player || null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/**
 * Render a name form into `container`; resolves with the player once a session exists.
 * `existing` pre-fills the name for a "change name" form.
 */
export function askName(container, existing = "") {
  return new Promise((resolve) => {
    setHTML(container, html`
      <form class="name-form card-panel" data-testid="name-form">
        <h2 data-i18n="name.title"></h2>
        <label for="name-input" data-i18n="name.label"></label>
        <div class="row">
          <input id="name-input" name="name" maxlength="32" required autocomplete="nickname" data-testid="name-input" value="${existing}">
          <button type="submit" class="primary" data-testid="name-submit" data-i18n="name.go"></button>
        </div>
        <p class="form-error" role="alert" data-testid="name-error"></p>
      </form>`);
    applyStatic(container);
    const form = container.querySelector("form");
    const input = form.querySelector("input");
    input.focus({ preventScroll: true }); // the first page keeps "Play now" in view
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      const errEl = form.querySelector(".form-error");
      if (!name || name.length > 32) {
        errEl.textContent = t("name.bad");
        return;
      }
      try {
        const res = await api.session(name);
        setHTML(container, html``);
        resolve(res.player);
      } catch (e) {
        errEl.textContent = errorText(e);
      }
    });
  });
}

/** Copy text to the clipboard (falls back to selecting a hidden textarea). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

/** Invite tokens are only told to the host at creation: keep them per table in localStorage. */
export function saveInvites(tableId, invites) {
  try { localStorage.setItem(`ulti.invites.${tableId}`, JSON.stringify(invites || {})); } catch { /* ignore */ }
}
export function loadInvites(tableId) {
  try { return JSON.parse(localStorage.getItem(`ulti.invites.${tableId}`) || "{}"); } catch { return {}; }
}

export function tableUrl(tableId, extra = {}) {
  const u = new URL("/table.html", location.origin);
  u.searchParams.set("t", tableId);
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  return u.toString();
}

/** "Anna, Bot (random), –" seat names in a summary */
export function seatName(seat) {
  if (!seat) return "";
  // a bot's own name from the server ("Bot · strong 2"): two bots of one level read apart
  if (seat.kind === "bot") return seat.name ? botName(seat.name) : t(`seatkind.bot.${seat.level || "heuristic"}`);
  if (seat.kind === "open") return t("seat.free");
  if (seat.kind === "invite") return t("seat.invite");
  return seat.bot ? `${seat.name} [${t("seat.botmark")}]` : seat.name; // a bot account (bot API) is marked wherever it is named
}
