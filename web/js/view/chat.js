// The table chat (protocol §13): free text between deals, preset phrases at any time.
import { t, chatText, PHRASES } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { $, SEAT_COLORS } from "./names.js";

// How often this page lets its player chat: at most CHAT_MAX lines (text or phrases) in CHAT_WINDOW_MS.
// Beyond that the line is held back, the send buttons are off and the wait is shown beside the input.
const CHAT_MAX = 4;
const CHAT_WINDOW_MS = 8000;
let slowTimer = null;

/** Seconds until this player may chat again (0: now). */
export function chatWait(S) {
  const now = Date.now();
  S.chatTimes = (S.chatTimes || []).filter((when) => now - when < CHAT_WINDOW_MS);
  if (S.chatTimes.length < CHAT_MAX) return 0;
  return Math.max(1, Math.ceil((S.chatTimes[0] + CHAT_WINDOW_MS - now) / 1000));
}

/** A chat line was sent now. */
export function noteChat(S) {
  S.chatTimes = S.chatTimes || [];
  S.chatTimes.push(Date.now());
}

/** Free text is allowed only between deals: no deal yet, or the current one is over. */
export function freeChatAllowed(st) {
  return !st.deal || st.deal.phase === "done";
}

function lineHtml(l) {
  const byPlayer = l.seat !== null && l.seat !== undefined;
  return html`<li data-testid="chat-line" class="${byPlayer ? "" : "spectator"}"${byPlayer ? html` style="--seat-color:${SEAT_COLORS[l.seat] || "#999"}"` : ""}><strong class="chat-name">${l.name || "?"}</strong>: <span class="chat-text">${chatText(l)}</span></li>`;
}

export function renderChat(S, h, waiting) {
  const st = S.state;
  const panel = $("chat");
  // Under the waiting room before the match; in the side column while the cards are out.
  const home = waiting ? $("table-root") : $("side");
  const before = waiting ? $("layout") : null;
  if (panel.parentElement !== home) home.insertBefore(panel, before);
  panel.hidden = false;
  const lines = st.chat || [];
  const list = panel.querySelector("#chat-lines");
  const linesHtml = lines.length
    ? html`${lines.map(lineHtml)}`
    : html`<li class="empty muted" data-testid="chat-empty">${t("chat.empty")}</li>`;
  if (updateHTML(list, linesHtml)) list.scrollTop = list.scrollHeight;
  updateHTML(panel.querySelector("#chat-title"), html`${t("chat.title")}`);
  const free = freeChatAllowed(st);
  const composeHtml = html`${free
    ? html`<form class="chat-form" id="chat-form" data-testid="chat-form">
        <input type="text" id="chat-input" maxlength="300" autocomplete="off" data-testid="chat-input"
          aria-label="${t("chat.label")}" placeholder="${t("chat.placeholder")}">
        <button type="submit" class="small" data-testid="chat-send">${t("chat.send")}</button></form>`
    : html`<p class="hint" data-testid="chat-closed">${t("chat.closed")}</p>`}
    <div class="chat-phrases" role="group" aria-label="${t("chat.phrases")}" data-testid="chat-phrases">
      ${PHRASES.map((k) => html`<button type="button" class="small phrase" data-phrase="${k}" data-testid="chat-phrase-${k}">${t(`chat.phrase.${k}`)}</button>`)}
    </div>`;
  const compose = panel.querySelector("#chat-compose");
  if (updateHTML(compose, composeHtml)) {
    const form = compose.querySelector("#chat-form");
    if (form) {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const input = form.querySelector("#chat-input");
        const text = input.value.trim();
        if (text && h.chat({ text })) input.value = "";
      });
    }
    compose.querySelectorAll("[data-phrase]").forEach((b) => b.addEventListener("click", () => h.chat({ phrase: b.dataset.phrase })));
  }
  const wait = chatWait(S);
  compose.querySelectorAll("button").forEach((b) => { b.disabled = wait > 0; });
  compose.dataset.slow = wait > 0 ? "1" : "0";
  const err = panel.querySelector("#chat-error");
  if (wait > 0) {
    err.textContent = t("chat.slow", { n: wait });
    // count down, then open the chat again
    clearTimeout(slowTimer);
    slowTimer = setTimeout(() => renderChat(S, h, waiting), 1000);
  } else {
    err.textContent = S.chatError || "";
  }
}
