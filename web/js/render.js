// Render functions of the table page: state in, DOM out. Event handlers come from table.js.
import { t, lang, bidName, stepName, partName, refusalText, chatText, PHRASES } from "./i18n.js";
import { cardSvg, cardLabel, cardShort, sortHand, SUIT_SYMBOL, trumpOf } from "./cards.js";
import { esc, seatName, loadInvites, tableUrl, copyText, toast } from "./common.js";

const $ = (id) => document.getElementById(id);

/** Replace an element's content only when it changed: no flicker, focus and hover survive, clicks are not lost. */
function setHtml(el, html) {
  if (el._html === html) return false;
  el._html = html;
  el.innerHTML = html;
  return true;
}
export const SEAT_COLORS = ["#f4c542", "#5ec8f2", "#f28b82"];

export function shortFromServer(label) {
  // The server writes cards in refusal reasons as "♠K" / "♥10": show them with this UI's letters.
  const suit = { "♣": "C", "♠": "S", "♦": "D", "♥": "H" }[label[0]];
  const rank = label.slice(1);
  return suit ? cardShort((rank === "10" ? "T" : rank) + suit) : label;
}

/** The reason a card is refused now, in the UI language, or null. */
export function refusedReason(S, code) {
  const ch = S.state && S.state.deal && S.state.deal.choices;
  const reason = ch && ch.refused && ch.refused[code];
  if (!reason) return null;
  const rule = ch.refused_rules ? ch.refused_rules[code] : undefined;
  const trick = S.state.deal.trick;
  const led = trick && trick.cards && trick.cards.length ? trick.cards[0].slice(-1) : null;
  return refusalText(reason, shortFromServer, rule, { led });
}

function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return "";
  const s = S.state.table.seats[seat];
  if (!s) return "";
  if (s.kind === "bot") return t(`seatkind.bot.${s.level || "heuristic"}`);
  return s.name || seatName(s);
}

function bidLabel(S, code) {
  return bidName(code, S.bids);
}

function bidInfo(S, code) {
  return S.bids.find((b) => b.code === code);
}

function suitWord(suit) {
  return `${SUIT_SYMBOL[suit]} ${t(`suit.${suit}`)}`;
}

// ------------------------------------------------------------------ the whole page

export function renderTable(S, h) {
  const st = S.state;
  const waiting = st.table.status === "open" || !st.deal;
  $("waiting").hidden = !waiting;
  $("layout").hidden = waiting;
  renderChat(S, h, waiting);
  if (waiting) {
    renderWaiting(S, h);
    return;
  }
  renderTop(S, h);
  renderSeats(S, h);
  renderCenter(S, h);
  renderHand(S, h);
  renderControls(S, h);
  renderKontraView(S);
  renderLog(S);
}

// ------------------------------------------------------------------ table chat (protocol §13)

/** Free text is allowed only between deals: no deal yet, or the current one is over. */
export function freeChatAllowed(st) {
  return !st.deal || st.deal.phase === "done";
}

