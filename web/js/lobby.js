// The lobby: pick a name, see open tables live (watch_lobby), create, join and start tables.
import { api, http, Socket, freshId } from "./api.js";
import { initPage, currentPlayer, askName, toast, errorText, saveInvites, tableUrl, seatName } from "./common.js";
import { html, setHTML } from "./html.js";
import { t, onLangChange, applyStatic, refusalMessage } from "./i18n.js";
import { playNow } from "./playnow.js";
import { botLevels, levelLabel, levelOptions } from "./levels.js";
import { initSeekForm, useSeekSocket, onSeekMessage, renderPeople, sendWaitingSeek } from "./seeks.js";

let player = null;
let tables = [];
let socket = null;
let chatLines = []; // lobby chat: the first `lobby` message's `chat`, then each `lobby_chat` line
const chatIds = new Set(); // lobby_chat commands in flight
const CHAT_KEEP = 50;

// The seats' kinds: people's, then the bot levels offered (levels.js: the ladder, in rating order, with the
// level recommended for this player as the bots' default). Until the offer comes, people's kinds alone.
const PEOPLE = ["me", "open", "invite"];
let offer = { levels: [], recommended: null };

/** Every kind a seat may be given here. */
function seatKinds() {
  return [...PEOPLE, ...offer.levels.map((e) => `bot.${e.level}`)];
}

/** What seat `i` is unless chosen: "me" first, then bots of the recommended level (an open seat without one). */
function seatDefault(i) {
  if (i === 0) return "me";
  return offer.recommended ? `bot.${offer.recommended}` : "open";
}

/** The offered level a kind names ("bot.club"), or undefined for people's kinds. */
function levelOf(kind) {
  return offer.levels.find((e) => `bot.${e.level}` === kind);
}

/** A kind as its choice reads: a bot level with its rating ("Club bot · 1565"), else its own words. */
function kindLabel(kind) {
  const entry = levelOf(kind);
  return entry ? levelLabel(entry) : t(`seatkind.${kind}`);
}

/** A bot level's short description (the choice's title), none for people's kinds. */
function kindAbout(kind) {
  const entry = levelOf(kind);
  return entry ? t(entry.about) : "";
}
// a table of four plays 12 deals, no other number: each player deals (sitting out), and opens, 3 times
const FOUR_DEALS = "12";

/** How many seats the create form offers: four when "a table of four" is ticked, else three. */
function seatCount() {
  return document.querySelector("#create-form [name=four]").checked ? 4 : 3;
}

function renderWho() {
  const who = document.getElementById("who");
  if (!player) { setHTML(who, html``); return; }
  setHTML(who, html`<span data-testid="player-name">${t("name.hello", { name: player.name })}</span>
    <button type="button" class="link-btn" data-testid="change-name">${t("name.change")}</button>`);
  who.querySelector("button").addEventListener("click", async () => {
    const slot = document.getElementById("name-slot");
    player = await askName(slot, player.name);
    renderWho();
    offer = await botLevels(true); // another player: another recommendation (choices made are kept)
    renderSeatConfig();
    if (socket) { socket.close(); startSocket(); }
  });
}

function renderSeatConfig() {
  const box = document.getElementById("seat-config");
  const current = [...box.querySelectorAll("select")].map((s) => s.value);
  setHTML(box, html`${[...Array(seatCount()).keys()].map((i) => html`
    <label class="field"><span>${t("lobby.seat", { n: i + 1 })}</span>
      <select name="seat${i}" data-testid="seat-kind-${i}">
        ${seatKinds().map((k) => html`<option value="${k}" title="${kindAbout(k)}" ${(current[i] || seatDefault(i)) === k ? "selected" : ""}>${kindLabel(k)}</option>`)}
      </select>
    </label>`)}`);
  box.querySelectorAll("select").forEach((sel) => sel.addEventListener("change", () => {
    // Seats kept for people: do not fill them with bots at once.
    const waits = [...box.querySelectorAll("select")].some((x) => x.value === "open" || x.value === "invite");
    document.querySelector("[name=startnow]").checked = !waits;
  }));
}

/**
 * Tick or untick "a table of four": a fourth seat appears, the deals are fixed at 12 (the others
 * disabled, the choice restored when unticked) and the rule is said beside it.
 */
function onFourChange(ev) {
  const form = ev.target.form;
  const four = ev.target.checked;
  form.querySelector("[data-testid=four-rule]").hidden = !four;
  for (const radio of form.querySelectorAll("[name=deals]")) {
    if (four && radio.checked) form.dataset.dealsBefore = radio.value;
    radio.disabled = four && radio.value !== FOUR_DEALS;
  }
  const deals = four ? FOUR_DEALS : (form.dataset.dealsBefore || "6");
  form.querySelector(`[name=deals][value="${deals}"]`).checked = true;
  renderSeatConfig();
}

function seatSpec(value) {
  if (value.startsWith("bot.")) return { kind: "bot", level: value.slice(4) };
  return { kind: value };
}

