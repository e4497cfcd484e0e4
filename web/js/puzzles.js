// The puzzle page (/puzzles.html): a position cut from a real deal, seen from the seat to move, as the table
// shows it (the hand, what is known of the others, the bidding, the tricks so far, the contract). The player
// plays the card(s); the server judges each (docs/protocol/puzzles.md) and says right or wrong and why: each
// card's value, the line that follows, the rating change; once it is over the whole deal is shown.
// Also: a theme and phase to choose, the daily puzzle, the history, the puzzles from one's own mistakes.
import { http, loadBids } from "./api.js";
import { initPage, errorText, currentPlayer, askName } from "./common.js";
import { t, onLangChange, bidName, seatLabel, suitText, cardText, refusalText } from "./i18n.js";
import { html, setHTML, join } from "./html.js";
import { cardSvg, cardLabel, sortHand } from "./cards.js";

const THEMES = ["catch_seven", "save_ulti", "betli_defence", "durchmars", "hundred", "last_trick", "silent_bonus", "opening_lead"];
const PHASES = ["early", "middle", "endgame"];

let bids = [];
let state = null; // the puzzle as the server gave it: {puzzle, attempt, view, player, daily?}
let result = null; // the last move's answer: {correct, status, values, line, …}
let busy = false;
let list = null; // {kind: "history" | "mistakes", items}

const $ = (id) => document.getElementById(id);

function showError(e) {
  $("puzzle-error").textContent = e ? errorText(e) : "";
}

async function call(method, path, body) {
  showError(null);
  try {
    return await http(method, path, body);
  } catch (e) {
    showError(e);
    throw e;
  }
}

// ---------------------------------------------------------------- the position

function seatName(seat) {
  if (state && seat === state.puzzle.seat) return t("puzzle.you");
  return seatLabel(seat);
}

function cardImg(code, extra = "") {
  return html`<span class="puzzle-card ${extra}" role="img" aria-label="${cardLabel(code)}">${cardSvg(code)}</span>`;
}

function contractLine(view) {
  const c = view.contract;
  if (!c) return "";
  const trump = c.trump ? html` · ${t("puzzle.trump", { suit: suitText(c.trump) })}` : "";
  const kontra = Object.keys(view.kontra || {}).length ? html` · ${t("puzzle.kontra")}` : "";
  return html`<p data-testid="puzzle-contract">${t("puzzle.contract", { bid: bidName(c.bid, bids), seat: seatName(c.declarer) })}${trump}${kontra}</p>`;
}

function seatsLine(view) {
  const me = view.seat;
  const declarer = view.contract ? view.contract.declarer : null;
  const tally = view.tally;
  return html`<div class="puzzle-seats" data-testid="puzzle-others">${[0, 1, 2].map((s) => html`
    <span class="puzzle-seat ${s === me ? "me" : ""}" data-testid="puzzle-seat-${s}">${seatName(s)}${s === declarer ? html` (${t("puzzle.declarer")})` : ""}:
      ${t("puzzle.cards.left", { n: view.hand_sizes[s] })}, ${t("puzzle.tricks.won", { n: view.won ? view.won[s] : 0 })}</span>`)}</div>
    ${tally ? html`<p class="muted" data-testid="puzzle-tally">${t("puzzle.tally", {
      dc: tally.declarer.cards, dm: tally.declarer.marriages, fc: tally.defenders.cards, fm: tally.defenders.marriages })}</p>` : ""}`;
}

function biddingList(view) {
  const items = (view.log || []).filter((e) => ["bid", "pass", "trump", "kontra"].includes(e.action));
  const text = (e) => {
    if (e.action === "bid") return bidName(e.bid, bids);
    if (e.action === "pass") return t("puzzle.pass");
    if (e.action === "trump") return t("puzzle.trump", { suit: suitText(e.suit) });
    return t("puzzle.kontra");
  };
  return html`<details data-testid="puzzle-bidding-box"><summary>${t("puzzle.bidding")}</summary>
    <ol class="puzzle-bidding" data-testid="puzzle-bidding">${items.map((e) => html`<li>${seatName(e.seat)}: ${text(e)}</li>`)}</ol></details>`;
}

function trickCards(trick) {
  return trick.cards.map((c, k) => `${seatName((trick.leader + k) % 3)} ${cardText(c)}`).join(", ");
}

