// The words of the page: the language in force (remembered in localStorage), t() to fill a key of
// its dictionary, and the wording of bids, kontra steps, parts, chat lines and refusals.
// The dictionaries themselves, one per language: i18n/en.js and i18n/hu.js.
import { en } from "./i18n/en.js";
import { hu } from "./i18n/hu.js";
import { pack } from "./pack.js";

const DICTS = { en, hu };
const KEY = "ulti.lang";
let current = (() => {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === "en" || saved === "hu") return saved;
  } catch { /* private mode */ }
  return (navigator.language || "").toLowerCase().startsWith("hu") ? "hu" : "en";
})();

const listeners = [];

export function lang() {
  return current;
}

export function setLang(l) {
  current = l === "hu" ? "hu" : "en";
  try { localStorage.setItem(KEY, current); } catch { /* ignore */ }
  document.documentElement.lang = current;
  applyStatic();
  listeners.forEach((fn) => fn(current));
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** The text of `key` in the current language, with {placeholders} filled from `vars`. */
export function t(key, vars) {
  let s = DICTS[current][key];
  if (s === undefined) s = en[key];
  if (s === undefined) return key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s;
}

/** Fill every element with data-i18n (text) / data-i18n-label (aria-label) / data-i18n-ph (placeholder). */
export function applyStatic(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-label]").forEach((el) => el.setAttribute("aria-label", t(el.dataset.i18nLabel)));
  root.querySelectorAll("[data-i18n-ph]").forEach((el) => el.setAttribute("placeholder", t(el.dataset.i18nPh)));
  root.querySelectorAll("[data-lang]").forEach((el) => { el.hidden = el.dataset.lang !== current; });
}

/** A bid's name in the current language, from GET /api/bids. */
export function bidName(bid, bids) {
  const b = bids && bids.find((x) => x.code === bid);
  if (!b) return bid || "";
  return current === "hu" ? b.name_hu : b.name_en;
}

/** The kontra steps are Hungarian words in both languages; English capitalises them. */
export function stepName(step) {
  if (!step) return "";
  return current === "hu" ? step : step.charAt(0).toUpperCase() + step.slice(1);
}

export function partName(part) {
  return t(`part.${part}`);
}

/** The chat phrase keys of protocol §13, in the server's order. */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "hurry", "brb", "bye"];

/** A chat line's text in the current language: a preset phrase travels as its key (`phrase`), free text as `text`. */
export function chatText(line) {
  if (!line) return "";
  if (typeof line === "string") return line;
  if (line.phrase && en[`chat.phrase.${line.phrase}`] !== undefined) return t(`chat.phrase.${line.phrase}`);
  return line.text || "";
}

// ------------------------------------------------------------------ refusals, worded from code + args

const SUIT_SYMBOLS = { C: "♣", S: "♠", D: "♦", H: "♥" };
const SEAT_ARGS = ["seat", "to_move", "declarer", "leader", "dealer", "want"];

/** The name of suit `s` in the pack in force: "spades" or "leaves" in English; "zöld" in Hungarian (both packs). */
export function suitName(s) {
  return t(pack() === "hungarian" ? `suit.hu.${s}` : `suit.${s}`);
}

/**
 * A suit in text: "♠ spades" in the French pack; "leaves" / "zöld" in the Hungarian pack, whose signs
 * are drawings (cards.js suitIcon), never the French glyphs.
 */
export function suitText(s) {
  return pack() === "hungarian" ? suitName(s) : `${SUIT_SYMBOLS[s] || ""} ${suitName(s)}`;
}

/**
 * A card in text: "♠K" / "♥10" in the French pack (Hungarian court letters: "♣F", "♦A", "♥Ász");
 * "leaves U" / "zöld A" in the Hungarian pack (U and O for the under and the over in English).
 */
