// What the table tells a person who is not looking at it: a sound for each thing that happened (your
// turn, a card played, a trick won, the deal's end; sound.js) and, while it is your turn, the tab's
// title and icon marked, so that a player in another tab sees it. Both follow the table's state as
// it changes: table.js calls `signalChanges` with the state before and after each message.
import { t } from "./i18n.js";
import { playCue } from "./sound.js";

const ICON = "/favicon.svg";
let baseTitle = null;
let markedIcon = null;
let turnSignalled = "";

/** The favicon with a bright dot in its corner, as a data URL (drawn once from the site's icon). */
async function marked() {
  if (markedIcon) return markedIcon;
  const svg = await (await fetch(ICON)).text();
  const dot = '<circle cx="25" cy="7" r="6.5" fill="#ffcc00" stroke="#7a3d00" stroke-width="1.5"/></svg>';
  markedIcon = `data:image/svg+xml,${encodeURIComponent(svg.replace(/<\/svg>\s*$/, dot))}`;
  return markedIcon;
}

function iconLink() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.appendChild(link);
  }
  return link;
}

/** Mark the tab (title and icon) while `mine` is true; give it back its own title and icon when not. */
export function showTurnInTab(mine) {
  if (baseTitle === null) baseTitle = document.title;
  const root = document.documentElement;
  if (mine) {
    document.title = t("tab.yourturn", { title: "Ulti" });
    root.dataset.tabTurn = "1";
    marked().then((url) => { if (root.dataset.tabTurn === "1") iconLink().href = url; }).catch(() => {});
  } else if (root.dataset.tabTurn === "1") {
    document.title = baseTitle;
    root.dataset.tabTurn = "0";
    iconLink().href = ICON;
  }
}

function cardsPlayed(deal) {
  if (!deal) return 0;
  const done = (deal.tricks || []).reduce((n, trick) => n + trick.cards.length, 0);
  return done + (deal.trick ? deal.trick.cards.length : 0);
}

/**
 * Sound what changed from `prev` to `next` (table views) and mark the tab on this seat's turn.
 * `turnKey` names the current decision: its cue sounds once however often the table is drawn.
 */
export function signalChanges(prev, next, turnKey) {
  const deal = next && next.deal;
  const mine = !!(deal && deal.choices && next.table.status === "playing");
  showTurnInTab(mine);
  if (!prev || !prev.deal || !deal || prev.deal_index !== next.deal_index) {
    if (mine && turnSignalled !== turnKey && prev) playCue("turn");
    if (mine) turnSignalled = turnKey;
    return;
  }
  const played = cardsPlayed(deal) - cardsPlayed(prev.deal);
  if (played > 0) playCue("card");
  if ((deal.tricks || []).length > (prev.deal.tricks || []).length) playCue("trick", 0.25);
  if (deal.phase === "done" && prev.deal.phase !== "done") playCue("deal", 0.5);
  if (mine && turnSignalled !== turnKey) {
    turnSignalled = turnKey;
    playCue("turn", played > 0 ? 0.3 : 0);
  }
}
