// The guided first deal (/learn.html): the rules in small steps on real cards, in either pack and language.
// Each step shows cards drawn by cards.js and asks one small thing (lay two away, bid, follow suit, who takes
// the trick, count the points); a wrong answer is explained, never punished. Every step can be skipped.
import { initPage, toast, errorText, currentPlayer } from "./common.js";
import { t, onLangChange } from "./i18n.js";
import { html, setHTML } from "./html.js";
import { cardSvg, cardName, cardLabel } from "./cards.js";
import { playNow } from "./playnow.js";

const DONE_KEY = "ulti.learned"; // the lobby stops offering the guide once it was finished or skipped

// The example deal: hearts are trumps once bid. Your twelve cards as the opener:
const OPENER_HAND = ["AH", "TH", "KH", "9H", "7H", "AC", "KC", "AS", "8S", "7S", "9D", "8D"];
// The hand after laying 9D and 8D away (the step about following suit starts from it).
const PLAY_HAND = ["AH", "TH", "KH", "9H", "7H", "AC", "KC", "AS", "8S", "7S"];
// Trick: Anna leads the king of spades; you must follow suit and beat it: only the ace does.
const LEAD = "KS";
const MUST_PLAY = "AS";
// Trick for "who takes it": Anna K♠, you A♠, Béla has no spade and trumps with the heart 7.
const TRICK = [["anna", "KS"], ["you", "AS"], ["bela", "7H"]];
const TRICK_WINNER = "bela";
// The cards you took over the deal, for counting: three aces and two tens = 50, plus the last trick 10.
const TAKEN = ["AH", "KS", "8S", "TH", "QS", "9C", "AC", "TC", "7C", "AS", "JD", "7D"];
const TAKEN_POINTS = 60;

const STEPS = ["pack", "talon", "bid", "follow", "trick", "score", "done"];
let step = 0;
let picked = []; // the two cards laid away in the talon step
let answer = null; // the answer given in the current step (a bid, a card, a seat, a number)

function cards(codes, { testid = "", clickable = false, selected = [], dim = [] } = {}) {
  return html`<div class="learn-cards" ${testid ? html`data-testid="${testid}"` : ""}>${codes.map((c) => clickable
    ? html`<button type="button" class="learn-card ${selected.includes(c) ? "selected" : ""} ${dim.includes(c) ? "dim" : ""}"
        data-card="${c}" data-testid="learn-card-${c}" aria-pressed="${selected.includes(c) ? "true" : "false"}"
        aria-label="${cardLabel(c)}">${cardSvg(c)}</button>`
    : html`<span class="learn-card" role="img" aria-label="${c ? cardLabel(c) : t("learn.facedown")}">${cardSvg(c)}</span>`)}</div>`;
}

function feedback(key, vars, good) {
  return html`<p class="learn-feedback ${good ? "good" : "wrong"}" data-testid="learn-feedback" role="status">${t(key, vars)}</p>`;
}

function choiceButtons(options) {
  return html`<div class="learn-choices">${options.map(([value, label]) => html`
    <button type="button" class="${answer === value ? "primary" : ""}" data-answer="${value}" data-testid="learn-answer-${value}">${label}</button>`)}</div>`;
}