function renderChat(S, h, waiting) {
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
    ? lines.map((l) => `<li data-testid="chat-line" class="${l.seat === null || l.seat === undefined ? "spectator" : ""}"${l.seat !== null && l.seat !== undefined ? ` style="--seat-color:${SEAT_COLORS[l.seat] || "#999"}"` : ""}><strong class="chat-name">${esc(l.name || "?")}</strong>: <span class="chat-text">${esc(chatText(l.text))}</span></li>`).join("")
    : `<li class="empty muted" data-testid="chat-empty">${esc(t("chat.empty"))}</li>`;
  if (setHtml(list, linesHtml)) list.scrollTop = list.scrollHeight;
  setHtml(panel.querySelector("#chat-title"), esc(t("chat.title")));
  const free = freeChatAllowed(st);
  const composeHtml = `${free
    ? `<form class="chat-form" id="chat-form" data-testid="chat-form">
        <input type="text" id="chat-input" maxlength="300" autocomplete="off" data-testid="chat-input"
          aria-label="${esc(t("chat.label"))}" placeholder="${esc(t("chat.placeholder"))}">
        <button type="submit" class="small" data-testid="chat-send">${esc(t("chat.send"))}</button></form>`
    : `<p class="hint" data-testid="chat-closed">${esc(t("chat.closed"))}</p>`}
    <div class="chat-phrases" role="group" aria-label="${esc(t("chat.phrases"))}" data-testid="chat-phrases">
      ${PHRASES.map((k) => `<button type="button" class="small phrase" data-phrase="${k}" data-testid="chat-phrase-${k}">${esc(t(`chat.phrase.${k}`))}</button>`).join("")}
    </div>`;
  const compose = panel.querySelector("#chat-compose");
  if (setHtml(compose, composeHtml)) {
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

// ------------------------------------------------------------------ waiting room

function renderWaiting(S, h) {
  const st = S.state;
  const box = $("waiting");
  const isHost = S.player && st.table.host === S.player.id;
  const invites = loadInvites(st.table.table_id);
  const seated = st.you !== null;
  // A table whose match never started expires (protocol §8 `expired`): nothing can be done at it any more.
  const expired = st.table.status === "expired";
  const rows = st.table.seats.map((s, i) => {
    let extra = "";
    const free = (s.kind === "open" || s.kind === "invite") && !expired;
    if (s.kind === "open" && !expired) {
      const link = tableUrl(st.table.table_id, { seat: i });
      extra += linkRow(t("table.seatlink", { n: i + 1 }), link, `seat-link-${i}`);
      if (!seated) extra += `<button type="button" class="primary small" data-testid="sit-${i}" data-sit="${i}">${esc(t("table.sit"))}</button>`;
    }
    if (s.kind === "invite" && invites[String(i)]) {
      const link = tableUrl(st.table.table_id, { seat: i, invite: invites[String(i)] });
      extra += linkRow(t("table.invitelink", { n: i + 1 }), link, `invite-link-${i}`);
    }
    if (free && isHost) {
      extra += `<span class="bot-add">
        <select aria-label="${esc(t("table.addbot"))}" data-level="${i}" data-testid="bot-level-${i}">
          <option value="heuristic">${esc(t("seatkind.bot.heuristic"))}</option>
          <option value="strong">${esc(t("seatkind.bot.strong"))}</option>
          <option value="random">${esc(t("seatkind.bot.random"))}</option>
        </select>
        <button type="button" class="small" data-bot="${i}" data-testid="add-bot-${i}">${esc(t("table.addbot"))}</button></span>`;
    }
    const you = st.you === i ? ` <span class="badge you">${esc(t("seat.you"))}</span>` : "";
    const conn = s.kind === "player" && s.connected === false ? ` <span class="badge off">${esc(t("seat.offline"))}</span>` : "";
    return `<li class="wait-seat ${s.kind}" data-testid="wait-seat-${i}">
      <div class="ws-name"><span class="seat-no">${i + 1}</span> ${esc(s.kind === "player" ? s.name : seatName(s))}${you}${conn}</div>
      <div class="ws-extra">${extra}</div></li>`;
  }).join("");
  const startBlock = expired
    ? `<p class="muted" data-testid="table-expired">${esc(t("table.expired.note"))}</p>`
    : isHost
    ? `<div class="start-row">
        <label class="check"><input type="checkbox" id="fill-bots" data-testid="fill-bots" checked> ${esc(t("table.fill"))}</label>
        <button type="button" class="primary big" data-testid="start-match" id="start-btn">${esc(t("table.start"))}</button>
      </div>`
    : `<p class="muted">${esc(seated ? t("table.onlyhost") : t("table.spectator"))}</p>`;
  const fill = box.querySelector("#fill-bots");
  const fillChecked = fill ? fill.checked : true;
  const html = `<h1>${esc(t(expired ? "table.expired" : "table.waiting"))}</h1>
    <p class="muted">${esc(t("lobby.dealsof", { played: 0, planned: st.table.deals_planned }))} · ${esc(t("lobby.time"))}: ${esc(st.table.move_seconds ? t("lobby.seconds", { n: st.table.move_seconds }) : t("lobby.time.none"))}</p>
    <h2>${esc(t("table.seats"))}</h2>
    <ul class="wait-seats">${rows}</ul>
    ${startBlock}
    ${seated && !expired ? `<button type="button" class="link-btn" data-testid="leave-table" id="leave-btn">${esc(t("table.leave"))}</button>` : ""}`;
  if (!setHtml(box, html)) return;
  const f2 = box.querySelector("#fill-bots");
  if (f2) f2.checked = fillChecked;
  box.querySelectorAll("[data-sit]").forEach((b) => b.addEventListener("click", () => h.join(Number(b.dataset.sit))));
  box.querySelectorAll("[data-bot]").forEach((b) => b.addEventListener("click", () => {
    const level = box.querySelector(`select[data-level="${b.dataset.bot}"]`).value;
    h.addBot(Number(b.dataset.bot), level);
  }));
  box.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", async () => {
    await copyText(b.dataset.copy);
    toast(t("table.copied"));
  }));
  const sb = box.querySelector("#start-btn");
  if (sb) sb.addEventListener("click", () => h.start(box.querySelector("#fill-bots").checked));
  const lb = box.querySelector("#leave-btn");
  if (lb) lb.addEventListener("click", () => h.leave());
}

function linkRow(label, link, testid) {
  return `<div class="link-row"><label><span class="sr-only">${esc(label)}</span>
    <input type="text" readonly value="${esc(link)}" data-testid="${testid}" aria-label="${esc(label)}"></label>
    <button type="button" class="small" data-copy="${esc(link)}" data-testid="${testid}-copy" aria-label="${esc(t("table.copy"))}: ${esc(label)}">${esc(t("table.copy"))}</button></div>`;
}

// ------------------------------------------------------------------ top bar

function phaseKey(st) {
  if (st.table.status === "finished") return "finished";
  return st.deal ? st.deal.phase : "waiting";
}

