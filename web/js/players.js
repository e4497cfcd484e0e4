// What the player page and the leaderboard share: links to player pages, a rating as words, dates.
import { http } from "./api.js";
import { t, lang, botName } from "./i18n.js";
import { html } from "./html.js";

/** The address of a player's page: /@/<name>, the name percent-encoded (it may hold any character). */
export function playerUrl(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/** GET /api/players/{name} (docs/protocol/players.md §21). */
export function fetchPlayer(name) {
  return http("GET", `/api/players/${encodeURIComponent(name)}`);
}

/** GET /api/leaderboard. */
export function fetchLeaderboard() {
  return http("GET", "/api/leaderboard");
}

/** A rating as shown: "1532", with a "?" marked provisional (fewer than 10 rated matches behind it). */
export function ratingHtml(value, provisional) {
  if (!provisional) return html`<span class="rating">${value}</span>`;
  return html`<span class="rating provisional" title="${t("player.provisional")}">${value}<abbr class="provisional-mark" title="${t("player.provisional")}">?</abbr></span>`;
}

/** A player's name as a link to their page (a bot's name carries a mark). */
export function playerLink(name, bot = false) {
  return html`<a class="player-link" href="${playerUrl(name)}">${botName(name)}</a>${bot ? html` <span class="badge bot-badge">${t("player.bot")}</span>` : ""}`;
}

/** A moment (epoch ms) as a short local date and time. */
export function when(ms) {
  return new Date(ms).toLocaleString(lang() === "hu" ? "hu-HU" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/** A signed number: "+12", "−4", "0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "0";
}
