// The table page: a small controller that holds the state built from server messages
// (sync / event replace it whole) and turns clicks into commands. Rendering is in render.js (views in view/).
import { api, Socket, freshId, loadBids } from "./api.js";
import { applyPatch } from "./patch.js";
import { initPage, currentPlayer, askName, toast, errorText } from "./common.js";
import { t, onLangChange, applyStatic, refusalMessage, bidName, seatLabel } from "./i18n.js";
import { cardLabel, cardShort } from "./cards.js";
import { html, setHTML } from "./html.js";
import * as R from "./render.js";
import { openResult, refreshResult } from "./view/result.js";
import { showInviteInfo } from "./view/waiting.js";
import { loadLessons, loadMatchAccuracy } from "./view/coach.js";
import { signalChanges } from "./signals.js";
import { dealState } from "./view/four.js";

const params = new URLSearchParams(location.search);
const tableId = params.get("t");

/** Everything the page knows. `state` is the server's table view, replaced on every sync/event. */
export const S = {
  tableId,
  player: null,
  state: null,
  bids: [],
  lastSeq: -1,
  awaitingSync: true,
  pending: null, // id of the command in flight
  sent: 0, // commands sent (tests read it from data-sent)
  selected: new Set(), // discards being chosen
  kontraParts: new Set(), // parts being raised
  showLastTrick: false,
  showAllBids: true,
  deadline: null,
  turnKey: "",
  connected: false,
  notFound: false,
  chatIds: new Set(), // ids of chat commands in flight
  chatError: "", // the last refused chat's words
  readyFor: null, // the deal index whose "Next deal" was sent
  readyId: null, // id of that ready command
  hint: null, // learner tables: {turnKey, msg} of the coach's last hint (protocol §22.4)
  hintId: null, // id of the hint asked for
  hintPending: false,
  coach: {}, // learner tables: per finished deal, its analysis for the lessons
  cardsShown: new Set(), // trick cards this page has drawn (each comes in from its seat once): trick.js
  trickShown: null, // {deal, number, at}: the finished trick this page holds, since when: trick.js
  paceSent: null, // the trick pace last told to the server (protocol §6 `pace`)
  letBotIds: new Set(), // ids of let_bot commands in flight
  reportSeen: null, // the "played for you" report this player has dismissed: absent.js
};

/** The trick pace this browser asked for (the settings' `ulti.trickPause`): fast, normal or slow. */
function trickPace() {
  let pace = null;
  try {
    pace = localStorage.getItem("ulti.trickPause");
  } catch {
    pace = null;
  }
  return pace === "fast" || pace === "slow" ? pace : "normal";
}

/**
 * A seated player tells the table its trick pace (the table keeps the slowest of its people's); at a table
 * of four the player sitting the deal out too (the page's `you` is then null: its table seat is four.table's).
 */
function sendPace() {
  const st = S.state;
  const you = st && st.four ? st.four.table.you : st && st.you;
  if (!st || you === null || you === undefined || !socket || !socket.open) return;
  const pace = trickPace();
  if (pace === S.paceSent) return;
  S.paceSent = pace;
  socket.send({ type: "pace", trick_pause: pace });
}

let socket = null;
const root = document.getElementById("table-root");

// ------------------------------------------------------------------ commands

/** Send a game action; nothing is sent while another is in flight or the connection is down. */
export function act(action) {
  if (S.pending) return false;
  if (!socket || !socket.open) {
    toast(t("conn.lost"), "error");
    return false;
  }
  const id = freshId();
  S.pending = id;
  S.sent += 1;
  socket.send({ type: "act", id, action });
  render();
  return true;
}

/** Send a table chat line: `{text}` (between deals) or `{phrase}` (any time). Chat never blocks game actions. */
function sendChat(body) {
  if (!socket || !socket.open) {
    toast(t("conn.lost"), "error");
    return false;
  }
  const wait = R.chatWait(S);
  if (wait) {
    // said too often: the page holds the line back and says so beside the chat input (chat.js)
    render();
    return false;
  }
  R.noteChat(S);
  const id = freshId();
  S.chatIds.add(id);
  S.chatError = "";
  socket.send({ type: "chat", id, ...body });
  render();
  return true;
}