function tricksList(view) {
  const tricks = view.tricks || [];
  if (!tricks.length) return html`<p class="muted" data-testid="puzzle-tricks">${t("puzzle.tricks.none")}</p>`;
  return html`<details data-testid="puzzle-tricks-box" open><summary>${t("puzzle.tricks", { n: tricks.length })}</summary>
    <ol class="puzzle-tricks" data-testid="puzzle-tricks">${tricks.map((tr) => html`
      <li>${trickCards(tr)} → ${seatName(tr.winner)}</li>`)}</ol></details>`;
}

function currentTrick(view) {
  const trick = view.trick;
  if (!trick || !trick.cards.length) return html`<p class="muted" data-testid="puzzle-trick">${t("puzzle.you.lead")}</p>`;
  return html`<div class="puzzle-trick" data-testid="puzzle-trick">${trick.cards.map((c, k) => html`
    <figure>${cardImg(c)}<figcaption>${seatName((trick.leader + k) % 3)}</figcaption></figure>`)}</div>`;
}

function handButtons(view, over) {
  const seat = view.seat;
  const cards = sortHand(view.hands[String(seat)] || [], view.contract);
  const choices = view.choices || {};
  const legal = new Set(choices.cards || []);
  const rules = choices.refused_rules || {};
  const played = result ? result.card : null;
  return html`<div class="puzzle-hand" data-testid="puzzle-hand">${cards.map((c) => {
    const why = rules[c] ? refusalText(rules[c], (choices.refused_args || {})[c], (choices.refused || {})[c]) : "";
    const label = why ? `${cardLabel(c)}: ${why}` : cardLabel(c);
    return html`<button type="button" class="puzzle-card ${c === played ? "played" : ""}" data-card="${c}"
      data-testid="puzzle-card-${c}" aria-label="${label}" title="${why}"
      ${over || busy || !legal.has(c) ? "disabled" : ""}>${cardSvg(c)}</button>`;
  })}</div>`;
}

function renderBoard() {
  const board = $("puzzle-board");
  if (!state) {
    board.hidden = true;
    return;
  }
  const view = state.view;
  const p = state.puzzle;
  const over = result && result.status !== "open";
  const themes = p.themes.map((name) => t(`puzzle.theme.${name}`)).join(", ");
  const heading = state.daily ? t("puzzle.daily.title", { day: state.daily }) : t("puzzle.number", { id: p.id });
  board.hidden = false;
  board.dataset.puzzle = p.id;
  board.dataset.move = String(state.attempt.move);
  setHTML(board, html`
    <h2>${heading}</h2>
    <div class="puzzle-facts">
      <p class="muted" data-testid="puzzle-about">${t("puzzle.about", { rating: p.rating, phase: t(`puzzle.phase.${p.phase}`) })}${themes ? html` · ${themes}` : ""}</p>
      ${contractLine(view)}
      ${seatsLine(view)}
    </div>
    ${biddingList(view)}
    ${tricksList(view)}
    ${currentTrick(view)}
    <p class="puzzle-ask" data-testid="puzzle-ask">${over ? t("puzzle.over") : p.moves > 1
      ? t("puzzle.ask.many", { n: state.attempt.move + 1, of: p.moves }) : t("puzzle.ask")}</p>
    ${handButtons(view, over)}`);
  board.querySelectorAll("button.puzzle-card").forEach((b) => b.addEventListener("click", () => play(b.dataset.card)));
}

// ---------------------------------------------------------------- the answer

function signed(v) {
  const n = Number(v);
  const text = Number.isInteger(n) ? String(n) : n.toFixed(2);
  return n > 0 ? `+${text}` : text;
}

function valuesTable(res) {
  const codes = Object.keys(res.values).sort((a, b) => res.values[b] - res.values[a]);
  const open = res.open_values;
  return html`<table class="puzzle-values" data-testid="puzzle-values">
    <thead><tr><th>${t("puzzle.values.card")}</th><th>${t("puzzle.values.view")}</th>${open ? html`<th>${t("puzzle.values.open")}</th>` : ""}</tr></thead>
    <tbody>${codes.map((c) => html`<tr data-card="${c}" class="${res.answer.includes(c) ? "answer" : ""} ${c === res.card ? "played" : ""}">
      <td>${cardText(c)}${res.answer.includes(c) ? html` ✓` : ""}</td><td>${signed(res.values[c])}</td>${open ? html`<td>${signed(open[c])}</td>` : ""}</tr>`)}</tbody></table>`;
}