function renderTop(S, h) {
  const st = S.state;
  const d = st.deal;
  const m = st.match;
  const c = d.contract;
  const dealNo = t("table.deal", { n: st.deal_index + 1, m: m ? m.deals_planned : "?" });
  let contract = "";
  if (c) {
    const tr = trumpOf(c);
    contract = `<span class="contract" data-testid="contract"><span class="lbl">${esc(t("table.contract"))}:</span>
      <strong>${esc(bidLabel(S, c.bid))}</strong> · ${esc(nameOf(S, c.declarer))}
      · <span class="lbl">${esc(t("table.trumps"))}:</span> ${tr ? `<span class="suit-${tr}">${esc(suitWord(tr))}</span>` : (c.bid.startsWith("N-") ? esc(t("table.notrumps")) : "?")}</span>`;
  } else if (d.auction && d.auction.bid) {
    contract = `<span class="contract" data-testid="contract"><span class="lbl">${esc(t("table.standing"))}:</span>
      <strong>${esc(bidLabel(S, d.auction.bid))}</strong> · ${esc(nameOf(S, d.auction.bidder))}</span>`;
  }
  const winner = m && m.winner !== null && m.winner !== undefined
    ? `<div class="winner-banner" data-testid="match-winner" role="status">★ ${esc(t("match.winner", { name: nameOf(S, m.winner) }))}
        <button type="button" class="primary small" data-open-sheet>${esc(t("table.sheet"))}</button></div>`
    : "";
  const tie = m && m.tie_break && m.winner === null ? `<div class="tie-note" data-testid="tie-break">${esc(t("match.tiebreak"))}</div>` : "";
  const away = st.you !== null && st.table.seats[st.you] && st.table.seats[st.you].away
    ? `<button type="button" class="small warn" data-testid="back-btn" data-back>${esc(t("seat.away"))} – OK</button>` : "";
  const topHtml = `
    <div class="top-line">
      <span class="deal-no" data-testid="deal-no">${esc(dealNo)}${m && m.tie_break ? ` (${esc(t("table.tiebreak"))})` : ""}</span>
      <span class="phase" data-testid="phase">${esc(t(`phase.${phaseKey(st)}`))}</span>
      <span class="top-buttons">
        ${away}
        <button type="button" class="small ghost" data-testid="last-trick-btn" aria-pressed="${S.showLastTrick}" data-last-trick>${esc(S.showLastTrick ? t("table.lasttrick.hide") : t("table.lasttrick"))}</button>
        <button type="button" class="small ghost" data-testid="sheet-btn" data-open-sheet>${esc(t("table.sheet"))}</button>
      </span>
    </div>
    ${contract ? `<div class="top-line">${contract}</div>` : ""}
    ${winner}${tie}`;
  if (!setHtml($("felt-top"), topHtml)) return;
  $("felt-top").querySelectorAll("[data-open-sheet]").forEach((b) => b.addEventListener("click", h.openSheet));
  $("felt-top").querySelector("[data-last-trick]").addEventListener("click", h.toggleLastTrick);
  const bb = $("felt-top").querySelector("[data-back]");
  if (bb) bb.addEventListener("click", h.back);
}

// ------------------------------------------------------------------ seats

export function positions(st) {
  const me = st.you === null ? 0 : st.you;
  // Play goes to the "next seat" (s+1): counter-clockwise, as in Hungary, so it sits on the right.
  return { me, right: (me + 1) % 3, left: (me + 2) % 3 };
}

function marriageText(m) {
  if (!m) return "";
  const parts = [];
  if (m.forty) parts.push("40");
  for (let i = 0; i < m.twenties; i++) parts.push("20");
  if (!parts.length) return t("table.nomarriage");
  return parts.join(" + ");
}