/** "Next deal": this player has seen the result (protocol §6 `ready`); sent once per deal. */
function sendReady() {
  const st = S.state;
  if (!st || !st.next_deal || S.readyFor === st.deal_index) return;
  if (!socket || !socket.open) {
    toast(t("conn.lost"), "error");
    return;
  }
  S.readyFor = st.deal_index;
  S.readyId = freshId();
  socket.send({ type: "ready", id: S.readyId });
  render();
}

/** Agree that a bot plays for the absent player of `seat` (protocol §6 `let_bot`). */
function sendLetBot(seat) {
  if (!socket || !socket.open) {
    toast(t("conn.lost"), "error");
    return;
  }
  const id = freshId();
  S.letBotIds.add(id);
  // the page draws a table of four's deal by its seats: the table names the absent player's table seat
  const tableSeat = S.state && S.state.four ? S.state.four.seats[seat] : seat;
  socket.send({ type: "let_bot", id, seat: tableSeat });
}

function sendBack() {
  if (socket && socket.open) socket.send({ type: "back", id: freshId() });
}

export const handlers = {
  card(code) {
    const deal = S.state && S.state.deal;
    const ch = deal && deal.choices;
    if (!ch || S.pending) {
      // a click out of turn is answered: whose turn it is (or why nothing can be played now)
      toast(R.outOfTurnText(S), "warn");
      return;
    }
    if (ch.must_discard) {
      if (S.selected.has(code)) S.selected.delete(code);
      else if (S.selected.size < 2) S.selected.add(code);
      else {
        // replace the oldest selection
        const first = S.selected.values().next().value;
        S.selected.delete(first);
        S.selected.add(code);
      }
      render();
      return;
    }
    const reason = R.refusedReason(S, code);
    if (reason) {
      toast(t("hint.tapdimmed", { card: cardLabel(code), reason }), "warn");
      return;
    }
    if (ch.cards && ch.cards.includes(code)) act({ action: "play", card: code });
  },
  pass: () => act({ action: "pass" }),
  take: () => act({ action: "take" }),
  bid(code) {
    const ch = S.state.deal.choices;
    if (!ch || !ch.bids.includes(code)) return;
    if (ch.must_discard) {
      if (S.selected.size !== 2) {
        toast(t("act.discard"), "warn");
        return;
      }
      act({ action: "bid", bid: code, discard: [...S.selected] });
    } else {
      act({ action: "bid", bid: code });
    }
  },
  trump: (suit) => act({ action: "trump", suit }),
  giveUp: () => act({ action: "give_up" }),
  toggleKontra(part) {
    if (S.kontraParts.has(part)) S.kontraParts.delete(part);
    else S.kontraParts.add(part);
    render();
  },
  kontra(parts) {
    // declining at trick 1 changes nothing on the server until the card is played: the page folds the box
    if (act({ action: "kontra", parts }) && !parts.length) S.kontraDeclined = R.kontraKey(S);
  },
  toggleLastTrick() {
    S.showLastTrick = !S.showLastTrick;
    render();
  },
  toggleAllBids() {
    S.showAllBids = !S.showAllBids;
    render();
  },
  openSheet() {
    const dlg = document.getElementById("sheet-dialog");
    R.renderSheet(S, handlers);
    if (!dlg.open) dlg.showModal();
  },
  async join(seat) {
    try {
      await api.join(tableId, seat);
      reopen();
    } catch (e) {
      toast(errorText(e), "error");
    }
  },
  async leave() {
    try {
      await api.leave(tableId);
    } catch (e) {
      toast(errorText(e), "error");
    }
  },
  /** "Resign" asks first: the confirmation is drawn in the match actions box. */
  askResign() {
    S.confirmResign = true;
    render();
  },
  keepPlaying() {
    S.confirmResign = false;
    render();
  },
  /** Resign the match (confirmed): a bot plays this seat to the end (protocol §4.2). */
  async resign() {
    S.confirmResign = false;
    try {
      await api.resign(tableId);
    } catch (e) {
      toast(errorText(e), "error");
    }
    render();
  },
  /** Ask for the rematch (or accept it) and go to its table. */
  async rematch() {
    if (S.rematchPending) return;
    S.rematchPending = true;
    render();
    try {
      const { table_id: next } = await api.rematch(tableId);
      location.href = `/table.html?t=${encodeURIComponent(next)}`;
    } catch (e) {
      S.rematchPending = false;
      toast(errorText(e), "error");
      render();
    }
  },
  async addBot(seat, level) {
    try {
      await api.bot(tableId, seat, level);
    } catch (e) {
      toast(errorText(e), "error");
    }
  },
  async start(fill, level) {
    try {
      await api.start(tableId, fill, level);
    } catch (e) {
      toast(errorText(e), "error");
    }
  },
  back: sendBack,
  letBot: sendLetBot,
  ready: sendReady,
  /** Ask the coach for a hint (learner tables): answered to this connection only. */
  hint() {
    if (!socket || !socket.open || S.hintPending) return;
    S.hintId = freshId();
    S.hintPending = true;
    socket.send({ type: "hint", id: S.hintId });
    render();
  },
  /** The result of finished deal `k` in a dialog ("Last deal", a score sheet row). */
  openResult: (k) => openResult(S, k),
  chat: sendChat,
  reconnectNow() {
    if (socket) socket.connect();
  },
};