async function onCreate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const errEl = form.querySelector(".form-error");
  errEl.textContent = "";
  const seats = [...Array(seatCount()).keys()].map((i) => seatSpec(form.elements[`seat${i}`].value));
  if (seats.filter((s) => s.kind === "me").length > 1) {
    errEl.textContent = "At most one seat may be 'me'.";
    return;
  }
  const config = {
    deals: Number(form.elements.deals.value),
    move_seconds: Number(form.elements.move_seconds.value),
    seats,
    rated: form.elements.rated.checked,
    learner: form.elements.learner.checked, // hints and lessons; the server refuses it with "rated"
    duplicate: form.elements.duplicate.checked, // solo duplicate: you and two bots (protocol §23.5)
  };
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const res = await api.createTable(config);
    saveInvites(res.table_id, res.invites);
    if (form.elements.startnow.checked) await api.start(res.table_id, true, offer.recommended);
    location.href = tableUrl(res.table_id);
  } catch (e) {
    errEl.textContent = errorText(e);
    button.disabled = false;
  }
}

function renderTables() {
  const list = document.getElementById("table-list");
  if (!tables.length) {
    setHTML(list, html`<li class="empty" data-testid="no-tables">${t("lobby.none")}</li>`);
    return;
  }
  setHTML(list, html`${tables.map((tb) => {
    const seats = tb.seats.map((s, i) => {
      const free = s.kind === "open" && tb.status === "open" && !tb.event; // an event's seats: via the event
      return html`<li class="lobby-seat ${s.kind}">
        <span class="seat-no">${i + 1}</span> <span class="seat-nm">${seatName(s)}</span>
        ${s.away ? html`<span class="badge away">${t("seat.away")}</span>` : ""}
        ${free ? html`<button type="button" class="small" data-join="${i}" data-testid="join-${tb.table_id}-${i}">${t("lobby.join", { n: i + 1 })}</button>` : ""}
      </li>`;
    });
    const time = tb.move_seconds ? t("lobby.seconds", { n: tb.move_seconds }) : t("lobby.time.none");
    return html`<li class="lobby-table" data-table="${tb.table_id}" data-testid="table-${tb.table_id}">
      <div class="lt-head">
        <span class="status ${tb.status}">${t(`lobby.status.${tb.status}`)}</span>
        <span>${t("lobby.dealsof", { played: tb.deals_played, planned: tb.deals_planned })}</span>
        ${tb.rated ? html`<span class="badge rated" data-testid="rated-${tb.table_id}">${t("lobby.ratedbadge")}</span>` : ""}
        <span>${t("lobby.time")}: ${time}</span>
        ${tb.event ? html`<a class="button small" href="/event.html?e=${encodeURIComponent(tb.event)}" data-testid="event-of-${tb.table_id}">${t("lobby.events")}</a>` : ""}
        <a class="button small" href="${tableUrl(tb.table_id)}" data-testid="open-${tb.table_id}">${tb.status === "open" ? t("lobby.open") : t("lobby.watch")}</a>
      </div>
      <ul class="lt-seats">${seats}</ul>
    </li>`;
  })}`);
  list.querySelectorAll("button[data-join]").forEach((b) => b.addEventListener("click", async () => {
    const id = b.closest("[data-table]").dataset.table;
    const seat = Number(b.dataset.join);
    try {
      await api.join(id, seat);
      location.href = tableUrl(id);
    } catch (e) {
      if (e.code === "already_seated") location.href = tableUrl(id);
      else toast(errorText(e), "error");
    }
  }));
}

/**
 * The list after a `lobby_update` (protocol §7): changed tables are replaced where they are, tables
 * new to the list go first (newest first, as sent), removed ones are dropped.
 */
function applyLobbyUpdate(list, msg) {
  const changed = new Map((msg.tables || []).map((tb) => [tb.table_id, tb]));
  const gone = new Set(msg.removed || []);
  const known = new Set(list.map((tb) => tb.table_id));
  const fresh = (msg.tables || []).filter((tb) => !known.has(tb.table_id));
  const kept = list.filter((tb) => !gone.has(tb.table_id)).map((tb) => changed.get(tb.table_id) || tb);
  return [...fresh, ...kept];
}

function setBanner(status) {
  const el = document.getElementById("conn-banner");
  if (status.state === "lost") {
    el.hidden = false;
    el.textContent = t("conn.retry", { n: Math.ceil(status.retryIn / 1000) });
  } else if (status.state === "open") {
    el.hidden = true;
  }
}

function renderLobbyChat() {
  const list = document.getElementById("lobby-chat-lines");
  setHTML(list, chatLines.length
    ? html`${chatLines.map((l) => html`<li data-testid="lobby-chat-line"><strong class="chat-name">${l.name || "?"}</strong>: <span class="chat-text">${l.text}</span></li>`)}`
    : html`<li class="empty muted" data-testid="lobby-chat-empty">${t("chat.empty")}</li>`);
  list.scrollTop = list.scrollHeight;
}

function onChatSubmit(ev) {
  ev.preventDefault();
  const input = document.getElementById("lobby-chat-input");
  const errEl = document.getElementById("lobby-chat-error");
  const text = input.value.trim();
  if (!text || !player) return; // only with a name (session)
  if (!socket || !socket.open) {
    errEl.textContent = t("conn.lost");
    return;
  }
  const id = freshId();
  chatIds.add(id);
  errEl.textContent = "";
  socket.send({ type: "lobby_chat", id, text });
  input.value = "";
}