function seatBox(S, seat, where) {
  const st = S.state;
  const d = st.deal;
  const s = st.table.seats[seat];
  const onTurn = d.to_move === seat && d.phase !== "done";
  const badges = [];
  if (st.you === seat) badges.push(`<span class="badge you">${esc(t("seat.you"))}</span>`);
  if (d.dealer === seat) badges.push(`<span class="badge dealer" title="${esc(t("seat.dealer"))}">${esc(t("seat.dealer"))}</span>`);
  if (d.contract && d.contract.declarer === seat) badges.push(`<span class="badge decl">${esc(t("table.declarer"))}</span>`);
  if (s.kind === "bot") badges.push(`<span class="badge bot">${esc(t("seat.bot"))}</span>`);
  if (s.away) badges.push(`<span class="badge away" data-testid="away-${seat}" title="${esc(t("seat.away"))}">${esc(t("seat.away"))}</span>`);
  if (s.kind === "player" && s.connected === false && !s.away) badges.push(`<span class="badge off">${esc(t("seat.offline"))}</span>`);
  const mar = d.marriages && d.marriages[String(seat)];
  const marriage = mar ? `<span class="marriage" data-testid="marriage-${seat}" title="${esc(t("table.marriages"))}"><small>${esc(t("table.marriages"))}:</small> ${esc(marriageText(mar))}${mar.counting ? ` <small>(${esc(t("table.counts", { n: mar.counting }))})</small>` : ""}</span>` : "";
  const size = d.hand_sizes[seat];
  let cards = "";
  if (where !== "me") {
    const open = d.hands[String(seat)];
    if (open && d.phase !== "done") {
      const sorted = sortHand(open, d.contract);
      cards = `<div class="mini-hand open" data-testid="open-hand-${seat}" aria-label="${esc(t("table.hand.of", { name: nameOf(S, seat) }))}">${sorted.map((c) => `<span class="mini-card" title="${esc(cardLabel(c))}" aria-label="${esc(cardLabel(c))}" role="img">${cardSvg(c)}</span>`).join("")}</div>`;
    } else if (size) {
      cards = `<div class="mini-hand backs" aria-hidden="true">${Array.from({ length: size }, () => `<span class="mini-card">${cardSvg(null, { faceDown: true })}</span>`).join("")}</div>`;
    }
  }
  return `<div class="seat-inner ${onTurn ? "on-turn" : ""}" data-testid="seat-${seat}" data-on-turn="${onTurn ? 1 : 0}" style="--seat-color:${SEAT_COLORS[seat]}">
    <div class="seat-head"><span class="dot" aria-hidden="true"></span><strong class="seat-name" data-testid="seat-name-${seat}">${esc(nameOf(S, seat))}</strong>
      ${onTurn ? `<span class="turn-mark" data-testid="turn-${seat}">▶ ${esc(t("seat.onturn"))}</span><span class="countdown" data-countdown data-testid="countdown-${seat}"></span>` : ""}</div>
    <div class="seat-meta"><span data-testid="hand-size-${seat}">${esc(t("seat.cards", { n: size }))}</span> · <span>${esc(t("seat.tricks", { n: d.won[seat] }))}</span> ${marriage}</div>
    <div class="badges">${badges.join(" ")}</div>
    ${cards}
  </div>`;
}

function renderSeats(S) {
  const pos = positions(S.state);
  setHtml($("seat-left"), seatBox(S, pos.left, "left"));
  setHtml($("seat-right"), seatBox(S, pos.right, "right"));
  setHtml($("seat-me"), seatBox(S, pos.me, "me"));
}

// ------------------------------------------------------------------ center: trick, talon

function trickHtml(S, trick, cards, finished) {
  const pos = positions(S.state);
  const where = { [pos.me]: "bottom", [pos.left]: "left", [pos.right]: "right" };
  return cards.map((c, i) => {
    const seat = (trick.leader + i) % 3;
    return `<div class="trick-card at-${where[seat]} ${finished ? "done" : ""}" data-testid="trick-card-${c}" role="img" aria-label="${esc(nameOf(S, seat))}: ${esc(cardLabel(c))}" style="--order:${i}">${cardSvg(c)}</div>`;
  }).join("");
}

function renderCenter(S) {
  const st = S.state;
  const d = st.deal;
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  let html = "";
  if (S.showLastTrick) {
    html = last
      ? `<div class="trick-area" data-testid="last-trick">${trickHtml(S, last, last.cards, true)}</div>
         <div class="center-note">${esc(t("table.lasttrick"))}: ${esc(t("table.takes", { name: nameOf(S, last.winner) }))}</div>`
      : `<div class="center-note" data-testid="last-trick">${esc(t("table.lasttrick.none"))}</div>`;
  } else if (d.phase === "play" || d.phase === "done") {
    if (d.trick && d.trick.cards.length) {
      html = `<div class="trick-area" data-testid="trick">${trickHtml(S, d.trick, d.trick.cards, false)}</div>`;
    } else if (last) {
      // The trick just completed stays in view until the next card is led.
      html = `<div class="trick-area" data-testid="trick">${trickHtml(S, last, last.cards, true)}</div>
        <div class="center-note">${esc(t("table.takes", { name: nameOf(S, last.winner) }))}</div>`;
    } else {
      html = `<div class="center-note">${esc(d.contract ? t("table.waitfor", { name: nameOf(S, d.to_move) }) : "")}</div>`;
    }
  } else {
    const standing = d.auction && d.auction.bid
      ? `<div class="center-bid"><span class="lbl">${esc(t("table.standing"))}</span><strong data-testid="standing-bid">${esc(bidLabel(S, d.auction.bid))}</strong><span>${esc(nameOf(S, d.auction.bidder))}</span></div>`
      : `<div class="center-bid"><span class="lbl">${esc(t("table.standing"))}</span><strong data-testid="standing-bid">${esc(t("table.nobid"))}</strong></div>`;
    const talonExists = d.log.some((e) => e.action === "bid");
    const talon = talonExists
      ? `<div class="talon" data-testid="talon" aria-label="${esc(t("table.talon"))}${d.talon ? ": " + esc(d.talon.map(cardLabel).join(", ")) : ""}"><span class="lbl">${esc(t("table.talon"))}</span>
          ${(d.talon || [null, null]).map((c) => `<span class="mini-card talon-card">${cardSvg(c, { faceDown: !c })}</span>`).join("")}</div>`
      : "";
    html = standing + talon;
  }
  if (d.phase === "done" && d.result) {
    html += `<div class="center-note result-note">${esc(t("phase.done"))}</div>`;
  }
  setHtml($("center"), html);
}

