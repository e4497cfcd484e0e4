// The waiting room: the seats before the match starts, the links to them, bots and the start button.
import { t } from "../i18n.js";
import { seatName, loadInvites, tableUrl, copyText, toast, errorText } from "../common.js";
import { html, setHTML, updateHTML } from "../html.js";
import { api, http } from "../api.js";
import { botLevels, levelOptions } from "../levels.js";
import { $ } from "./names.js";

// Bot accounts the host may seat (GET /api/bots/seatable: their own, then those accepting challenges),
// and the built-in levels offered to people (levels.js: the ladder with its ratings), asked once per page.
let seatable = null;
let offer = { levels: [], recommended: null };
let asking = false;

function loadSeatable(S, h) {
  if (seatable !== null || asking) return;
  asking = true;
  const accounts = http("GET", "/api/bots/seatable")
    .then((res) => { seatable = res.bots || []; })
    .catch(() => { seatable = []; });
  const levels = botLevels().then((answer) => { offer = answer; });
  Promise.all([accounts, levels]).finally(() => { asking = false; renderWaiting(S, h); });
}

/** The options of a free seat's bot choice: the offered levels (the recommended one first chosen), then
 * the host's bots, then others'. */
function botOptions() {
  const own = (seatable || []).filter((b) => b.mine);
  const others = (seatable || []).filter((b) => !b.mine);
  const group = (key, bots) => (bots.length
    ? html`<optgroup label="${t(key)}">${bots.map((b) => html`<option value="acct:${b.name}">${b.name} [BOT]</option>`)}</optgroup>`
    : "");
  return html`<optgroup label="${t("table.bots.builtin")}">${levelOptions(offer, offer.recommended)}</optgroup>${
    group("table.bots.mine", own)}${group("table.bots.open", others)}`;
}

/** Seat a bot account: the host's invitation reaches the bot's event stream, and the bot sits down itself. */
async function inviteBot(tableId, seat, name) {
  try {
    await http("POST", `/api/tables/${encodeURIComponent(tableId)}/invite_bot`, { seat, bot: name });
    toast(t("table.bots.invited", { name }));
  } catch (e) {
    toast(errorText(e), "error");
  }
}