function lineText(codes) {
  return codes.map((c) => cardText(c)).join(" · ");
}

function revealHands(reveal) {
  return html`<div class="puzzle-reveal" data-testid="puzzle-reveal"><strong>${t("puzzle.reveal")}</strong>
    ${[0, 1, 2].map((s) => html`<div data-testid="puzzle-reveal-${s}">${seatName(s)}
      <div class="puzzle-hand">${sortHand(reveal.hands[String(s)], state.view.contract).map((c) => cardImg(c))}</div></div>`)}</div>`;
}

function renderFeedback() {
  const box = $("puzzle-feedback");
  if (!result) {
    box.hidden = true;
    return;
  }
  const res = result;
  const best = res.answer.map((c) => cardText(c)).join(" / ");
  const title = res.correct
    ? (res.status === "solved" ? t("puzzle.solved") : t("puzzle.right.more"))
    : t("puzzle.wrong", { card: cardText(res.card), best });
  const why = res.correct
    ? t("puzzle.why.right", { card: cardText(res.card), v: signed(res.values[res.card]) })
    : t("puzzle.why.wrong", {
      card: cardText(res.card), v: signed(res.values[res.card]), best, b: signed(res.values[res.answer[0]]),
    });
  const rating = res.rating
    ? html`<p data-testid="puzzle-rating-change">${res.rating.rated
      ? t("puzzle.rating.change", { before: res.rating.before, after: res.rating.after, change: signed(res.rating.change) })
      : t("puzzle.rating.unrated")}</p>` : "";
  const replies = res.status === "open" && res.replies.length
    ? html`<p data-testid="puzzle-replies">${t("puzzle.replies", { cards: lineText(res.replies) })}</p>` : "";
  const line = res.status !== "open"
    ? html`<p class="puzzle-line" data-testid="puzzle-line">${t("puzzle.line")} ${lineText(res.line)}</p>` : "";
  const right = res.status !== "open" && !res.correct && res.reveal
    ? html`<p class="puzzle-line" data-testid="puzzle-best-line">${t("puzzle.line.best")} ${lineText(res.reveal.line)}</p>` : "";
  box.hidden = false;
  box.className = `card-panel puzzle-feedback ${res.correct ? "good" : "wrong"}`;
  box.dataset.status = res.status;
  setHTML(box, html`<h2 data-testid="puzzle-verdict">${title}</h2>
    <p data-testid="puzzle-why">${why}</p>
    <p class="muted">${t("puzzle.values.explain")}</p>
    ${valuesTable(res)}${replies}${line}${right}${rating}
    ${res.reveal ? revealHands(res.reveal) : ""}
    ${res.status !== "open" ? html`<button type="button" class="primary" data-testid="puzzle-next-after">${t("puzzle.next")}</button>` : ""}`);
  const again = box.querySelector("[data-testid=puzzle-next-after]");
  if (again) again.addEventListener("click", () => nextPuzzle());
}

function renderRating(player) {
  if (!player) return;
  $("puzzle-rating").dataset.rating = String(player.rating);
  $("puzzle-rating").textContent = t("puzzle.rating", { rating: player.rating, solved: player.solved, attempts: player.attempts });
}

// ---------------------------------------------------------------- history and own mistakes

function renderList() {
  const box = $("puzzle-list");
  if (!list) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (list.kind === "history") {
    setHTML(box, html`<h2>${t("puzzle.history")}</h2>${list.items.length ? html`<ol data-testid="puzzle-history">${list.items.map((a) => html`
      <li data-status="${a.status}"><button type="button" class="link" data-open="${a.puzzle}">${t("puzzle.number", { id: a.puzzle })}</button>
        ${t(`puzzle.status.${a.status}`)}${a.rated && a.rating_after !== null ? html` · ${a.rating_before} → ${a.rating_after}` : ""}
        · ${new Date(a.started_at).toLocaleString()}</li>`)}</ol>` : html`<p class="muted" data-testid="puzzle-history">${t("puzzle.history.none")}</p>`}`);
  } else {
    setHTML(box, html`<h2>${t("puzzle.mistakes")}</h2><p class="muted">${t("puzzle.mistakes.intro")}</p>
      ${list.items.length ? html`<ul data-testid="puzzle-mistakes">${list.items.map((p) => html`
      <li data-status="${p.status}"><button type="button" class="link" data-open="${p.id}">${t("puzzle.number", { id: p.id })}</button>
        ${join(p.themes.map((name) => t(`puzzle.theme.${name}`)), ", ")} · ${t(`puzzle.status.${p.status}`)}</li>`)}</ul>`
      : html`<p class="muted" data-testid="puzzle-mistakes">${t("puzzle.mistakes.none")}</p>`}`);
  }
  box.querySelectorAll("[data-open]").forEach((b) => b.addEventListener("click", () => openPuzzle(b.dataset.open)));
}