// ------------------------------------------------------------------ my hand

function myTakeCards(d) {
  for (let i = d.log.length - 1; i >= 0; i--) {
    const e = d.log[i];
    if (e.seat === d.seat && e.action === "take") return e.cards || [];
    if (e.seat === d.seat && e.action === "bid") return [];
  }
  return [];
}

function renderHand(S, h) {
  const st = S.state;
  const d = st.deal;
  const hand = $("hand");
  const pos = positions(st);
  const cards = d.hands[String(pos.me)] || [];
  const ch = d.choices;
  const sorted = sortHand(cards, d.contract);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  const taken = ch && ch.must_discard ? myTakeCards(d) : [];
  hand.setAttribute("aria-label", st.you === null ? t("table.hand.of", { name: nameOf(S, pos.me) }) : t("table.hand"));
  hand.style.setProperty("--n", String(Math.max(sorted.length, 1)));
  if (st.you === null) {
    setHtml(hand, "");
    return;
  }
  const handHtml = sorted.map((c) => {
    let cls = "card";
    let label = cardLabel(c);
    let title = label;
    let disabled = true;
    let pressed = "";
    if (ch && ch.must_discard) {
      cls += " selectable";
      disabled = !!S.pending;
      const sel = S.selected.has(c);
      if (sel) cls += " selected";
      pressed = `aria-pressed="${sel}"`;
    } else if (ch && ch.cards && ch.cards.includes(c)) {
      cls += " playable";
      disabled = !!S.pending;
      label = t("act.play", { card: cardLabel(c) });
      title = label;
    } else {
      const reason = refusedReason(S, c);
      if (reason) {
        cls += " refused";
        label = `${cardLabel(c)} – ${t("act.notplayable", { reason })}`;
        title = reason;
      }
    }
    if (taken.includes(c)) cls += " taken";
    return `<button type="button" class="${cls}" data-card="${c}" data-testid="card-${c}" aria-label="${esc(label)}" title="${esc(title)}"
      aria-disabled="${disabled}" ${pressed} tabindex="-1">${cardSvg(c)}</button>`;
  }).join("");
  if (!setHtml(hand, handHtml)) return;
  // roving tabindex: one card in the tab order; arrows move; Enter/Space activate
  const buttons = [...hand.querySelectorAll("button.card")];
  let current = buttons.find((b) => b.dataset.card === focused) || buttons.find((b) => b.classList.contains("playable")) || buttons[0];
  if (current) current.tabIndex = 0;
  if (focused && current && current.dataset.card === focused) current.focus();
  buttons.forEach((b) => b.addEventListener("click", () => h.card(b.dataset.card)));
  hand.onkeydown = (ev) => {
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
    if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    if (ev.key === "Home") j = 0;
    if (ev.key === "End") j = buttons.length - 1;
    if (j !== null) {
      ev.preventDefault();
      buttons.forEach((b) => { b.tabIndex = -1; });
      buttons[j].tabIndex = 0;
      buttons[j].focus();
    }
  };
}

/** Arrow keys anywhere on the page (outside form fields) bring the focus into the hand. */
export function globalKeys(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if (!["ArrowLeft", "ArrowRight"].includes(ev.key)) return;
  if (ev.target.closest && ev.target.closest("#hand")) return;
  const hand = $("hand");
  if (!hand) return;
  const target = hand.querySelector("button.card.playable") || hand.querySelector("button.card[tabindex='0']");
  if (target) {
    ev.preventDefault();
    target.focus();
  }
}

// ------------------------------------------------------------------ controls

