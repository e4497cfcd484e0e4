// English and Hungarian: one dictionary per language; the choice is remembered in localStorage.

const en = {
  "app.title": "Ulti online",
  "nav.lobby": "Lobby",
  "nav.rules": "Rules",
  "nav.matches": "Past matches",
  "nav.lang": "Magyar",
  "nav.lang.label": "Switch the language to Hungarian",
  "nav.menu": "Main menu",
  of: "of",
  "suit.C": "clubs", "suit.S": "spades", "suit.D": "diamonds", "suit.H": "hearts",
  "rank.A": "ace", "rank.K": "king", "rank.Q": "queen (over)", "rank.J": "jack (under)",
  "rank.T": "ten", "rank.9": "nine", "rank.8": "eight", "rank.7": "seven",
  "phase.waiting": "Waiting for players",
  "phase.auction": "Auction",
  "phase.trump": "Naming trumps",
  "phase.play": "Play",
  "phase.done": "Deal over",
  "phase.finished": "Match over",
  "part.simple": "Simple game", "part.ulti": "Ulti", "part.40-100": "40-100", "part.20-100": "20-100",
  "part.durchmars": "Durchmars", "part.betli": "Betli",
  "kind.M": "minor suit", "kind.H": "hearts", "kind.N": "no trumps",
  // session
  "name.title": "Your name",
  "name.label": "Name shown at the table",
  "name.go": "Play",
  "name.hello": "Hello, {name}!",
  "name.change": "Change name",
  "name.bad": "A name is 1 to 32 characters.",
  // lobby
  "lobby.title": "Lobby",
  "lobby.intro": "Ulti is the Hungarian three-player card game. Create a table with bots or friends, or join an open one.",
  "lobby.tables": "Open tables",
  "lobby.none": "No open tables right now. Create one!",
  "lobby.create": "New table",
  "lobby.deals": "Deals",
  "lobby.time": "Time per move",
  "lobby.time.none": "no limit",
  "lobby.seconds": "{n} s",
  "lobby.seat": "Seat {n}",
  "seatkind.me": "Me",
  "seatkind.open": "Open (anyone may join)",
  "seatkind.invite": "Invite link",
  "seatkind.bot.random": "Bot (random)",
  "seatkind.bot.heuristic": "Bot (heuristic)",
  "seatkind.bot.strong": "Bot (strong)",
  "lobby.startnow": "Start at once (fill empty seats with bots)",
  "lobby.createbtn": "Create table",
  "lobby.join": "Join seat {n}",
  "lobby.open": "Open",
  "lobby.watch": "Watch",
  "lobby.status.open": "waiting",
  "lobby.status.playing": "playing",
  "lobby.status.finished": "finished",
  "lobby.status.expired": "expired",
  "lobby.dealsof": "{played} of {planned} deals",
  "lobby.host": "host",
  "seat.free": "free seat",
  "seat.invite": "reserved (invite)",
  "seat.bot": "bot",
  "seat.away": "away: a bot plays",
  "seat.offline": "offline",
  "seat.you": "you",
  "seat.dealer": "dealer",
  "seat.cards": "{n} cards",
  "seat.tricks": "{n} tricks",
  "seat.onturn": "on turn",
  // table
  "table.title": "Table",
  "table.loading": "Loading the table…",
  "table.notfound": "This table does not exist.",
  "table.waiting": "Waiting for the match to start",
  "table.expired": "This table has expired",
  "table.expired.note": "Its match never started, so the table was closed. Create a new one in the lobby.",
  "table.seats": "Seats",
  "table.sit": "Sit here",
  "table.leave": "Leave the table",
  "table.addbot": "Seat a bot",
  "table.invitelink": "Invite link for seat {n}",
  "table.seatlink": "Link to seat {n}",
  "table.copy": "Copy",
  "table.copied": "Copied!",
  "table.fill": "Fill empty seats with bots",
  "table.start": "Start the match",
  "table.onlyhost": "The host starts the match.",
  "table.spectator": "You are watching this table.",
  "table.joininvite": "You were invited to seat {n}.",
  "table.joinbtn": "Take the seat",
  "table.deal": "Deal {n} of {m}",
  "table.tiebreak": "tie-break deal",
  "table.yourturn": "Your turn",
  "table.waitfor": "Waiting for {name}",
  "table.hand": "Your hand",
  "table.hand.of": "Hand of {name}",
  "table.trick": "Trick",
  "table.lasttrick": "Last trick",
  "table.lasttrick.hide": "Hide last trick",
  "table.lasttrick.none": "No trick yet.",
  "table.takes": "{name} takes the trick",
  "table.talon": "Talon",
  "table.contract": "Contract",
  "table.trumps": "Trumps",
  "table.notrumps": "no trumps",
  "table.declarer": "Declarer",
  "table.standing": "Standing bid",
  "table.nobid": "no bid yet",
  "table.log": "Bidding",
  "table.sheet": "Score sheet",
  "table.close": "Close",
  "table.marriages": "Marriages",
  "table.nomarriage": "none",
  "table.counts": "counts {n}",
  "table.open": "Open contract: all hands are face up.",
  "table.countdown": "{n} s left",
  "table.chat": "Chat",
  // actions
  "act.pass": "Pass",
  "act.take": "Take the talon",
  "act.bid": "Bid",
  "act.giveup": "Give up (pay 2 to each)",
  "act.trump": "Trumps: {suit}",
  "act.discard": "Select two cards to discard, then choose a bid.",
  "act.discard.count": "{n} of 2 selected",
  "act.kontra.say": "Say {step}",
  "act.kontra.decline": "No {step}",
  "act.kontra.title": "{step}?",
  "act.kontra.hint": "Choose the parts to double. Playing your card also declines.",
  "act.ladder": "Bids",
  "act.ladder.show": "Show all bids",
  "act.ladder.hide": "Only bids I can make",
  "act.rung": "rung {n}",
  "act.value": "{n} per defender",
  "act.play": "Play {card}",
  "act.notplayable": "not playable: {reason}",
  "act.choosetrump": "Name the trump suit",
  "act.playhint": "Play a card: click it, or use the arrow keys and Enter. Dimmed cards say why they are not allowed.",
  "log.bid": "{name}: {bid}",
  "log.bid.discard": "{name}: {bid} (discarded {cards})",
  "log.take": "{name} takes the talon",
  "log.take.cards": "{name} takes the talon: {cards}",
  "log.pass": "{name}: pass",
  "log.trump": "{name} names trumps: {suit}",
  "log.giveup": "{name} gives up",
  "log.kontra": "{name}: {step} on {parts}",
  "log.kontra.decline": "{name}: no {step}",
  "log.play": "{name} plays {card}",
  // result
  "res.title": "Result of deal {n}",
  "res.won": "won",
  "res.lost": "lost",
  "res.part": "Part",
  "res.outcome": "Outcome",
  "res.value": "Value",
  "res.mult": "×",
  "res.amount": "Per def.",
  "res.silent": "Silent bonuses",
  "res.silent.ulti": "silent ulti", "res.silent.100": "silent 100", "res.silent.durchmars": "silent durchmars",
  "res.side.declarer": "declarer", "res.side.defenders": "defenders",
  "res.points": "Card points: declarer {d}, defenders {f}",
  "res.givenup": "{name} gave up.",
  "res.scores": "Scores",
  "res.perdef": "Each defender pays {n}",
  "res.perdef.neg": "The declarer pays each defender {n}",
  "res.next": "The next deal comes in a moment…",
  "sheet.deal": "Deal",
  "sheet.bid": "Bid",
  "sheet.total": "Total",
  "sheet.empty": "No deal finished yet.",
  "sheet.chart": "Running totals, deal by deal",
  "match.over": "The match is over.",
  "match.winner": "{name} wins the match!",
  "match.tiebreak": "Tie-break deals are being played: the top total is shared.",
  "conn.lost": "Connection lost. Reconnecting…",
  "conn.retry": "Connection lost. Reconnecting in {n} s…",
  "conn.now": "Reconnect now",
  "conn.back": "Connected again.",
  "err.generic": "Something went wrong: {msg}",
  "err.nosession": "Please pick a name first.",
  "hint.tapdimmed": "You may not play {card}: {reason}",
  // matches page
  "matches.title": "Past matches",
  "matches.none": "You have not played here yet.",
  "matches.players": "Players",
  "matches.status": "Status",
  "matches.deals": "Deals",
  "matches.open": "Open table",
  "matches.show": "Deals and replay",
  "matches.download": "Download match record",
  "matches.download.deal": "Download record",
  "matches.replay": "Replay",
  "matches.notstarted": "This match has not started.",
  "replay.title": "Replay: deal {n}",
  "replay.first": "Start",
  "replay.prev": "Back",
  "replay.next": "Next",
  "replay.nexttrick": "Next trick",
  "replay.last": "End",
  "replay.step": "Step {i} of {n}",
  "replay.dealer": "dealer",
  "replay.opener": "opener",
  "replay.start": "Cards as dealt.",
  // rules
  "rules.title": "Rules of Ulti",
  // chat
  "chat.title": "Chat",
  "chat.label": "Chat message",
  "chat.placeholder": "Say something…",
  "chat.send": "Send",
  "chat.phrases": "Quick phrases",
  "chat.closed": "During a deal only the quick phrases may be said.",
  "chat.empty": "No messages yet.",
  "chat.phrase.hello": "Hello!",
  "chat.phrase.good_luck": "Good luck!",
  "chat.phrase.well_played": "Well played!",
  "chat.phrase.thanks": "Thanks!",
  "chat.phrase.sorry": "Sorry!",
  "chat.phrase.hurry": "Please hurry up.",
  "chat.phrase.brb": "Back in a moment.",
  "chat.phrase.bye": "Goodbye!",
  "lobby.chat": "Lobby chat",
};