/** The body of step `name`: its cards, its question, and what was answered. */
function body(name) {
  switch (name) {
    case "pack":
      return html`<p>${t("learn.pack.text")}</p>
        ${cards(["AC", "AS", "AD", "AH"], { testid: "learn-suits" })}
        <p>${t("learn.pack.order")}</p>
        ${cards(["AH", "TH", "KH", "QH", "JH", "9H", "8H", "7H"], { testid: "learn-order" })}
        <p class="muted">${t("learn.pack.points")}</p>`;
    case "talon": {
      const talon = picked.length === 2
        ? html`<div class="learn-talon" data-testid="learn-talon"><span>${t("learn.talon.label")}</span>${cards(picked.map(() => ""), {})}</div>`
        : "";
      return html`<p>${t("learn.talon.text")}</p>
        ${cards(OPENER_HAND, { testid: "learn-hand", clickable: true, selected: picked })}
        ${talon}
        ${picked.length === 2 ? feedback("learn.talon.done", { a: cardName(picked[0]), b: cardName(picked[1]) }, true) : html`<p class="muted">${t("learn.talon.count", { n: picked.length })}</p>`}`;
    }
    case "bid":
      return html`<p>${t("learn.bid.text")}</p>
        ${cards(OPENER_HAND.filter((c) => !["9D", "8D"].includes(c)), {})}
        ${choiceButtons([["pass", t("learn.bid.pass")], ["simple", t("learn.bid.simple")], ["hearts", t("learn.bid.hearts")]])}
        ${answer ? feedback(`learn.bid.after.${answer}`, {}, answer === "hearts") : ""}`;
    case "follow": {
      const lead = html`<div class="learn-trick"><span>${t("learn.anna")}</span>${cards([LEAD])}</div>`;
      const right = answer === MUST_PLAY;
      const said = !answer ? "" : right
        ? feedback("learn.follow.right", { card: cardName(MUST_PLAY) }, true)
        : feedback(answer[1] === "S" ? "learn.follow.beat" : "learn.follow.suit", { card: cardName(answer), lead: cardName(LEAD) }, false);
      return html`<p>${t("learn.follow.text", { lead: cardName(LEAD) })}</p>${lead}
        ${cards(PLAY_HAND, { testid: "learn-hand", clickable: !right, selected: answer ? [answer] : [] })}${said}`;
    }
    case "trick": {
      const names = { anna: t("learn.anna"), you: t("learn.you"), bela: t("learn.bela") };
      return html`<p>${t("learn.trick.text", { card: cardName("7H") })}</p>
        <div class="learn-trick" data-testid="learn-trick">${TRICK.map(([who, c]) => html`<div class="learn-play"><span>${names[who]}</span>${cards([c])}</div>`)}</div>
        <p><strong>${t("learn.trick.ask")}</strong></p>
        ${choiceButtons(TRICK.map(([who]) => [who, names[who]]))}
        ${answer ? feedback(answer === TRICK_WINNER ? "learn.trick.right" : "learn.trick.wrong", { card: cardName("7H") }, answer === TRICK_WINNER) : ""}`;
    }
    case "score":
      return html`<p>${t("learn.score.text")}</p>
        ${cards(TAKEN, { testid: "learn-taken" })}
        <p><strong>${t("learn.score.ask")}</strong></p>
        ${choiceButtons([["50", "50"], ["60", "60"], ["70", "70"]])}
        ${answer ? feedback(Number(answer) === TAKEN_POINTS ? "learn.score.right" : "learn.score.wrong", { n: TAKEN_POINTS }, Number(answer) === TAKEN_POINTS) : ""}`;
    default:
      return html`<p>${t("learn.done.text")}</p>
        <div class="start-row"><button type="button" class="primary big" data-testid="learn-play" id="learn-play">${t("learn.done.play")}</button>
        <a class="button" href="/rules.html" data-testid="learn-rules">${t("start.rules")}</a></div>`;
  }
}

function render() {
  const name = STEPS[step];
  const box = document.getElementById("learn-step");
  box.dataset.step = name;
  const last = step === STEPS.length - 1;
  setHTML(box, html`<p class="learn-progress muted" data-testid="learn-progress">${t("learn.progress", { n: step + 1, of: STEPS.length })}</p>
    <h1>${t(`learn.${name}.title`)}</h1>
    ${body(name)}
    <div class="learn-nav">
      <button type="button" data-testid="learn-back" id="learn-back" ${step === 0 ? "disabled" : ""}>${t("learn.back")}</button>
      ${last ? "" : html`<button type="button" class="primary" data-testid="learn-next" id="learn-next">${t("learn.next")}</button>`}
      <a class="link-btn learn-skip" href="/index.html" data-testid="learn-skip">${t("learn.skip")}</a>
    </div>`);
  box.querySelectorAll("[data-card]").forEach((b) => b.addEventListener("click", () => onCard(b.dataset.card)));
  box.querySelectorAll("[data-answer]").forEach((b) => b.addEventListener("click", () => { answer = b.dataset.answer; render(); }));
  document.getElementById("learn-back").addEventListener("click", () => go(step - 1));
  const next = document.getElementById("learn-next");
  if (next) next.addEventListener("click", () => go(step + 1));
  box.querySelector("[data-testid=learn-skip]").addEventListener("click", markDone);
  const play = document.getElementById("learn-play");
  if (play) play.addEventListener("click", onPlay);
}

function onCard(code) {
  if (STEPS[step] === "talon") {
    picked = picked.includes(code) ? picked.filter((c) => c !== code) : [...picked, code].slice(-2);
  } else if (STEPS[step] === "follow") {
    answer = code;
  }
  render();
}

function go(n) {
  step = Math.max(0, Math.min(STEPS.length - 1, n));
  answer = null;
  if (step === STEPS.length - 1) markDone();
  render();
  window.scrollTo(0, 0);
}

function markDone() {
  try { localStorage.setItem(DONE_KEY, "1"); } catch { /* private mode */ }
}

async function onPlay(ev) {
  ev.currentTarget.disabled = true;
  try {
    await playNow(await currentPlayer());
  } catch (e) {
    toast(errorText(e), "error");
    ev.currentTarget.disabled = false;
  }
}

initPage("learn");
render();
onLangChange(render);