function renderControls(S, h) {
  const st = S.state;
  const d = st.deal;
  const ch = d.choices;
  const box = $("controls");
  const busy = !!S.pending;
  let html = "";
  if (d.phase === "done") {
    html = resultHtml(S, d.result, st.deal_index);
    if (st.match && st.match.winner === null) html += `<p class="muted">${esc(t("res.next"))}</p>`;
  } else if (!ch) {
    html = `<p class="status-line" data-testid="status-line">${esc(d.to_move >= 0 ? t("table.waitfor", { name: nameOf(S, d.to_move) }) : "")}</p>`;
    if (d.phase === "auction") html += ladderHtml(S, null, busy);
  } else {
    html = `<p class="status-line your-turn" data-testid="your-turn">${esc(t("table.yourturn"))}</p>`;
    if (d.phase === "auction") {
      if (ch.must_discard) {
        html += `<p class="hint" data-testid="discard-hint">${esc(t("act.discard"))} <strong data-testid="discard-count">${esc(t("act.discard.count", { n: S.selected.size }))}</strong></p>`;
      }
      const btns = [];
      if (ch.may_pass) btns.push(`<button type="button" class="act big" data-testid="act-pass" data-do="pass" ${busy ? "disabled" : ""}>${esc(t("act.pass"))}</button>`);
      if (ch.may_take) btns.push(`<button type="button" class="act big primary" data-testid="act-take" data-do="take" ${busy ? "disabled" : ""}>${esc(t("act.take"))}</button>`);
      if (btns.length) html += `<div class="btn-row">${btns.join("")}</div>`;
      html += ladderHtml(S, ch, busy);
    } else if (d.phase === "trump") {
      html += `<p>${esc(t("act.choosetrump"))}</p><div class="btn-row">${ch.trumps.map((s) => `<button type="button" class="act big trump-btn suit-${s}" data-testid="act-trump-${s}" data-trump="${s}" ${busy ? "disabled" : ""}>${esc(suitWord(s))}</button>`).join("")}</div>`;
      if (ch.may_give_up) html += `<div class="btn-row"><button type="button" class="act warn" data-testid="act-giveup" data-do="giveup" ${busy ? "disabled" : ""}>${esc(t("act.giveup"))}</button></div>`;
    }
    if (ch.kontra) html += kontraHtml(S, ch.kontra, d, busy);
    if (ch.cards && ch.cards.length && d.phase === "play") {
      html += `<p class="hint" data-testid="play-hint">${esc(t("act.playhint"))}</p>`;
    }
  }
  if (!setHtml(box, html)) return;
  box.querySelectorAll("[data-do]").forEach((b) => b.addEventListener("click", () => {
    const what = b.dataset.do;
    if (what === "pass") h.pass();
    else if (what === "take") h.take();
    else if (what === "giveup") h.giveUp();
    else if (what === "kontra-say") h.kontra([...S.kontraParts]);
    else if (what === "kontra-decline") h.kontra([]);
    else if (what === "all-bids") h.toggleAllBids();
  }));
  box.querySelectorAll("[data-bid]").forEach((b) => b.addEventListener("click", () => h.bid(b.dataset.bid)));
  box.querySelectorAll("[data-trump]").forEach((b) => b.addEventListener("click", () => h.trump(b.dataset.trump)));
  box.querySelectorAll("[data-kpart]").forEach((b) => b.addEventListener("click", () => h.toggleKontra(b.dataset.kpart)));
  box.querySelectorAll("[data-open-sheet]").forEach((b) => b.addEventListener("click", h.openSheet));
}

function ladderHtml(S, ch, busy) {
  const d = S.state.deal;
  const standing = d.auction && d.auction.bid;
  const allowed = new Set(ch ? ch.bids : []);
  const needDiscard = ch && ch.must_discard;
  const rungs = new Map();
  for (const b of S.bids) {
    if (!S.showAllBids && ch && !allowed.has(b.code)) continue;
    if (!rungs.has(b.rung)) rungs.set(b.rung, []);
    rungs.get(b.rung).push(b);
  }
  const rows = [...rungs.entries()].map(([rung, bids]) => `<li class="rung" data-rung="${rung}">
    <span class="rung-no" aria-hidden="true">${rung}</span>
    <span class="rung-bids">${bids.map((b) => {
      const ok = allowed.has(b.code) && !busy && (!needDiscard || S.selected.size === 2);
      const isStanding = b.code === standing;
      const label = `${bidName(b.code, S.bids)} – ${t("act.rung", { n: b.rung })}, ${t("act.value", { n: b.value })}`;
      return `<button type="button" class="act bid kind-${b.kind} ${isStanding ? "standing" : ""} ${b.open ? "open-bid" : ""}" data-bid="${b.code}" data-testid="bid-${b.code}"
        ${ok ? "" : "disabled"} aria-label="${esc(label)}" title="${esc(label)}"><span class="bid-name">${esc(bidName(b.code, S.bids))}</span><span class="bid-val">${b.value}</span></button>`;
    }).join("")}</span></li>`).join("");
  const toggle = ch ? `<button type="button" class="link-btn" data-do="all-bids" data-testid="toggle-all-bids" aria-pressed="${!S.showAllBids}">${esc(S.showAllBids ? t("act.ladder.hide") : t("act.ladder.show"))}</button>` : "";
  return `<div class="ladder-head"><h3>${esc(t("act.ladder"))}</h3>${toggle}</div><ol class="ladder" data-testid="bid-ladder" aria-label="${esc(t("act.ladder"))}">${rows}</ol>`;
}

function kontraHtml(S, k, d, busy) {
  const step = stepName(k.step);
  const parts = k.parts.map((p) => {
    const cur = (d.kontra && d.kontra[p]) || 1;
    const on = S.kontraParts.has(p);
    return `<button type="button" class="toggle kontra-part ${on ? "on" : ""}" aria-pressed="${on}" data-kpart="${p}" data-testid="kontra-part-${p}" ${busy ? "disabled" : ""}>
      ${esc(partName(p))} <span class="mult">×${cur} → ×${cur * 2}</span></button>`;
  }).join("");
  return `<div class="kontra-box" data-testid="kontra-box" data-step="${esc(k.step)}">
    <h3>${esc(t("act.kontra.title", { step }))}</h3>
    <p class="hint">${esc(t("act.kontra.hint"))}</p>
    <div class="btn-row wrap">${parts}</div>
    <div class="btn-row">
      <button type="button" class="act primary" data-do="kontra-say" data-testid="act-kontra-say" ${busy || !S.kontraParts.size ? "disabled" : ""}>${esc(t("act.kontra.say", { step }))}</button>
      <button type="button" class="act" data-do="kontra-decline" data-testid="act-kontra-decline" ${busy ? "disabled" : ""}>${esc(t("act.kontra.decline", { step: lang() === "hu" ? k.step : k.step }))}</button>
    </div></div>`;
}