// ------------------------------------------------------------------ messages

/** How a refusal at this table words its values: card labels, bid names, seats by their players' names. */
export function refusalFmt() {
  return {
    card: cardShort,
    bid: (code) => bidName(code, S.bids),
    seat: (n) => {
      const seat = S.state && S.state.table.seats[n];
      return seat && seat.name ? seat.name : seatLabel(n);
    },
  };
}

function reopen() {
  S.awaitingSync = true;
  socket.send({ type: "open_table", table: tableId });
}

function turnKeyOf(state) {
  const d = state.deal;
  if (!d) return "";
  return `${state.deal_index}|${d.log.length}|${d.to_move}|${d.chain ? d.chain.step : ""}`;
}

/** The countdown: `deadline` is right only in sync (protocol §18), so events use now + move_seconds. */
function updateDeadline(state, fromSync) {
  const key = turnKeyOf(state);
  if (state.next_deal) {
    // between deals: when the next deal comes even without everybody's "Next deal" (protocol §6 `ready`)
    S.deadline = state.next_deal.waiting.length ? state.deadline || null : null;
    S.turnKey = key;
    return;
  }
  if (fromSync) {
    S.deadline = state.deadline || null;
    S.turnKey = key;
    if (!S.deadline) S.deadline = localDeadline(state);
    return;
  }
  if (key !== S.turnKey) {
    S.turnKey = key;
    S.deadline = localDeadline(state);
  }
}

function localDeadline(state) {
  const d = state.deal;
  const secs = state.table.move_seconds;
  if (!d || !secs || d.to_move < 0 || d.phase === "done") return null;
  const seat = state.table.seats[d.to_move];
  if (!seat || seat.kind !== "player" || seat.away) return null;
  return Date.now() / 1000 + secs;
}