// ---------------------------------------------------------------- actions

function show(next) {
  state = next;
  result = null;
  renderRating(next.player);
  renderBoard();
  renderFeedback();
  const u = new URL(location.href);
  u.search = next.daily ? "?daily=1" : `?id=${encodeURIComponent(next.puzzle.id)}`;
  history.replaceState(null, "", u.toString());
}

async function load(path) {
  let next;
  try {
    next = await call("GET", path);
  } catch {
    return; // shown by call()
  }
  show(next);
}

function nextPuzzle() {
  const q = new URLSearchParams();
  if ($("puzzle-theme").value) q.set("theme", $("puzzle-theme").value);
  if ($("puzzle-phase").value) q.set("phase", $("puzzle-phase").value);
  const query = q.toString();
  return load(`/api/puzzles/next${query ? `?${query}` : ""}`);
}

function openPuzzle(id) {
  return load(`/api/puzzles/${encodeURIComponent(id)}`);
}

async function play(card) {
  if (busy || !state) return;
  busy = true;
  renderBoard();
  try {
    const res = await call("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/move`, { card, move: state.attempt.move });
    result = res;
    state = { ...state, player: res.player };
    if (res.status === "open") {
      state = { ...state, view: res.view, attempt: { ...state.attempt, status: "open", move: res.move, cards: [...state.attempt.cards, res.card] } };
    }
    renderRating(res.player);
  } catch { /* shown by call() */ } finally {
    busy = false;
    renderBoard();
    renderFeedback();
  }
  // phone first: the verdict is below the hand, bring it into view
  const box = $("puzzle-feedback");
  if (!box.hidden && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  if (list && list.kind === "history") await showHistory();
}

async function showHistory() {
  try {
    const data = await call("GET", "/api/puzzles/history");
    renderRating(data.player);
    list = { kind: "history", items: data.attempts };
    renderList();
  } catch { /* shown by call() */ }
}

async function showMistakes() {
  try {
    const data = await call("GET", "/api/puzzles/mistakes");
    list = { kind: "mistakes", items: data.puzzles };
    renderList();
  } catch { /* shown by call() */ }
}

function fillChoices() {
  const theme = $("puzzle-theme").value;
  const phase = $("puzzle-phase").value;
  setHTML($("puzzle-theme"), html`<option value="">${t("puzzle.any")}</option>${THEMES.map((name) => html`
    <option value="${name}" ${name === theme ? "selected" : ""}>${t(`puzzle.theme.${name}`)}</option>`)}`);
  setHTML($("puzzle-phase"), html`<option value="">${t("puzzle.any")}</option>${PHASES.map((name) => html`
    <option value="${name}" ${name === phase ? "selected" : ""}>${t(`puzzle.phase.${name}`)}</option>`)}`);
}

async function main() {
  initPage("puzzles");
  try { bids = (await loadBids()).bids; } catch { bids = []; }
  if (!(await currentPlayer())) await askName($("name-slot")); // a guest may solve: a name is enough
  document.querySelector("[data-testid=puzzle-bar]").hidden = false;
  fillChoices();
  $("puzzle-next").addEventListener("click", () => nextPuzzle());
  $("puzzle-daily").addEventListener("click", () => load("/api/puzzles/daily"));
  $("puzzle-history-btn").addEventListener("click", () => showHistory());
  $("puzzle-mistakes-btn").addEventListener("click", () => showMistakes());
  onLangChange(() => {
    fillChoices();
    if (state) renderRating(state.player);
    renderBoard();
    renderFeedback();
    renderList();
  });
  const params = new URLSearchParams(location.search);
  if (params.get("id")) await openPuzzle(params.get("id"));
  else if (params.get("daily")) await load("/api/puzzles/daily");
  else await nextPuzzle();
}

main();
