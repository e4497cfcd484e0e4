// The table chat (protocol §13): free text between deals, preset phrases at any time.
import { t, chatText, PHRASES } from "../i18n.js";
import { html, updateHTML } from "../html.js";
import { $, SEAT_COLORS } from "./names.js";

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
  const err = panel.querySelector("#chat-error");
  err.textContent = S.chatError || "";
}