function accept(raw, fromSync) {
  const prev = S.state;
  S.raw = raw; // the table's view as sent; at a table of four the page draws the deal's (view/four.js)
  const state = dealState(raw);
  S.state = state;
  S.lastSeq = state.seq;
  const ch = state.deal && state.deal.choices;
  if (!ch || !ch.must_discard) S.selected.clear();
  if (!ch || !ch.kontra) S.kontraParts.clear();
  if (ch && ch.kontra) {
    for (const p of [...S.kontraParts]) if (!ch.kontra.parts.includes(p)) S.kontraParts.delete(p);
  }
  if (prev && prev.deal_index !== state.deal_index) {
    S.showLastTrick = false;
    S.cardsShown.clear();
  }
  if (fromSync && state.deal) {
    // a trick finished before this page (re)loaded was seen then, or is long gone: no pause for it now
    S.trickShown = { deal: state.deal_index, number: state.deal.tricks.length - 1, at: -Infinity };
  }
  updateDeadline(state, fromSync);
  if (state.table.learner && state.you !== null && state.deal && state.deal.phase === "done") loadLessons(S, render);
  if (state.table.status === "finished") loadMatchAccuracy(S, render);
  render();
  signalChanges(prev, state, S.turnKey);
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.player = msg.player;
      break;
    case "sync":
      S.awaitingSync = false;
      S.paceSent = null; // a new connection: the table hears this page's pace again
      accept(msg.state, true);
      break;
    case "event":
      if (S.awaitingSync) return; // events queued before our sync (protocol §9)
      if (msg.seq <= S.lastSeq) return;
      if (msg.seq !== S.lastSeq + 1) {
        reopen(); // a gap: resync
        return;
      }
      // the patch form (requested below) carries what changed since the previous view
      accept(msg.patch ? applyPatch(S.raw, msg.patch) : msg.state, false);
      break;
    case "hint":
      if (msg.id === S.hintId) {
        S.hintPending = false;
        S.hint = { turnKey: S.turnKey, msg };
        render();
      }
      break;
    case "waiting":
      // whom the table waits for (protocol §7): the same as the next view's `waiting`
      if (S.state) {
        S.raw.waiting = msg.waiting;
        S.state = dealState(S.raw);
        render();
      }
      break;
    case "presence":
      if (S.state) {
        const seat = S.raw.table.seats[msg.seat]; // a table seat (the deal's view shares its seat objects)
        if (seat) seat.connected = msg.connected;
        render();
      }
      break;
    case "ack":
      if (S.chatIds.delete(msg.id)) break;
      if (S.letBotIds.delete(msg.id)) break;
      if (msg.id === S.readyId) break;
      if (msg.id === S.pending) {
        S.pending = null;
        render();
      }
      break;
    case "error":
      if (msg.id !== null && msg.id === S.hintId) {
        S.hintPending = false;
        toast(refusalMessage(msg, refusalFmt()), "error");
        render();
        break;
      }
      if (msg.id !== null && msg.id === S.readyId) {
        S.readyId = null;
        S.readyFor = null;
        if (msg.code !== "not_between_deals") toast(refusalMessage(msg, refusalFmt()), "error");
        render();
        break;
      }
      if (msg.code === "rate_limited" && msg.id === null && S.chatIds.size) {
        // the server dropped messages sent too fast: a chat line in flight is among them
        S.chatIds.clear();
        S.chatError = refusalMessage(msg, refusalFmt());
      }
      if (S.letBotIds.delete(msg.id)) {
        toast(refusalMessage(msg, refusalFmt()), "error");
        break;
      }
      if (S.chatIds.delete(msg.id)) {
        S.chatError = refusalMessage(msg, refusalFmt());
        toast(S.chatError, "error");
        render();
        break;
      }
      if (msg.id === S.pending || msg.id === null) {
        if (msg.id === S.pending) S.pending = null;
        if (msg.code === "not_found") {
          S.notFound = true;
        }
        toast(refusalMessage(msg, refusalFmt()), "error");
        render();
      }
      break;
    default:
      break;
  }
}

function onStatus(status) {
  const el = document.getElementById("conn-banner");
  S.connected = status.state === "open";
  if (status.state === "lost") {
    S.pending = null;
    el.hidden = false;
    el.className = "conn-banner lost";
    setHTML(el, html`<span>${t("conn.retry", { n: Math.ceil(status.retryIn / 1000) })}</span>
      <button type="button" class="small" data-testid="reconnect-now">${t("conn.now")}</button>`);
    el.querySelector("button").addEventListener("click", handlers.reconnectNow);
  } else if (status.state === "open") {
    if (!el.hidden) {
      el.className = "conn-banner ok";
      el.textContent = t("conn.back");
      setTimeout(() => { if (S.connected) el.hidden = true; }, 1500);
    }
  }
  render();
}