export function cardText(code) {
  const rank = String(code)[0];
  const suit = String(code)[1];
  let face = rank === "T" ? "10" : current === "hu" ? ({ A: "Ász", Q: "F", J: "A" }[rank] || rank) : rank;
  if (pack() !== "hungarian") return (SUIT_SYMBOLS[suit] || "") + face;
  if (current !== "hu") face = { J: "U", Q: "O" }[rank] || face;
  return `${suitName(suit)} ${face}`;
}
const defaultCard = cardText;

const BOT_NAME = /^Bot · (random|heuristic|beginner|casual|club|strong|expert)(?: (\d+))?$/;

/**
 * A built-in bot's name in the current language: the server names them in English ("Bot · strong 2",
 * protocol §10), the page says "Gép · erős 2" in Hungarian. Any other name is returned as it is.
 */
export function botName(name) {
  const m = BOT_NAME.exec(name || "");
  if (!m) return name;
  return t("bot.name", { level: t(`bot.level.${m[1]}`), n: m[2] ? ` ${m[2]}` : "" });
}

/** "Seat 2" / "2. hely" for a seat number (0, 1, 2). */
export function seatLabel(seat) {
  return t("lobby.seat", { n: Number(seat) + 1 });
}

/**
 * The values of a refusal (`args` on the wire: seat numbers, card / bid / suit codes, part and step
 * names) as words of the current language. `fmt` may word some kinds itself: `card(code)`,
 * `bid(code)`, `seat(n)` (for the rules of the game: a player's name).
 */
function wordArgs(args, fmt, forRule) {
  const card = fmt.card || defaultCard;
  const bid = fmt.bid || ((code) => code);
  const seat = (forRule && fmt.seat) || seatLabel;
  const out = {};
  for (const [k, v] of Object.entries(args || {})) {
    if (SEAT_ARGS.includes(k)) out[k] = seat(v);
    else if (k === "card") out[k] = card(v);
    else if (k === "held") out[k] = (v || []).map(card).join(" ");
    else if (k === "suit") out[k] = suitName(v);
    else if (k === "bid" || k === "standing") out[k] = bid(v);
    else if (k === "part") out[k] = partName(v);
    else if (k === "parts") out[k] = (v || []).map(partName).join(", ");
    else if (k === "step") out[k] = stepName(v);
    else if (k === "phase") out[k] = t(`phase.${v}`);
    else if (k === "action") out[k] = t(`verb.${v}`);
    else if (k === "deal") out[k] = Number(v) + 1;
    else if (k === "seats") out[k] = (v || []).map(seatLabel).join(", ");
    else out[k] = v;
  }
  return out;
}

/** `key` of the current language filled from `vars`, or null when the key or one of its values is missing. */
function fill(key, vars) {
  const template = DICTS[current][key];
  if (template === undefined) return null;
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (m, k) => {
    if (vars[k] === undefined || vars[k] === null) {
      missing = true;
      return m;
    }
    return String(vars[k]);
  });
  return missing ? null : text;
}

/**
 * The words of a refusal in the current language, from its code and values only (protocol §16):
 * `err` is an `error` message or an ApiError: `{code, rule?, args?, message}`. A game rule
 * (`code` "illegal") is worded from `rule`, anything else from `code`; a code this page does not know
 * (a newer server) shows the server's own English `message`.
 */
export function refusalMessage(err, fmt = {}) {
  if (!err) return "";
  if (err.rule) {
    const text = fill(`rule.${err.rule}`, wordArgs(err.args, fmt, true));
    if (text !== null) return text;
    return err.message || fill("error.illegal", {}) || err.rule;
  }
  const text = err.code ? fill(`error.${err.code}`, wordArgs(err.args, fmt, false)) : null;
  if (text !== null) return text;
  return err.message || err.code || "";
}

/**
 * Why a card may not be played now (`choices.refused_rules` + `choices.refused_args`), in the current
 * language; `fallback` (the server's English, `choices.refused`) when the rule is unknown here.
 */
export function refusalText(rule, args, fallback, fmt = {}) {
  const text = rule ? fill(`refuse.${rule}`, wordArgs(args, fmt, true)) : null;
  return text !== null ? text : fallback || "";
}