function startSocket() {
  socket = new Socket({
    onOpen: () => {
      socket.send({ type: "watch_lobby" });
      sendWaitingSeek(); // a seek asked for while the socket was still opening
    },
    onStatus: setBanner,
    onMessage: (msg) => {
      if (onSeekMessage(msg, refusalMessage)) return; // the counts, seeks and pairing (seeks.js)
      if (msg.type === "lobby") {
        tables = msg.tables || [];
        renderTables();
        if (Array.isArray(msg.chat)) { // only the answer to watch_lobby has it (protocol §18)
          chatLines = msg.chat.slice(-CHAT_KEEP);
          renderLobbyChat();
        }
      } else if (msg.type === "lobby_update") { // only what changed since the full list (protocol §7)
        tables = applyLobbyUpdate(tables, msg);
        renderTables();
      } else if (msg.type === "lobby_chat" && msg.line) {
        chatLines.push(msg.line);
        if (chatLines.length > CHAT_KEEP) chatLines = chatLines.slice(-CHAT_KEEP);
        renderLobbyChat();
      } else if (msg.type === "ack") {
        chatIds.delete(msg.id);
      } else if (msg.type === "error" && chatIds.delete(msg.id)) {
        document.getElementById("lobby-chat-error").textContent = refusalMessage(msg);
        toast(refusalMessage(msg), "error");
      }
    },
  });
  useSeekSocket(socket, player);
  socket.connect();
}

/** "Play now" (playnow.js): a first visitor gets a guest name on the way. */
async function onPlayNow(ev) {
  const button = ev.currentTarget;
  const errEl = document.getElementById("play-now-error");
  button.disabled = true;
  errEl.textContent = "";
  try {
    await playNow(player || await currentPlayer());
  } catch (e) {
    errEl.textContent = errorText(e);
    button.disabled = false;
  }
}

/** A newcomer (no session yet, or no match played) is shown where to start: "Play now" and the guided deal. */
async function showNewcomer() {
  let fresh = !player;
  if (player) {
    try { fresh = (await http("GET", "/api/me/matches")).matches.length === 0; } catch { fresh = false; }
  }
  document.getElementById("newcomer").hidden = !fresh;
}

// ------------------------------------------------------------------ duplicate events (protocol §23)

async function renderEvents() {
  const list = document.getElementById("event-list");
  let events = [];
  try { events = (await http("GET", "/api/events")).events; } catch { events = []; }
  setHTML(list, events.length
    ? html`${events.map((e) => html`<li class="lobby-table" data-testid="event-${e.id}">
        <span class="status ${e.status}">${t(`event.status.${e.status}`)}</span>
        <span>${t("lobby.event.line", { host: e.host_name, tables: e.tables, deals: e.deals })}</span>
        <a class="button small" href="/event.html?e=${encodeURIComponent(e.id)}" data-testid="open-event-${e.id}">${t("lobby.event.open")}</a></li>`)}`
    : html`<li class="empty" data-testid="no-events">${t("lobby.events.none")}</li>`);
}

/** The event form's bot level: the offered levels, the recommended one chosen (kept across a language switch). */
function renderEventLevels() {
  const select = document.querySelector("#event-form [name=level]");
  const chosen = select.value || offer.recommended;
  setHTML(select, levelOptions(offer, chosen));
}

async function onCreateEvent(ev) {
  ev.preventDefault();
  const form = ev.target;
  const errEl = form.querySelector(".form-error");
  errEl.textContent = "";
  const body = { deals: Number(form.elements.deals.value), tables: Number(form.elements.tables.value), level: form.elements.level.value };
  try {
    const res = await http("POST", "/api/events", body);
    location.href = `/event.html?e=${encodeURIComponent(res.event_id)}`;
  } catch (e) {
    errEl.textContent = errorText(e);
  }
}

async function main() {
  initPage("lobby");
  document.getElementById("play-now").addEventListener("click", onPlayNow);
  document.getElementById("create-form").addEventListener("submit", onCreate);
  document.querySelector("#create-form [name=four]").addEventListener("change", onFourChange);
  document.getElementById("event-form").addEventListener("submit", onCreateEvent);
  document.getElementById("lobby-chat-form").addEventListener("submit", onChatSubmit);
  initSeekForm();
  player = await currentPlayer();
  showNewcomer();
  if (!player) player = await askName(document.getElementById("name-slot"));
  renderWho();
  offer = await botLevels(true); // the session is made by now: its player's recommendation
  renderSeatConfig();
  renderEventLevels();
  document.getElementById("lobby-grid").hidden = false;
  tables = (await api.tables()).tables;
  renderTables();
  renderLobbyChat();
  renderEvents();
  startSocket();
  onLangChange(() => { renderWho(); renderSeatConfig(); renderEventLevels(); renderTables(); renderLobbyChat(); renderPeople(); applyStatic(); });
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