const hu = {
  "app.title": "Ulti online",
  "nav.lobby": "Társalgó",
  "nav.rules": "Szabályok",
  "nav.matches": "Korábbi meccsek",
  "nav.lang": "English",
  "nav.lang.label": "Nyelv váltása angolra",
  "nav.menu": "Főmenü",
  of: "",
  "suit.C": "makk", "suit.S": "zöld", "suit.D": "tök", "suit.H": "piros",
  "rank.A": "ász", "rank.K": "király", "rank.Q": "felső", "rank.J": "alsó",
  "rank.T": "tízes", "rank.9": "kilences", "rank.8": "nyolcas", "rank.7": "hetes",
  "phase.waiting": "Játékosokra várunk",
  "phase.auction": "Licit",
  "phase.trump": "Aduválasztás",
  "phase.play": "Lejátszás",
  "phase.done": "Vége a leosztásnak",
  "phase.finished": "Vége a meccsnek",
  "part.simple": "Parti", "part.ulti": "Ulti", "part.40-100": "Negyven-száz", "part.20-100": "Húsz-száz",
  "part.durchmars": "Durchmars", "part.betli": "Betli",
  "kind.M": "kis szín", "kind.H": "piros", "kind.N": "színtelen",
  "name.title": "Neved",
  "name.label": "Az asztalnál látható név",
  "name.go": "Játék",
  "name.hello": "Szia, {name}!",
  "name.change": "Névváltás",
  "name.bad": "A név 1–32 karakter lehet.",
  "lobby.title": "Társalgó",
  "lobby.intro": "Az ulti a magyar háromszemélyes kártyajáték. Nyiss asztalt gépi játékosokkal vagy barátokkal, vagy ülj le egy nyitott asztalhoz.",
  "lobby.tables": "Nyitott asztalok",
  "lobby.none": "Most nincs nyitott asztal. Nyiss egyet!",
  "lobby.create": "Új asztal",
  "lobby.deals": "Leosztások",
  "lobby.time": "Gondolkodási idő lépésenként",
  "lobby.time.none": "nincs korlát",
  "lobby.seconds": "{n} mp",
  "lobby.seat": "{n}. hely",
  "seatkind.me": "Én",
  "seatkind.open": "Nyitott (bárki leülhet)",
  "seatkind.invite": "Meghívó link",
  "seatkind.bot.random": "Gép (véletlen)",
  "seatkind.bot.heuristic": "Gép (gyors)",
  "seatkind.bot.strong": "Gép (erős)",
  "lobby.startnow": "Azonnali kezdés (üres helyekre gép ül)",
  "lobby.createbtn": "Asztal nyitása",
  "lobby.join": "Leülök: {n}. hely",
  "lobby.open": "Megnyitás",
  "lobby.watch": "Nézem",
  "lobby.status.open": "várakozik",
  "lobby.status.playing": "játékban",
  "lobby.status.finished": "befejezett",
  "lobby.status.expired": "lejárt",
  "lobby.dealsof": "{played}/{planned} leosztás",
  "lobby.host": "házigazda",
  "seat.free": "szabad hely",
  "seat.invite": "foglalt (meghívó)",
  "seat.bot": "gép",
  "seat.away": "távol: gép játszik helyette",
  "seat.offline": "nincs kapcsolat",
  "seat.you": "te",
  "seat.dealer": "osztó",
  "seat.cards": "{n} lap",
  "seat.tricks": "{n} ütés",
  "seat.onturn": "soron van",
  "table.title": "Asztal",
  "table.loading": "Az asztal betöltése…",
  "table.notfound": "Nincs ilyen asztal.",
  "table.waiting": "Várakozás a meccs kezdetére",
  "table.expired": "Ez az asztal lejárt",
  "table.expired.note": "A meccs nem kezdődött el, ezért az asztalt bezártuk. Nyiss egy újat a társalgóban.",
  "table.seats": "Helyek",
  "table.sit": "Leülök ide",
  "table.leave": "Felállok",
  "table.addbot": "Gépet ültetek ide",
  "table.invitelink": "Meghívó link a(z) {n}. helyre",
  "table.seatlink": "Link a(z) {n}. helyre",
  "table.copy": "Másolás",
  "table.copied": "Kimásolva!",
  "table.fill": "Üres helyekre gép ül",
  "table.start": "A meccs indítása",
  "table.onlyhost": "A meccset a házigazda indítja.",
  "table.spectator": "Nézőként vagy az asztalnál.",
  "table.joininvite": "Meghívtak a(z) {n}. helyre.",
  "table.joinbtn": "Leülök",
  "table.deal": "{n}. leosztás / {m}",
  "table.tiebreak": "döntő leosztás",
  "table.yourturn": "Te következel",
  "table.waitfor": "{name} következik",
  "table.hand": "A lapjaid",
  "table.hand.of": "{name} lapjai",
  "table.trick": "Ütés",
  "table.lasttrick": "Előző ütés",
  "table.lasttrick.hide": "Előző ütés elrejtése",
  "table.lasttrick.none": "Még nem volt ütés.",
  "table.takes": "{name} viszi az ütést",
  "table.talon": "Talon",
  "table.contract": "Játék",
  "table.trumps": "Adu",
  "table.notrumps": "színtelen",
  "table.declarer": "Felvevő",
  "table.standing": "Álló licit",
  "table.nobid": "még nincs licit",
  "table.log": "Licitmenet",
  "table.sheet": "Eredménylap",
  "table.close": "Bezárás",
  "table.marriages": "Bemondások",
  "table.nomarriage": "nincs",
  "table.counts": "számít: {n}",
  "table.open": "Terített játék: minden lap látható.",
  "table.countdown": "{n} mp van hátra",
  "table.chat": "Csevegés",
  "act.pass": "Passz",
  "act.take": "Felveszem a talont",
  "act.bid": "Licit",
  "act.giveup": "Bedobom (2-2 pont a védőknek)",
  "act.trump": "Adu: {suit}",
  "act.discard": "Jelölj ki két lapot a talonba, aztán válassz licitet.",
  "act.discard.count": "{n}/2 kijelölve",
  "act.kontra.say": "{step}!",
  "act.kontra.decline": "Nincs {step}",
  "act.kontra.title": "{step}?",
  "act.kontra.hint": "Jelöld ki, mit duplázol. Ha kijátszod a lapod, az is lemondás.",
  "act.ladder": "Licitek",
  "act.ladder.show": "Minden licit",
  "act.ladder.hide": "Csak a megtehető licitek",
  "act.rung": "{n}. fok",
  "act.value": "{n} védőnként",
  "act.play": "{card} kijátszása",
  "act.notplayable": "nem játszható ki: {reason}",
  "act.choosetrump": "Válassz adut",
  "act.playhint": "Játssz ki egy lapot: kattints rá, vagy használd a nyilakat és az Entert. A halvány lapok megmondják, miért nem adhatók.",
  "log.bid": "{name}: {bid}",
  "log.bid.discard": "{name}: {bid} (talonba: {cards})",
  "log.take": "{name} felveszi a talont",
  "log.take.cards": "{name} felveszi a talont: {cards}",
  "log.pass": "{name}: passz",
  "log.trump": "{name} adut választ: {suit}",
  "log.giveup": "{name} bedobja",
  "log.kontra": "{name}: {step} – {parts}",
  "log.kontra.decline": "{name}: nincs {step}",
  "log.play": "{name} kijátssza: {card}",
  "res.title": "A(z) {n}. leosztás eredménye",
  "res.won": "nyert",
  "res.lost": "bukott",
  "res.part": "Rész",
  "res.outcome": "Eredmény",
  "res.value": "Érték",
  "res.mult": "×",
  "res.amount": "Védőnk.",
  "res.silent": "Csendes bemondások",
  "res.silent.ulti": "csendes ulti", "res.silent.100": "csendes száz", "res.silent.durchmars": "csendes durchmars",
  "res.side.declarer": "felvevő", "res.side.defenders": "védők",
  "res.points": "Kártyapontok: felvevő {d}, védők {f}",
  "res.givenup": "{name} bedobta a játékot.",
  "res.scores": "Pontok",
  "res.perdef": "Mindkét védő fizet {n} pontot",
  "res.perdef.neg": "A felvevő fizet mindkét védőnek {n} pontot",
  "res.next": "Hamarosan jön a következő leosztás…",
  "sheet.deal": "Leosztás",
  "sheet.bid": "Játék",
  "sheet.total": "Összesen",
  "sheet.empty": "Még nincs befejezett leosztás.",
  "sheet.chart": "Az állás leosztásról leosztásra",
  "match.over": "Vége a meccsnek.",
  "match.winner": "{name} nyerte a meccset!",
  "match.tiebreak": "Döntő leosztások jönnek: holtverseny van az élen.",
  "conn.lost": "Megszakadt a kapcsolat. Újracsatlakozás…",
  "conn.retry": "Megszakadt a kapcsolat. Újrapróbálás {n} mp múlva…",
  "conn.now": "Újracsatlakozás most",
  "conn.back": "Újra kapcsolódva.",
  "err.generic": "Hiba történt: {msg}",
  "err.nosession": "Előbb adj meg egy nevet.",
  "hint.tapdimmed": "Nem játszhatod ki: {card}. Ok: {reason}",
  "matches.title": "Korábbi meccsek",
  "matches.none": "Még nem játszottál itt.",
  "matches.players": "Játékosok",
  "matches.status": "Állapot",
  "matches.deals": "Leosztások",
  "matches.open": "Asztal megnyitása",
  "matches.show": "Leosztások és visszajátszás",
  "matches.download": "A meccs letöltése",
  "matches.download.deal": "Letöltés",
  "matches.replay": "Visszajátszás",
  "matches.notstarted": "Ez a meccs még nem kezdődött el.",
  "replay.title": "Visszajátszás: {n}. leosztás",
  "replay.first": "Eleje",
  "replay.prev": "Vissza",
  "replay.next": "Tovább",
  "replay.nexttrick": "Következő ütés",
  "replay.last": "Vége",
  "replay.step": "{i}. lépés / {n}",
  "replay.dealer": "osztó",
  "replay.opener": "kezdő",
  "replay.start": "Az osztás utáni lapok.",
  "rules.title": "Az ulti szabályai",
  // chat
  "chat.title": "Csevegés",
  "chat.label": "Üzenet",
  "chat.placeholder": "Írj valamit…",
  "chat.send": "Küldés",
  "chat.phrases": "Gyors üzenetek",
  "chat.closed": "Leosztás közben csak a gyors üzenetek mondhatók.",
  "chat.empty": "Még nincs üzenet.",
  "chat.phrase.hello": "Sziasztok!",
  "chat.phrase.good_luck": "Sok szerencsét!",
  "chat.phrase.well_played": "Szép játék volt!",
  "chat.phrase.thanks": "Köszönöm!",
  "chat.phrase.sorry": "Bocsánat!",
  "chat.phrase.hurry": "Kérlek, siessetek.",
  "chat.phrase.brb": "Mindjárt jövök.",
  "chat.phrase.bye": "Viszlát!",
  "lobby.chat": "Csevegés a társalgóban",
  // refused cards (choices.refused_rules)
  "refuse.follow": "színre kell adni ({suit})",
  "refuse.follow.noarg": "színre kell adni",
  "refuse.beat": "felül kell ütni ezt: {card}",
  "refuse.beat.noarg": "felül kell ütni",
  "refuse.trump": "adut kell adni",
  "refuse.overtrump": "adúval felül kell ütni ezt: {card}",
  "refuse.overtrump.noarg": "adúval felül kell ütni",
  "refuse.ulti_seven": "az adu hetes az utolsó ütésig marad",
};

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