// ------------------------------------------------------------------ render

export function render() {
  const st = S.state;
  const ch = st && st.deal && st.deal.choices;
  root.dataset.myTurn = ch && !S.pending && S.connected ? "1" : "0";
  root.dataset.sent = String(S.sent);
  root.dataset.seq = st ? String(st.seq) : "";
  root.dataset.connected = S.connected ? "1" : "0";
  if (!st) {
    if (S.notFound) document.getElementById("table-msg").textContent = t("table.notfound");
    return;
  }
  root.dataset.status = st.table.status;
  root.dataset.phase = st.deal ? st.deal.phase : "waiting";
  root.dataset.you = st.you === null ? "" : String(st.you);
  root.dataset.dealIndex = st.deal_index === null ? "" : String(st.deal_index);
  root.dataset.dealsPlayed = st.match ? String(st.match.deals_played) : "0";
  root.dataset.winner = st.match && st.match.winner !== null ? String(st.match.winner) : "";
  root.dataset.mustDiscard = ch && ch.must_discard ? "1" : "0";
  root.dataset.trickPause = String(st.trick_pause ?? "");
  document.getElementById("table-msg").hidden = true;
  eventLink(st);
  sendPace(); // read each time: the settings may change it while the table is open
  R.renderTable(S, handlers);
  const dlg = document.getElementById("sheet-dialog");
  if (dlg.open) R.renderSheet(S, handlers);
  refreshResult(S);
}

/** An event's table links to the event's cross-table (protocol §23); built with DOM calls, once. */
function eventLink(st) {
  if (!st.table.event || document.getElementById("event-link")) return;
  const a = document.createElement("a");
  a.id = "event-link";
  a.className = "button small event-link";
  a.dataset.testid = "event-link";
  a.href = `/event.html?e=${encodeURIComponent(st.table.event)}`;
  a.textContent = t("table.crosstable");
  root.prepend(a);
}

function tick() {
  R.tickAbsent();
  document.querySelectorAll("[data-countdown]").forEach((el) => {
    if (!S.deadline) { el.textContent = ""; return; }
    const left = Math.max(0, Math.ceil(S.deadline - Date.now() / 1000));
    el.textContent = `${left} s`;
    el.setAttribute("aria-label", t("table.countdown", { n: left }));
    el.classList.toggle("urgent", left <= 5);
  });
}

// ------------------------------------------------------------------ start

async function main() {
  initPage("table");
  if (!tableId) {
    location.href = "/index.html";
    return;
  }
  document.getElementById("sheet-close").addEventListener("click", () => document.getElementById("sheet-dialog").close());
  let player = await currentPlayer();
  const seatParam = params.get("seat");
  const invite = params.get("invite");
  S.invited = !!invite;
  if (!player) {
    document.getElementById("table-msg").textContent = seatParam !== null ? t("table.joininvite", { n: Number(seatParam) + 1 }) : "";
    if (invite) showInviteInfo(document.getElementById("table-msg"), tableId);
    player = await askName(document.getElementById("name-slot"));
  }
  S.player = player;
  try {
    S.bids = (await loadBids()).bids;
  } catch {
    S.bids = [];
  }
  if (seatParam !== null) {
    try {
      await api.join(tableId, Number(seatParam), invite || undefined);
    } catch (e) {
      if (e.code !== "already_seated") toast(errorText(e), "error");
    }
    history.replaceState(null, "", `/table.html?t=${encodeURIComponent(tableId)}`);
  }
  socket = new Socket({ onMessage, onOpen: reopen, onStatus, events: "patch" });
  window.__ultiSocket = socket; // tests drop the connection through it
  socket.connect();
  setInterval(tick, 250);
  onLangChange(() => { applyStatic(); render(); });
  document.addEventListener("keydown", R.globalKeys);
}

main().catch((e) => toast(t("err.generic", { msg: errorText(e) }), "error"));
