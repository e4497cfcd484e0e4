// The bot levels offered to people (GET /api/bot_levels, protocol http.md): the ladder, lowest rating first,
// each with the rating measured by rated matches among the levels, and the level the server recommends for
// this session's player. The page chooses no level itself: the lobby's seats, events, tournaments, the
// waiting room and Play now all read this one answer.
import { http } from "./api.js";
import { html } from "./html.js";
import { t } from "./i18n.js";

let asked = null;

/**
 * The offer `{levels: [{level, rating, low, high, matches, about}], recommended}`, asked once per page;
 * `fresh` asks again (after a session is made: the recommendation is the session's player's). A failed
 * answer is an empty offer, and is asked again the next time.
 */
export function botLevels(fresh = false) {
  if (!asked || fresh) {
    asked = http("GET", "/api/bot_levels").catch(() => { asked = null; return { levels: [], recommended: null }; });
  }
  return asked;
}

/** "Club bot · 1565" / "Klub gép · 1565": a level with its measured rating, as a choice shows it. */
export function levelLabel(entry) {
  return t("botlevel.rated", { level: t(`botlevel.${entry.level}`), rating: entry.rating });
}

/** The `<option>`s of the offered levels (value `prefix + level`), `selected` chosen, each described by its title. */
export function levelOptions(offer, selected, prefix = "") {
  return html`${offer.levels.map((e) => html`<option value="${prefix}${e.level}" title="${t(e.about)}"
    ${selected === prefix + e.level ? "selected" : ""}>${levelLabel(e)}</option>`)}`;
}