// ------------------------------------------------------------------ kontra multipliers and log

function renderKontraView(S) {
  const d = S.state.deal;
  const box = $("kontra-view");
  if (!d.contract) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const info = bidInfo(S, d.contract.bid);
  const parts = info ? info.parts : Object.keys(d.kontra || {}).map((p) => ({ part: p, value: "" }));
  const chain = d.chain ? `<p class="chain" data-testid="chain">${esc(stepName(d.chain.step))}: ${esc(d.chain.parts.map(partName).join(", "))}</p>` : "";
  setHtml(box, `<h3>${esc(t("table.contract"))}: ${esc(bidLabel(S, d.contract.bid))}</h3>
    <ul class="parts">${parts.map((p) => {
      const m = (d.kontra && d.kontra[p.part]) || 1;
      return `<li data-testid="part-${p.part}"><span>${esc(partName(p.part))}</span><span class="val">${p.value}</span><span class="mult ${m > 1 ? "hot" : ""}" data-testid="mult-${p.part}">×${m}</span></li>`;
    }).join("")}</ul>${chain}`);
}

function logLine(S, e) {
  const name = nameOf(S, e.seat);
  switch (e.action) {
    case "bid":
      return e.discard
        ? t("log.bid.discard", { name, bid: bidLabel(S, e.bid), cards: e.discard.map(cardShort).join(" ") })
        : t("log.bid", { name, bid: bidLabel(S, e.bid) });
    case "take":
      return e.cards ? t("log.take.cards", { name, cards: e.cards.map(cardShort).join(" ") }) : t("log.take", { name });
    case "pass":
      return t("log.pass", { name });
    case "trump":
      return t("log.trump", { name, suit: suitWord(e.suit) });
    case "give_up":
      return t("log.giveup", { name });
    case "kontra":
      return null;
    default:
      return null;
  }
}

/** The kontra steps in the log: the step is implied by the order (RECORD.md). */
function kontraLines(S, d) {
  const steps = ["kontra", "rekontra", "szubkontra", "hirskontra", "mordkontra", "fedáksári"];
  let played = 0;
  let chainStep = 1; // after trick 1: rekontra first, one step further after each raise
  return d.log.map((e) => {
    if (e.action === "play") played += 1;
    if (e.action !== "kontra") return null;
    const name = nameOf(S, e.seat);
    const idx = played < 3 ? 0 : Math.min(chainStep, 5);
    const step = stepName(steps[idx]);
    if (e.parts && e.parts.length) {
      if (played >= 3) chainStep += 1;
      return t("log.kontra", { name, step, parts: e.parts.map(partName).join(", ") });
    }
    return t("log.kontra.decline", { name, step });
  });
}

function renderLog(S) {
  const d = S.state.deal;
  const kl = kontraLines(S, d);
  const lines = d.log.map((e, i) => (e.action === "kontra" ? kl[i] : logLine(S, e))).filter(Boolean);
  setHtml($("log"), `<h3>${esc(t("table.log"))}</h3><ol class="log-list" data-testid="log-list">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ol>`);
}

// ------------------------------------------------------------------ results and the score sheet

export function resultHtml(S, r, index) {
  if (!r) return "";
  const name = (s) => nameOf(S, s);
  const tr = r.trump ? ` · ${suitWord(r.trump)}` : "";
  let body = `<h3 data-testid="result-title">${esc(t("res.title", { n: index + 1 }))}</h3>
    <p><strong>${esc(name(r.declarer))}</strong>: ${esc(bidLabel(S, r.bid))}${esc(tr)}</p>`;
  if (r.given_up) body += `<p data-testid="given-up">${esc(t("res.givenup", { name: name(r.declarer) }))}</p>`;
  if (r.parts && r.parts.length) {
    body += `<table class="result-table"><thead><tr><th>${esc(t("res.part"))}</th><th>${esc(t("res.outcome"))}</th><th>${esc(t("res.value"))}</th><th>${esc(t("res.mult"))}</th><th>${esc(t("res.amount"))}</th></tr></thead><tbody>
      ${r.parts.map((p) => `<tr class="${p.won ? "won" : "lost"}" data-testid="result-part-${p.part}"><td>${esc(partName(p.part))}</td><td>${esc(p.won ? t("res.won") : t("res.lost"))}</td><td>${p.value}</td><td>×${p.multiplier}</td><td>${p.per_defender > 0 ? "+" : ""}${p.per_defender}</td></tr>`).join("")}
      </tbody></table>`;
  }
  if (r.silent && r.silent.length) {
    body += `<p class="silent"><strong>${esc(t("res.silent"))}:</strong> ${r.silent.map((s) => `${esc(t(`res.silent.${s.bonus}`))} (${esc(t(`res.side.${s.side}`))}, ${esc(s.won ? t("res.won") : t("res.lost"))}, ${s.per_defender > 0 ? "+" : ""}${s.per_defender})`).join("; ")}</p>`;
  }
  if (r.points) body += `<p>${esc(t("res.points", { d: r.points.declarer, f: r.points.defenders }))}</p>`;
  body += `<p>${esc(r.per_defender >= 0 ? t("res.perdef", { n: r.per_defender }) : t("res.perdef.neg", { n: -r.per_defender }))}</p>`;
  body += `<ul class="scores">${r.scores.map((s, i) => `<li style="--seat-color:${SEAT_COLORS[i]}"><span class="dot"></span>${esc(name(i))}: <strong class="${s > 0 ? "pos" : s < 0 ? "neg" : ""}">${s > 0 ? "+" : ""}${s}</strong></li>`).join("")}</ul>`;
  return `<div class="deal-result" data-testid="deal-result">${body}</div>`;
}