export function renderWaiting(S, h) {
  const st = S.state;
  const box = $("waiting");
  const isHost = S.player && st.table.host === S.player.id;
  const invites = loadInvites(st.table.table_id);
  const seated = st.you !== null;
  // A table whose match never started expires (protocol §8 `expired`): nothing can be done at it any more.
  const expired = st.table.status === "expired";
  const rows = st.table.seats.map((s, i) => {
    const extra = [];
    const free = (s.kind === "open" || s.kind === "invite") && !expired;
    if (s.kind === "open" && !expired) {
      const link = tableUrl(st.table.table_id, { seat: i });
      extra.push(linkRow(t("table.seatlink", { n: i + 1 }), link, `seat-link-${i}`));
      if (!seated) extra.push(html`<button type="button" class="primary small" data-testid="sit-${i}" data-sit="${i}">${t("table.sit")}</button>`);
    }
    if (s.kind === "invite" && invites[String(i)]) {
      const link = tableUrl(st.table.table_id, { seat: i, invite: invites[String(i)] });
      extra.push(linkRow(t("table.invitelink", { n: i + 1 }), link, `invite-link-${i}`));
    }
    if (free && isHost) {
      extra.push(html`<span class="bot-add">
        <select aria-label="${t("table.addbot")}" data-level="${i}" data-testid="bot-level-${i}">${botOptions()}</select>
        <button type="button" class="small" data-bot="${i}" data-testid="add-bot-${i}">${t("table.addbot")}</button></span>`);
    }
    const you = st.you === i ? html` <span class="badge you">${t("seat.you")}</span>` : "";
    const conn = s.kind === "player" && s.connected === false ? html` <span class="badge off">${t("seat.offline")}</span>` : "";
    return html`<li class="wait-seat ${s.kind}" data-testid="wait-seat-${i}">
      <div class="ws-name"><span class="seat-no">${i + 1}</span> ${s.kind === "player" ? s.name : seatName(s)}${you}${conn}</div>
      <div class="ws-extra">${extra}</div></li>`;
  });
  const startBlock = expired
    ? html`<p class="muted" data-testid="table-expired">${t("table.expired.note")}</p>`
    : isHost
    ? html`<div class="start-row">
        <label class="check"><input type="checkbox" id="fill-bots" data-testid="fill-bots" checked> ${t("table.fill")}</label>
        <button type="button" class="primary big" data-testid="start-match" id="start-btn">${t("table.start")}</button>
      </div>`
    : html`<p class="muted">${seated ? t("table.onlyhost") : t("table.spectator")}</p>`;
  if (isHost && !expired) loadSeatable(S, h);
  const fill = box.querySelector("#fill-bots");
  const fillChecked = fill ? fill.checked : true;
  // who asked us here, to which table and match, and where the rules are (not shown to the host)
  const info = !isHost && st.table.host_name ? inviteInfoHtml(st.table, S.invited) : "";
  const page = html`<h1>${t(expired ? "table.expired" : "table.waiting")}</h1>${info}
    <p class="muted">${t("lobby.dealsof", { played: 0, planned: st.table.deals_planned })} · ${t("lobby.time")}: ${st.table.move_seconds ? t("lobby.seconds", { n: st.table.move_seconds }) : t("lobby.time.none")}</p>
    <h2>${t("table.seats")}</h2>
    <ul class="wait-seats">${rows}</ul>
    ${startBlock}
    ${seated && !expired ? html`<button type="button" class="link-btn" data-testid="leave-table" id="leave-btn">${t("table.leave")}</button>` : ""}`;
  if (!updateHTML(box, page)) return;
  const f2 = box.querySelector("#fill-bots");
  if (f2) f2.checked = fillChecked;
  box.querySelectorAll("[data-sit]").forEach((b) => b.addEventListener("click", () => h.join(Number(b.dataset.sit))));
  box.querySelectorAll("[data-bot]").forEach((b) => b.addEventListener("click", () => {
    const level = box.querySelector(`select[data-level="${b.dataset.bot}"]`).value;
    if (level.startsWith("acct:")) inviteBot(st.table.table_id, Number(b.dataset.bot), level.slice(5));
    else h.addBot(Number(b.dataset.bot), level);
  }));
  box.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", async () => {
    await copyText(b.dataset.copy);
    toast(t("table.copied"));
  }));
  const sb = box.querySelector("#start-btn");
  // the open seats' bots: the level recommended for the host by their rating
  if (sb) sb.addEventListener("click", () => h.start(box.querySelector("#fill-bots").checked, offer.recommended));
  const lb = box.querySelector("#leave-btn");
  if (lb) lb.addEventListener("click", () => h.leave());
}

/** "Anna invited you to table 3f2a…: a match of 6 deals." and a link to the rules; `summary` is a lobby entry. */
function inviteInfoHtml(summary, invited) {
  const values = { host: summary.host_name, table: summary.table_id, deals: summary.deals_planned };
  return html`<p class="invite-info" data-testid="invite-info">${t(invited ? "table.invited" : "table.hosted", values)}
    <a href="/rules.html" target="_blank" rel="noopener" data-testid="invite-rules">${t("table.invited.rules")}</a></p>`;
}

/** Before the invitee has a name: say who invited them to what, from the public lobby list (GET /api/tables). */
export async function showInviteInfo(el, tableId) {
  try {
    const { tables } = await api.tables();
    const summary = tables.find((x) => x.table_id === tableId);
    if (summary && summary.host_name) setHTML(el, inviteInfoHtml(summary, true));
  } catch {
    // the plain "You were invited" line stays
  }
}

function linkRow(label, link, testid) {
  return html`<div class="link-row"><label><span class="sr-only">${label}</span>
    <input type="text" readonly value="${link}" data-testid="${testid}" aria-label="${label}"></label>
    <button type="button" class="small" data-copy="${link}" data-testid="${testid}-copy" aria-label="${t("table.copy")}: ${label}">${t("table.copy")}</button></div>`;
}
