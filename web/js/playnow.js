// "Play now": one click from the first page to a dealt hand (you and two bots, a 6-deal match).
import { api } from "./api.js";
import { tableUrl } from "./common.js";
import { t } from "./i18n.js";
import { botLevels } from "./levels.js";

/**
 * The match "Play now" starts: six deals, no time limit, two bots of `level`: the one the server
 * recommends for the player by their rating (the lowest rung for a newcomer: GET /api/bot_levels).
 */
export function playNowConfig(level) {
  // no recommendation (the offer could not be read): the server's default level for a bot seat
  const bot = level ? { kind: "bot", level } : { kind: "bot" };
  return { deals: 6, move_seconds: 0, seats: [{ kind: "me" }, bot, { ...bot }] };
}

/** A first visitor's name until they choose one ("Guest 4821"): the name can be changed in the lobby. */
export function defaultName() {
  return t("start.guestname", { n: 1000 + Math.floor(Math.random() * 9000) });
}

/**
 * Start a match against two bots and go to it. `player` is the session's player, or null on a first
 * visit: a guest session with a default name is made first. Resolves only if something was refused
 * (the error), else the page is left.
 */
export async function playNow(player) {
  if (!player) {
    // a taken or refused name (rare: a number drawn twice) is drawn again once
    try { await api.session(defaultName()); } catch { await api.session(defaultName()); }
  }
  // asked after the session is made: the recommendation is this player's
  const { recommended } = await botLevels(true);
  const res = await api.createTable(playNowConfig(recommended));
  await api.start(res.table_id, true, recommended);
  location.href = tableUrl(res.table_id);
}
