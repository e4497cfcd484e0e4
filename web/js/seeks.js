// The lobby's people: how many are online and playing, and "Looking for a game" (protocol §6 `seek`).
import { freshId } from "./api.js";
import { t } from "./i18n.js";
import { html, setHTML } from "./html.js";
import { tableUrl } from "./common.js";

let people = { online: 0, playing: 0, seeks: [] };
let socket = null;
let me = null;
const pending = new Set(); // seek / unseek commands in flight

/** Wire the seek form (call before the lobby is shown: a click before this would submit the form natively). */
export function initSeekForm() {
  const form = document.getElementById("seek-form");
  form.onsubmit = (ev) => {
    ev.preventDefault();
    send({ type: "seek", deals: Number(form.elements.deals.value), wait: Number(form.elements.wait.value) });
  };
}

/** Send seeks over `sock` for player `player` (call each time the lobby's socket is made). */
export function useSeekSocket(sock, player) {
  socket = sock;
  me = player;
}

let waiting = null; // the command asked for while the socket was not open: sent once it opens

function send(message) {
  document.getElementById("seek-error").textContent = "";
  // not made yet, opening or reconnecting: sendWaitingSeek sends it once the socket opens
  if (!socket || !socket.open) { waiting = message; return; }
  const id = freshId();
  pending.add(id);
  socket.send({ ...message, id });
}

/** Send the seek command asked for while the socket was opening (the lobby calls it once it opens). */
export function sendWaitingSeek() {
  const message = waiting;
  waiting = null;
  if (message) send(message);
}

/** Handle a lobby socket message; true if it was one of ours. */
export function onSeekMessage(msg, refusalMessage) {
  if (msg.type === "lobby" && msg.people) {
    people = msg.people;
    renderPeople();
    return false; // the lobby list is the caller's
  }
  if (msg.type === "lobby_people") {
    people = msg;
    renderPeople();
    return true;
  }
  if (msg.type === "seek_paired") {
    location.href = tableUrl(msg.table);
    return true;
  }
  if (msg.type === "ack" && pending.delete(msg.id)) return true;
  if (msg.type === "error" && pending.delete(msg.id)) {
    document.getElementById("seek-error").textContent = refusalMessage(msg);
    return true;
  }
  return false;
}

/** The counts line, the list of seeks, and the player's own seek with its countdown and "Cancel". */
export function renderPeople() {
  const line = document.getElementById("people");
  if (line) {
    setHTML(line, html`<span class="dot" aria-hidden="true"></span> <span data-testid="people-online">${t("people.online", { n: people.online })}</span>
      · <span data-testid="people-playing">${t("people.playing", { n: people.playing })}</span>`);
  }
  const list = document.getElementById("seek-list");
  if (!list) return;
  const others = people.seeks.filter((s) => !me || s.player !== me.id);
  setHTML(list, others.length
    ? html`${others.map((s) => html`<li class="seek" data-testid="seek-entry">${t("seek.entry", { name: s.name, deals: s.deals })}</li>`)}`
    : html`<li class="empty muted" data-testid="no-seeks">${t("seek.none")}</li>`);
  const mine = me && people.seeks.find((s) => s.player === me.id);
  const box = document.getElementById("my-seek");
  const form = document.getElementById("seek-form");
  form.hidden = !!mine;
  box.hidden = !mine;
  if (mine) {
    const left = Math.max(0, Math.ceil((mine.due - Date.now()) / 1000));
    setHTML(box, html`<span class="spinner" aria-hidden="true"></span>
      <span data-testid="seeking">${t("seek.seeking", { deals: mine.deals, n: left })}</span>
      <button type="button" class="small" data-testid="seek-cancel">${t("seek.cancel")}</button>`);
    box.querySelector("button").onclick = () => send({ type: "unseek" });
  } else {
    setHTML(box, html``);
  }
}

// the countdown of one's own seek moves between pushes
setInterval(() => { if (me && people.seeks.some((s) => s.player === me.id)) renderPeople(); }, 1000);