export function chartSvg(sheet, names) {
  const rows = [[0, 0, 0], ...sheet];
  const W = 520;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 26 };
  const vals = rows.flat();
  let max = Math.max(10, ...vals);
  let min = Math.min(-10, ...vals);
  const span = max - min;
  max += span * 0.05;
  min -= span * 0.05;
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / Math.max(1, rows.length - 1);
  const y = (v) => pad.t + ((max - v) * (H - pad.t - pad.b)) / (max - min);
  const grid = [];
  const step = niceStep((max - min) / 5);
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) {
    grid.push(`<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v)}" y2="${y(v)}" class="${v === 0 ? "zero" : "grid"}"/><text x="${pad.l - 4}" y="${y(v) + 4}" class="axis" text-anchor="end">${v}</text>`);
  }
  const xs = rows.map((_, i) => `<text x="${x(i)}" y="${H - 8}" class="axis" text-anchor="middle">${i}</text>`).join("");
  const lines = [0, 1, 2].map((s) => {
    const pts = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[s]).toFixed(1)}`).join(" ");
    const dots = rows.map((r, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(r[s]).toFixed(1)}" r="3" fill="${SEAT_COLORS[s]}"/>`).join("");
    return `<polyline points="${pts}" fill="none" stroke="${SEAT_COLORS[s]}" stroke-width="2.5" stroke-linejoin="round"/>${dots}`;
  }).join("");
  const legend = names.map((n, s) => `<span class="legend-item"><span class="dot" style="background:${SEAT_COLORS[s]}"></span>${esc(n)}</span>`).join("");
  return `<figure class="chart" data-testid="sheet-chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("sheet.chart"))}">
    <rect x="0" y="0" width="${W}" height="${H}" class="chart-bg"/>${grid.join("")}${xs}${lines}</svg>
    <figcaption>${esc(t("sheet.chart"))} <span class="legend">${legend}</span></figcaption></figure>`;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

export function renderSheet(S) {
  const st = S.state;
  const body = $("sheet-body");
  const m = st && st.match;
  const names = [0, 1, 2].map((s) => nameOf(S, s));
  if (!m || !m.sheet.length) {
    body.innerHTML = `<p data-testid="sheet-empty">${esc(t("sheet.empty"))}</p>`;
    return;
  }
  const rows = m.sheet.map((row, k) => {
    const r = m.results[k];
    const prev = k ? m.sheet[k - 1] : [0, 0, 0];
    const what = r ? `${esc(names[r.declarer])}: ${esc(bidLabel(S, r.bid))}${r.given_up ? " ✗" : ""}` : "";
    return `<tr data-testid="sheet-row-${k}"><th scope="row">${k + 1}</th><td class="what">${what}</td>${row.map((v, s) => {
      const dlt = v - prev[s];
      return `<td><span class="tot">${v}</span> <small class="${dlt > 0 ? "pos" : dlt < 0 ? "neg" : ""}">(${dlt > 0 ? "+" : ""}${dlt})</small></td>`;
    }).join("")}</tr>`;
  }).join("");
  const winner = m.winner !== null && m.winner !== undefined
    ? `<p class="winner-line" data-testid="sheet-winner">★ ${esc(t("match.winner", { name: names[m.winner] }))}</p>` : "";
  const tie = m.tie_break && m.winner === null ? `<p>${esc(t("match.tiebreak"))}</p>` : "";
  body.innerHTML = `${winner}${tie}<div class="sheet-scroll"><table class="sheet" data-testid="sheet-table">
    <thead><tr><th scope="col">${esc(t("sheet.deal"))}</th><th scope="col" class="what">${esc(t("sheet.bid"))}</th>${names.map((n, s) => `<th scope="col" style="--seat-color:${SEAT_COLORS[s]}"><span class="dot"></span>${esc(n)}</th>`).join("")}</tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th scope="row">${esc(t("sheet.total"))}</th><td class="what"></td>${m.totals.map((v, s) => `<td data-testid="sheet-total-${s}" class="${m.winner === s ? "win" : ""}">${v}</td>`).join("")}</tr></tfoot>
  </table></div>${chartSvg(m.sheet, names)}`;
}