const SUIT_EN = { clubs: "C", spades: "S", diamonds: "D", hearts: "H" };

/** The chat phrase keys of protocol §13, in the server's order. */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "hurry", "brb", "bye"];

/** A chat line's text in the current language: a preset phrase (sent in English) is shown translated. */
export function chatText(text) {
  if (current === "en" || !text) return text || "";
  const key = PHRASES.find((k) => en[`chat.phrase.${k}`] === text);
  return key ? t(`chat.phrase.${key}`) : text;
}

/**
 * The server's reason for a refused card in the current language. English shows the server's own
 * words (`choices.refused`). Hungarian picks its template by `rule` (`choices.refused_rules`:
 * follow, beat, trump, overtrump, ulti_seven) and takes the suit / card from the English text, or
 * the suit from `ctx.led` (the led suit code); without `rule` the English text is matched by regex.
 * `shortCard` turns the server's "♠K" label into this UI's short label.
 */
export function refusalText(reason, shortCard, rule, ctx) {
  if (current !== "hu" || !reason) return reason || "";
  if (rule && DICTS.hu[`refuse.${rule}`]) {
    const text = String(reason);
    if (rule === "follow") {
      const m = text.match(/\((\w+)\)\s*$/);
      const suit = (m && SUIT_EN[m[1]]) || (ctx && ctx.led) || null;
      return suit ? t("refuse.follow", { suit: t(`suit.${suit}`) }) : t("refuse.follow.noarg");
    }
    if (rule === "beat" || rule === "overtrump") {
      const m = text.match(/the (\S+)\s*$/);
      return m ? t(`refuse.${rule}`, { card: shortCard(m[1]) }) : t(`refuse.${rule}.noarg`);
    }
    return t(`refuse.${rule}`);
  }
  let m = reason.match(/^you must follow suit \((\w+)\)$/);
  if (m) return `színre kell adni (${t(`suit.${SUIT_EN[m[1]] || "C"}`)})`;
  m = reason.match(/^you must beat the (.+)$/);
  if (m) return `felül kell ütni ezt: ${shortCard(m[1])}`;
  m = reason.match(/^you must overtrump the (.+)$/);
  if (m) return `adúval felül kell ütni ezt: ${shortCard(m[1])}`;
  if (reason === "you must play a trump") return "adut kell adni";
  if (reason.startsWith("the trump 7")) return "az adu hetes az utolsó ütésig marad";
  return reason;
}
