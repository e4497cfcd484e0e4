// HTTP (JSON API under /api) and the one WebSocket at /ws, with reconnection.
// Speaks only the wire protocol (docs/protocol/README.md and its pages).

export class ApiError extends Error {
  /** `code`, and for a refused game action its `rule`, with the values (`args`) its words name (protocol §16). */
  constructor(status, code, message, rule = undefined, args = undefined) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.rule = rule;
    this.args = args;
  }
}

export async function http(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || "http_error", err.message || (data && data.detail) || res.statusText,
      err.rule, err.args);
  }
  return data;
}

/** Seconds a long-work refusal (`work_quota`, protocol §22.6) asks the page to wait before asking again,
 * or null for any other error: a poller waits that long and goes on rather than giving up. */
export function retryAfter(e) {
  const wait = e instanceof ApiError && e.code === "work_quota" && e.args ? e.args.retry_after : null;
  return typeof wait === "number" && wait > 0 ? wait : null;
}

export const api = {
  me: () => http("GET", "/api/me"),
  whoami: () => http("GET", "/api/whoami"), // {player} or {player: null}: never a 401 (a console error)
  session: (name) => http("POST", "/api/session", { name }),
  tables: () => http("GET", "/api/tables"),
  myMatches: () => http("GET", "/api/me/matches"),
  createTable: (config) => http("POST", "/api/tables", config),
  table: (id) => http("GET", `/api/tables/${encodeURIComponent(id)}`),
  join: (id, seat, invite) => http("POST", `/api/tables/${encodeURIComponent(id)}/join`, invite ? { seat, invite } : { seat }),
  leave: (id) => http("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  resign: (id) => http("POST", `/api/tables/${encodeURIComponent(id)}/resign`, {}),
  rematch: (id) => http("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}),
  bot: (id, seat, level) => http("POST", `/api/tables/${encodeURIComponent(id)}/bot`, { seat, level }),
  // level: the bots' for the open seats (the one offered by rating, levels.js), else the server's default
  start: (id, fillBots, level) => http("POST", `/api/tables/${encodeURIComponent(id)}/start`,
    level ? { fill_bots: !!fillBots, level } : { fill_bots: !!fillBots }),
  bids: () => http("GET", "/api/bids"),
  matchRecord: (id) => http("GET", matchRecordUrl(id)),
  dealRecord: (id, k) => http("GET", dealRecordUrl(id, k)),
};

export const matchRecordUrl = (id) => `/api/tables/${encodeURIComponent(id)}/record`;
export const dealRecordUrl = (id, k) => `/api/tables/${encodeURIComponent(id)}/deals/${k}/record`;

let bidsCache = null;
/** The bid ladder (GET /api/bids), fetched once per page. */
export function loadBids() {
  if (!bidsCache) bidsCache = api.bids();
  return bidsCache;
}

/** A fresh command id: the server remembers ids per player across connections, so never reuse one. */
let counter = 0;
export function freshId() {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `w${Date.now().toString(36)}${rnd}${counter}`;
}

/**
 * The WebSocket: opens, says `welcome`, runs `onOpen` (which sends open_table or watch_lobby),
 * and reconnects by itself with exponential backoff when the connection drops.
 */
export class Socket {
  constructor({ onMessage, onOpen, onStatus, events }) {
    this.onMessage = onMessage;
    this.events = events || "full"; // "patch": events carry what changed (docs/protocol/events.md §9.1)
    this.onOpen = onOpen || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.timer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws${this.events === "patch" ? "?events=patch" : ""}`;
  }

  connect() {
    clearTimeout(this.timer);
    this.closedByUs = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.onStatus({ state: this.attempt ? "reconnecting" : "connecting" });
    ws.onopen = () => {
      this.attempt = 0;
      this.onStatus({ state: "open" });
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closedByUs) this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.attempt += 1;
    const delay = Math.min(10000, 500 * 2 ** (this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    this.onStatus({ state: "lost", retryIn: delay, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Send a message; false when the socket is not open (the caller shows the banner). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Drop the connection as if the network failed (tests and the "reconnect now" button use it). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
