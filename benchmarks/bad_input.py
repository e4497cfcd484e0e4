"""Bad messages and requests for the server, made by plain functions of a ``Draw`` (integers, picks, text).

The same generators serve benchmarks/bad_input_bench.py (drawn from a seeded ``random.Random``,
100,000 a run) and the property tests of tests/server/test_bad_input.py (drawn by hypothesis, which
shrinks what fails; its ``Draw`` lives there, so this module needs no hypothesis). Every generator
knows what it made: each bad message comes with the error codes that name its fault, and the checks
here tell a refusal that names it from one that does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import string
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol, TypeVar

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.cards import card_str
from ulti.engine.contracts import BIDS, Part
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.server.tablestate import BOT_LEVELS, PRESET_PHRASES

T = TypeVar("T")
CARDS = [card_str(c) for c in range(32)]
BID_CODES = [b.code for b in BIDS]
PARTS = [p.value for p in Part]
KINDS = ["bid", "take", "pass", "trump", "give_up", "kontra", "play"]
KNOWN_TYPES = {"ping", "watch_lobby", "lobby_chat", "open_table", "act", "chat", "back"}
MAX_MESSAGE = 4096  # bytes of a WebSocket message (Settings.max_message_bytes)
MAX_BODY = 16384  # bytes of an HTTP request body (Settings.max_body_bytes)
MAX_DEPTH = 16  # nesting of either (inputs.MAX_DEPTH)
MAX_FRAME = 65536  # a bigger frame is refused by the WebSocket layer, which closes the connection
ID_CHARS = string.ascii_letters + string.digits + "_-"
INT64 = range(-(2**63), 2**63)

#: words each refusal's message must hold (any one of them): a person can tell what was wrong
WORDS: dict[str, tuple[str, ...]] = {
    "too_large": (str(MAX_MESSAGE), str(MAX_BODY)),
    "bad_json": ("json",),
    "too_deep": (f"{MAX_DEPTH} levels",),
    "bad_message": ("text frames", "object", "id", "field", "needs", "must be"),
    "unknown_type": ("type",),
    "bad_id": ("must be an id", "table"),
    "not_found": ("no table", "not found", "not finished", "not started"),
    "bad_chat": ("text", "phrase"),
    "chat_closed": ("preset",),
    "not_your_turn": ("turn",),
    "not_seated": ("sit",),
    "no_table": ("open a table",),
    "duplicate_id": ("already used",),
    "chain_open": ("chain",),
    "bad_name": ("name",),
    "bad_config": ("deals", "move_seconds", "seat", "seed"),
    "bad_request": ("seat", "level", "object", "index"),
    "unauthorized": ("session",),
    "bad_origin": ("origin", "this site"),
    "bad_content_type": ("json",),
    "method_not_allowed": ("method",),
}
#: codes that come only after the server remembered the command's id (its idempotency key)
AFTER_ID_CHECK = {"illegal", "bad_action", "chain_open", "not_your_turn", "not_seated", "chat_closed"}
#: the HTTP status of each refusal code the HTTP faults below may meet
HTTP_STATUS = {
    "bad_id": 400, "bad_json": 400, "too_deep": 400, "bad_request": 400, "bad_name": 400, "bad_config": 400,
    "unauthorized": 401, "bad_origin": 403, "not_host": 403, "not_found": 404, "method_not_allowed": 405,
    "table_started": 409, "not_seated": 409, "too_large": 413, "bad_content_type": 415,
}


# ---------------------------------------------------------------- where the choices come from


class Rejected(Exception):
    """A ``RandomDraw`` generator drew something unusable: draw again."""


class Draw(Protocol):
    """The choices a generator makes: hypothesis in the tests, a seeded ``random.Random`` in the benchmark."""

    def integer(self, low: int, high: int) -> int: ...

    def pick(self, options: Sequence[T]) -> T: ...

    def text(self, min_size: int = 0, max_size: int = 20) -> str: ...

    def reject(self) -> NoReturn: ...


#: characters that ``RandomDraw.text`` mixes in: every plane, and the ones the edge must think about
_WIDE = [(0x20, 0x7E, 50), (0xA0, 0x2FFF, 20), (0x3000, 0xFFFD, 10), (0x1F300, 0x1FAFF, 8), (0x10000, 0x10FFFF, 4)]


class RandomDraw:
    """Draws from a seeded ``random.Random``: fast, for the benchmark's hundred thousand messages."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._ranges = [(low, high) for low, high, weight in _WIDE for _ in range(weight)]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def text(self, min_size: int = 0, max_size: int = 20) -> str:
        size = min_size + int((max_size - min_size) * self.rng.random() ** 2)
        chars = []
        for _ in range(size):
            if self.rng.random() < 0.06:
                chars.append(self.rng.choice(NASTY))
                continue
            low, high = self.rng.choice(self._ranges)
            code = self.rng.randint(low, high)
            chars.append(chr(code) if not 0xD800 <= code <= 0xDFFF else "?")
        return "".join(chars)

    def reject(self) -> NoReturn:
        raise Rejected


def flag(d: Draw) -> bool:
    return d.integer(0, 1) == 1


def index(d: Draw, size: int) -> int:
    """An index into a list that depends on the table's state (hypothesis replays draws, not states)."""
    return d.integer(0, 2**16) % size


def chars(d: Draw, alphabet: Sequence[str], low: int, high: int) -> str:
    """A string of ``low`` to ``high`` pieces of ``alphabet``, from two draws (hypothesis draws each
    choice into a bounded buffer: a long string drawn piece by piece would overrun it)."""
    size = d.integer(low, high)
    rng = random.Random(d.integer(0, 2**32))
    return "".join(rng.choice(alphabet) for _ in range(size))


def insert(d: Draw, text: str, piece: str) -> str:
    # the text may come from the table's state: a fixed range, reduced, keeps hypothesis' draws replayable
    at = index(d, len(text) + 1)
    return text[:at] + piece + text[at:]


# ---------------------------------------------------------------- values: text, numbers, junk

SPACES = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u00a0", "\u1680", "\u2000", "\u2028", "\u3000"]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]  # all format characters (Cf)
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
        "\u200f", "\u061c"]
CONTROLS = ["\x00", "\x01", "\x07", "\x08", "\x1b", "\x7f", "\x80", "\x9f"]  # none is whitespace: strip keeps them
UNASSIGNED = ["\ue000", "\uf8ff", "\U000f0000", "\u0378", "\ufdd0", "\uffff", "\U0010ffff", "\U000e0000"]
COMBINING = ["\u0301", "\u0308", "\u20dd", "\u034f"]
LOOKALIKES = ["ſ", "K", "ı", "ﬀ", "Ａ", "７", "𝟕", "٣", "Ⅻ", "ℌ", "а", "е", "о", "Ѕ"]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"]
NASTY = [*ZERO_WIDTH, *BIDI, *CONTROLS, *UNASSIGNED, *COMBINING, *LOOKALIKES, *SPACES, "😀", "👩\u200d💻", "\u3164"]
#: characters chat text may never hold, wherever they are (inputs.clean_text)
NEVER_IN_TEXT = [*CONTROLS, *UNASSIGNED, *BIDI]
#: ... and names (inputs.clean_name), which refuse every format character too
NEVER_IN_NAME = [*NEVER_IN_TEXT, *ZERO_WIDTH]
INVISIBLE = [*SPACES, *ZERO_WIDTH, *COMBINING]
#: integers around the edges of 32, 53, 64 and 128 bits; past 64 bits JSON parsers disagree
EDGES = [2**31, 2**32, 2**53, 2**63, 2**64, 2**65, 2**128, 10**30, 10**100]
#: integers no double can hold: the parser refuses them (``bad_json``)
HUGE = [10**309, 10**400, 2**1100]
FLOATS = [0.5, -0.0, 1.0, 6.0, 1e300, -2.5e-300, 1.8446744073709552e19, 9.223372036854776e18]
NON_FINITE = [math.nan, math.inf, -math.inf]


def nasty_text(d: Draw, max_size: int = 20) -> str:
    """Any text, with a few characters that need thought (zero-width, bidi, controls, NUL, look-alikes)."""
    text = d.text(0, max_size)
    for _ in range(d.integer(0, 3)):
        text = insert(d, text, d.pick(NASTY))
    return text


def big_int(d: Draw) -> int:
    """An integer near ±2**31, ±2**53, ±2**63, ±2**64, ±2**128 or beyond."""
    value = d.pick(EDGES) + d.integer(-2, 2)
    return -value if flag(d) else value


def wide_int(d: Draw) -> int:
    """An integer outside the 64-bit range a message id may have."""
    value = big_int(d)
    return value if value not in INT64 else value + (2**64 if value >= 0 else -(2**64))


def junk(d: Draw, depth: int = 0) -> Any:
    """Any JSON value (no parse-level fault: no NaN, no lone surrogate, at most 3 levels deep)."""
    kind = d.integer(0, 9 if depth < 2 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return flag(d)
    if kind == 2:
        return d.integer(-5, 40)
    if kind == 3:
        return big_int(d)
    if kind == 4:
        return d.pick(FLOATS)
    if kind in (5, 6):
        return nasty_text(d, 12)
    if kind in (7, 8):
        return [junk(d, depth + 1) for _ in range(d.integer(0, 3))]
    return {nasty_text(d, 6): junk(d, depth + 1) for _ in range(d.integer(0, 3))}


def not_a_string(d: Draw) -> Any:
    value = junk(d)
    return value if not isinstance(value, str) else [value]


def bad_text(d: Draw) -> Any:
    """A chat text that ``inputs.clean_text`` refuses: nothing visible, a forbidden character, too long, not text."""
    kind = d.integer(0, 4)
    if kind == 0:  # nothing visible: spaces, zero-width and combining marks only
        return "".join(d.pick(INVISIBLE) for _ in range(d.integer(0, 12)))
    if kind in (1, 2):  # one character no text may hold, anywhere
        return insert(d, nasty_text(d, 60), d.pick(NEVER_IN_TEXT))
    if kind == 3:  # over 300 characters even after NFC (no combining marks to fold)
        return "v" + chars(d, d.pick(["ab c", "é中 😀", "xyz0"]), 301, 700) + "w"
    return not_a_string(d)


def bad_name(d: Draw) -> Any:
    """A player name that ``inputs.clean_name`` refuses."""
    kind = d.integer(0, 6)
    if kind == 0:  # nothing but whitespace
        return "".join(d.pick(SPACES) for _ in range(d.integer(0, 6)))
    if kind == 1:  # an invisible, control, bidi or unassigned character
        return insert(d, nasty_text(d, 20), d.pick(NEVER_IN_NAME))
    if kind == 2:  # over 32 characters
        return chars(d, "Ab9éß中", 33, 80)
    if kind == 3:  # no letter or digit
        return "".join(d.pick("!?.,-_*★☆♪@#~()[]") for _ in range(d.integer(1, 10)))
    if kind == 4:  # reads as a card
        return d.pick(["KS", "10h", "7H", "TS", "AS x", "Q♥", "♠ Ace", "S10", "JC", "8D"])
    if kind == 5:  # reads as a bot, the server or a removed player
        return d.pick(["bot", "BOT", "B0t", "ВОТ", "ｂｏｔ", "Server", "s.e.r.v.e.r", "Admin!", "Moderator", "U1ti",
                       "Deleted Player", "deleted_player", "Bot Random", "bot  heuristic", "System", "ＡＤＭＩＮ"])
    return not_a_string(d)


def bad_table_id(d: Draw) -> Any:
    """Something that is not a table id: empty, too long, a character outside [A-Za-z0-9_-], not a string."""
    kind = d.integer(0, 3)
    if kind == 0:
        return chars(d, ID_CHARS, 65, 120)
    if kind == 1:
        return ""
    if kind == 2:
        outsider = d.pick([" ", ".", "..", "%", "?", "#", "é", "٣", "Ａ", "\u200b", "\x00", "\n", "+", ":", "~", "*",
                           "'", '"', "<", "😀", "\u202e", "\ufffd", "\\", "ſ"])
        base = d.text(0, 20) if flag(d) else chars(d, ID_CHARS, 0, 63)
        return insert(d, base, outsider)
    return not_a_string(d)


def unknown_table_id(d: Draw) -> str:
    """A well-formed table id that no table has (64 bits of chance, or a number past 64 bits)."""
    if flag(d):
        return str(abs(big_int(d)))[:64]
    return chars(d, ID_CHARS, 1, 64)


# ---------------------------------------------------------------- JSON text and what the server makes of it


@dataclass
class Deep:
    """A value nested ``levels`` deep, spliced into the JSON text as it is (json.dumps would recurse)."""

    text: str
    levels: int


_SLOT = "\ue0ffdeep\ue0ff"


def deep_value(d: Draw, levels: int) -> Deep:
    """Arrays and objects nested ``levels`` deep (arrays only past a few hundred, to stay under the size limit)."""
    opens, closes = [], []
    for _ in range(levels):
        if levels <= 300 and d.integer(0, 3) == 0:
            opens.append('{"k":')
            closes.append("}")
        else:
            opens.append("[")
            closes.append("]")
    return Deep("".join(opens) + d.pick(["0", "[]", "{}", '"x"', "null"]) + "".join(reversed(closes)), levels)


def dump(value: Any, ensure_ascii: bool) -> str:
    """JSON text of ``value`` (Python's json: NaN and infinities as bare words, surrogates as escapes)."""
    pieces: list[str] = []

    def swap(item: Any) -> Any:
        if isinstance(item, Deep):
            pieces.append(item.text)
            return _SLOT
        if isinstance(item, dict):
            return {k: swap(v) for k, v in item.items()}
        if isinstance(item, list):
            return [swap(v) for v in item]
        return item

    text = json.dumps(swap(value), ensure_ascii=ensure_ascii)
    slot = json.dumps(_SLOT, ensure_ascii=ensure_ascii)
    for piece in pieces:
        text = text.replace(slot, piece, 1)
    return text


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def has_lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` holds a surrogate that is not half of a pair (json.dumps would pair them)."""
    for text in _strings(value):
        i = 0
        while i < len(text):
            code = ord(text[i])
            if 0xD800 <= code <= 0xDBFF and i + 1 < len(text) and 0xDC00 <= ord(text[i + 1]) <= 0xDFFF:
                i += 2
                continue
            if 0xD800 <= code <= 0xDFFF:
                return True
            i += 1
    return False


def has_non_finite(value: Any) -> bool:
    """Whether ``value`` holds NaN, an infinity or an integer no double can hold (no parser of ours takes them)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            float(value)
        except OverflowError:
            return True
        return False
    if isinstance(value, dict):
        return any(has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(has_non_finite(v) for v in value)
    return False


def text_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_faults(text: str, value: Any, limit: int) -> set[str] | None:
    """The codes of what stops ``text`` before any field is looked at: its size, then its parsing; None if nothing."""
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        return {"too_large"}
    faults = set()
    if has_lone_surrogate(value) or has_non_finite(value):
        faults.add("bad_json")
    if text_depth(text) > MAX_DEPTH:
        faults.add("too_deep")
    return faults or None


# ---------------------------------------------------------------- bad WebSocket messages


@dataclass
class Bad:
    """A bad message: the frame sent, the error codes that name its fault, and the id the error must echo."""

    frame: str | bytes
    codes: set[str]
    id: Any = None
    category: str = ""


@dataclass
class Msg:
    """A bad message before it is written: its JSON value, the codes of its fault and its id."""

    value: Any
    codes: set[str]
    id: Any = None


@dataclass
class WsCtx:
    """What a generator may know of the socket it writes for (never anything hypothesis would have to replay)."""

    fresh_id: Callable[[Draw], Any]  # a valid message id never used by this player
    #: the refusal of every act, chat or back with an id: ``no_table`` for a socket that watches no table
    table_codes: set[str] | None = None
    #: the refusal of every act whatever its content: not_seated (spectator), not_your_turn; None: it is parsed
    seat_codes: set[str] | None = None
    choices: dict[str, Any] | None = None  # the seat's choices when it is on turn
    hand: list[str] = field(default_factory=list)
    legal_action: dict[str, Any] | None = None  # a legal action now (wrapped in too many bytes it must be refused)
    foreign_action: dict[str, Any] | None = None  # a legal action of the seat on turn, with its seat
    chat_codes: set[str] = field(default_factory=lambda: {"chat_closed"})  # the refusal of a bad free chat text
    used_ids: Sequence[Any] = ()  # ids this player used recently (remembered by the server)
    watching: str | None = None  # the table this socket watches


def new_fresh_id(counter: Iterator[int]) -> Callable[[Draw], Any]:
    """Unique valid ids: the 64-bit edges, 64-character unicode strings, plain strings."""

    def fresh(d: Draw) -> Any:
        n = next(counter)
        kind = d.integer(0, 5)
        if kind == 0:
            return 2**63 - 1 - n  # the largest id a client may use
        if kind == 1:
            return -(2**63) + n
        if kind == 2:
            return (f"{n}·" + nasty_text(d, 60))[:64]
        if kind == 3:
            return (f"{n}·" + "𝕏" * 64)[:64]
        return f"h{n}"

    return fresh


def copied(value: Any) -> Any:
    """A copy of a value the context holds: the generators change what they are given in place."""
    return json.loads(json.dumps(value))


def act_codes(ctx: WsCtx, parsed: set[str]) -> set[str]:
    """What an act with a fresh id is refused with: ``parsed`` if its content is looked at."""
    return ctx.table_codes or ctx.seat_codes or parsed


def act(ctx: WsCtx, d: Draw, action: Any, parsed: set[str]) -> Msg:
    cid = ctx.fresh_id(d)
    return Msg({"type": "act", "id": cid, "action": action}, act_codes(ctx, parsed), cid)


def msg_unknown_type(d: Draw, ctx: WsCtx) -> Msg:
    kind = d.integer(0, 3)
    if kind == 0:
        value: Any = d.pick(["PING", "ping ", " ping", "pin\u200bg", "ｐｉｎｇ", "ping\x00", "Act", "act\u202e",
                             "chat\n", "open-table", "open_table\t", "lobbyChat", "ѕhat", "watch_lobby\u034f", ""])
    elif kind == 1:
        value = nasty_text(d, 30)
    else:
        value = not_a_string(d)
    if isinstance(value, str) and value in KNOWN_TYPES:
        d.reject()
    cid = ctx.fresh_id(d) if flag(d) else None
    message: dict[str, Any] = {"type": value}
    if cid is not None:
        message["id"] = cid
    if d.integer(0, 5) == 0:
        message.pop("type")
    if not isinstance(message.get("type"), str):  # no type, or one that is not a string: not a message
        return Msg(message, {"bad_message"}, cid)
    return Msg(message, {"unknown_type"}, cid)


def msg_bad_id(d: Draw, ctx: WsCtx) -> Msg:
    kind = d.integer(0, 5)
    if kind == 0:
        client_id: Any = d.text(65, 90)
    elif kind == 1:
        client_id = wide_int(d)
    elif kind == 2:
        client_id = d.pick([*FLOATS, True, False])
    elif kind == 3:
        client_id = [junk(d)]
    elif kind == 4:
        client_id = {nasty_text(d, 5): junk(d)}
    else:
        client_id = chars(d, ["x", "é", "😀", "\u200b", "\x00"], 65, 70)
    message = {"type": d.pick(["ping", "act", "chat", "lobby_chat", "open_table", "watch_lobby", "back"]),
               "id": client_id, "phrase": "hello", "text": "hi", "table": ctx.watching or "x", "action": {}}
    return Msg(message, {"bad_message"})


def msg_no_id(d: Draw, ctx: WsCtx) -> Msg:
    message: dict[str, Any] = {"type": d.pick(["act", "chat", "back"]), "action": {"action": "pass"},
                               "phrase": "hello"}
    if flag(d):
        message["id"] = None
    return Msg(message, {"bad_message"})


def msg_unknown_card(d: Draw, ctx: WsCtx) -> Msg:
    kind = d.integer(0, 4)
    if kind == 0:
        card: Any = d.pick(["ZZ", "1S", "AX", "10S", "A S", "AS\x00", "A\u200bS", "ＡＳ", "7♠", "🂡", "", "AS ", "X"])
    elif kind == 1:
        card = nasty_text(d, 6)
    elif kind == 2:
        card = big_int(d)
    else:
        card = not_a_string(d)
    if isinstance(card, str) and card.upper() in CARDS:  # "as", "7ſ" (a long s is an s) are cards
        d.reject()
    return act(ctx, d, {"action": "play", "card": card}, {"bad_action", "chain_open"})


def msg_wrong_kind(d: Draw, ctx: WsCtx) -> Msg:
    kind = d.integer(0, 2)
    if kind == 0:
        name: Any = d.pick(["PLAY", "Play", "pass\u200b", "ｐａｓｓ", "give-up", "play ", "bid\x00", "kontra\u202e",
                            "plaу", "", "trumps"])
    elif kind == 1:
        name = nasty_text(d, 12)
    else:
        name = not_a_string(d)
    if name in KINDS:
        d.reject()
    action = {"action": name, "card": "AS", "bid": "P-P", "suit": "H"}
    if d.integer(0, 3) == 0:
        action.pop("action")
    return act(ctx, d, action, {"bad_action"})


def msg_bad_action_field(d: Draw, ctx: WsCtx) -> Msg:
    """A bid, trump, kontra or discard whose fields do not parse (never a legal action, whatever the state)."""
    kind = d.integer(0, 4)
    if kind == 0:
        code = d.pick([nasty_text(d, 8), big_int(d), not_a_string(d), "M-Ş", "P-P ", "P_P"])
        if isinstance(code, str) and code.upper() in BID_CODES:
            d.reject()
        action: dict[str, Any] = {"action": "bid", "bid": code}
    elif kind == 1:
        suit = d.pick([nasty_text(d, 3), big_int(d), not_a_string(d), "X", "SS", "♠", "hearts", "Ｈ"])
        if isinstance(suit, str) and len(suit) == 1 and suit.upper() in "CSDH":
            d.reject()
        action = {"action": "trump", "suit": suit}
    elif kind == 2:
        parts = d.pick([nasty_text(d, 10), big_int(d), {"simple": True}, "simple"]) if flag(d) else [
            *d.pick([[], ["simple"], ["ulti"]]), d.pick([nasty_text(d, 8), big_int(d), None, "SIMPLE ", "ulti\u200b"])]
        if isinstance(parts, list) and any(isinstance(p, str) and p.lower() in PARTS for p in parts[-1:]):
            d.reject()
        action = {"action": "kontra", "parts": parts}
    else:
        count = d.pick([0, 1, 3, 4])
        discard: Any = [d.pick(CARDS) for _ in range(count)]
        if flag(d):  # two cards, one not a card
            discard = [d.pick(CARDS), d.pick([nasty_text(d, 4), big_int(d), None, "ZZ", ["AS"]])]
            if isinstance(discard[1], str) and discard[1].upper() in CARDS:
                d.reject()
        elif flag(d):
            discard = d.pick(["AS KS", big_int(d), {"AS": 1}])
        action = {"action": "bid", "bid": d.pick(BID_CODES), "discard": discard}
    return act(ctx, d, action, {"bad_action"})


def msg_not_an_action(d: Draw, ctx: WsCtx) -> Msg:
    cid = ctx.fresh_id(d)
    message: dict[str, Any] = {"type": "act", "id": cid}
    if flag(d):
        message["action"] = d.pick([not_a_string(d), "play AS", big_int(d), nasty_text(d)])
        if isinstance(message["action"], dict):
            message["action"] = [message["action"]]
    return Msg(message, {"bad_message"}, cid)  # the message's own shape: refused before any table is asked


def msg_big_numbers(d: Draw, ctx: WsCtx) -> Msg:
    """An integer past 64 bits (or at its edge) in every numeric field: id, seat, cards, bids, parts, table..."""
    where = d.pick(["id", "seat", "card", "bid", "suit", "parts", "discard", "action", "type", "table", "phrase",
                    "lobby_text", "chat_text"])
    number = big_int(d)
    if where == "id":
        return Msg({"type": d.pick(["ping", "act", "chat"]), "id": wide_int(d), "phrase": "hello"}, {"bad_message"})
    if where == "seat":  # the seat of an action is the sender's own, whatever it says; the card is wrong too
        return act(ctx, d, {"action": "play", "card": d.pick(["ZZ", number]), "seat": number},
                   {"bad_action", "chain_open"})
    if where in ("card", "bid", "suit"):
        kind = {"card": "play", "bid": "bid", "suit": "trump"}[where]
        return act(ctx, d, {"action": kind, where: number}, {"bad_action", "chain_open"} if kind == "play"
                   else {"bad_action"})
    if where == "parts":
        return act(ctx, d, {"action": "kontra", "parts": [number]}, {"bad_action"})
    if where == "discard":
        return act(ctx, d, {"action": "bid", "bid": d.pick(BID_CODES), "discard": [number, d.pick(CARDS)]},
                   {"bad_action"})
    cid = ctx.fresh_id(d)
    if where == "action":
        return Msg({"type": "act", "id": cid, "action": number}, {"bad_message"}, cid)
    if where == "type":
        return Msg({"type": number, "id": cid}, {"bad_message"}, cid)
    if where == "table":
        return Msg({"type": "open_table", "id": cid, "table": number}, {"bad_id"}, cid)
    # a text or phrase that is not a string is refused with the message's shape, before any table is asked
    if where == "phrase":
        return Msg({"type": "chat", "id": cid, "phrase": number}, {"bad_chat"}, cid)
    if where == "lobby_text":
        return Msg({"type": "lobby_chat", "id": cid, "text": number}, {"bad_chat"}, cid)
    return Msg({"type": "chat", "id": cid, "text": number}, {"bad_chat"}, cid)


def illegal_actions(choices: dict[str, Any], hand: list[str]) -> list[dict[str, Any]]:
    """Actions the seat with ``choices`` certainly may not take now."""
    out: list[dict[str, Any]] = [{"action": "play", "card": c} for c in CARDS if c not in choices["cards"]]
    if not choices["may_pass"]:
        out.append({"action": "pass"})
    if not choices["may_take"]:
        out.append({"action": "take"})
    if not choices["may_give_up"]:
        out.append({"action": "give_up"})
    out += [{"action": "bid", "bid": b} for b in BID_CODES if b not in choices["bids"]]
    for b in choices["bids"]:
        if choices["must_discard"]:
            out.append({"action": "bid", "bid": b})  # no discard
            out += [{"action": "bid", "bid": b, "discard": [c, c]} for c in hand]  # the same card twice
        else:
            out += [{"action": "bid", "bid": b, "discard": hand[:2]}]  # a discard without the talon
    out += [{"action": "trump", "suit": s} for s in "CSDH" if s not in choices["trumps"]]
    allowed = choices["kontra"]["parts"] if choices["kontra"] else []
    out += [{"action": "kontra", "parts": [p]} for p in PARTS if p not in allowed]
    return out


def msg_illegal(d: Draw, ctx: WsCtx) -> Msg:
    assert ctx.choices is not None and ctx.seat_codes is None
    options = illegal_actions(ctx.choices, ctx.hand)
    return act(ctx, d, options[index(d, len(options))], {"illegal", "chain_open"})


def msg_other_seat(d: Draw, ctx: WsCtx) -> Msg:
    assert ctx.foreign_action is not None
    return act(ctx, d, copied(ctx.foreign_action), {"not_your_turn"})


def msg_replayed_id(d: Draw, ctx: WsCtx) -> Msg:
    client_id = ctx.used_ids[index(d, len(ctx.used_ids))]
    if flag(d) and ctx.legal_action is not None:
        message = {"type": "act", "id": client_id, "action": copied(ctx.legal_action)}  # legal, but replayed
    else:
        message = {"type": "chat", "id": client_id, "phrase": d.pick(sorted(PRESET_PHRASES))}
    return Msg(message, ctx.table_codes or {"duplicate_id"}, client_id)


def msg_chat_text(d: Draw, ctx: WsCtx) -> Msg:
    cid = ctx.fresh_id(d)
    text = bad_text(d)
    # a null text is no text: the table then says whether one was needed
    codes = (ctx.table_codes or ctx.chat_codes) if isinstance(text, str | None) else {"bad_chat"}
    return Msg({"type": "chat", "id": cid, "text": text}, codes, cid)


def msg_bad_phrase(d: Draw, ctx: WsCtx) -> Msg:
    phrase = d.pick([nasty_text(d, 20), big_int(d), not_a_string(d), "Hello", "hello ", "HELLO", "hello\u200b",
                     "ｈｅｌｌｏ", "good luck", "good-luck", "hello\x00", "Hello!", ""])
    if phrase is None or (isinstance(phrase, str) and phrase in PRESET_PHRASES):
        d.reject()
    cid = ctx.fresh_id(d)
    message = {"type": "chat", "id": cid, "phrase": phrase}
    if flag(d):
        message["text"] = nasty_text(d)
    return Msg(message, (ctx.table_codes or {"bad_chat"}) if isinstance(phrase, str) else {"bad_chat"}, cid)


def msg_lobby_chat(d: Draw, ctx: WsCtx) -> Msg:
    cid = ctx.fresh_id(d)
    return Msg({"type": "lobby_chat", "id": cid, "text": bad_text(d)}, {"bad_chat"}, cid)


def msg_open_unknown(d: Draw, ctx: WsCtx) -> Msg:
    cid = ctx.fresh_id(d)
    if flag(d):
        table = unknown_table_id(d)
        if table == ctx.watching:
            d.reject()
        return Msg({"type": "open_table", "id": cid, "table": table}, {"not_found"}, cid)
    message: dict[str, Any] = {"type": "open_table", "id": cid, "table": bad_table_id(d)}
    if d.integer(0, 5) == 0:
        message.pop("table")
    return Msg(message, {"bad_id"}, cid)


#: the fields of each message type (docs/protocol/messages.md §6): any other is refused
FIELDS = {"ping": {"type", "id"}, "watch_lobby": {"type", "id"}, "lobby_chat": {"type", "id", "text"},
          "open_table": {"type", "id", "table"}, "act": {"type", "id", "action"},
          "chat": {"type", "id", "text", "phrase"}, "back": {"type", "id"}}


def msg_unknown_field(d: Draw, ctx: WsCtx) -> Msg:
    """A message that would be accepted (even a legal action or a preset phrase), but for one field too many."""
    kind = d.pick(sorted(FIELDS))
    cid = ctx.fresh_id(d)
    message: dict[str, Any] = {"type": kind, "id": cid}
    if kind == "lobby_chat":
        message["text"] = "hello there"
    elif kind == "open_table":
        message["table"] = ctx.watching or unknown_table_id(d)
    elif kind == "act":
        message["action"] = copied(ctx.legal_action) if ctx.legal_action is not None else {"action": "pass"}
    elif kind == "chat":
        message["phrase"] = d.pick(sorted(PRESET_PHRASES))
    key = d.pick(["Type", "ID", "seat", "card", "text", "table", "phrase", "action", "type ", "id​", "",
                  nasty_text(d, 10)])
    if key in FIELDS[kind]:
        d.reject()
    message[key] = junk(d)
    return Msg(message, {"bad_message"}, cid)


def msg_not_object(d: Draw, ctx: WsCtx) -> Msg:
    value = d.pick([junk(d), nasty_text(d, 40), big_int(d), [{"type": "ping"}], "ping", None, 0])
    if isinstance(value, dict):
        value = [value]
    return Msg(value, {"bad_message"})


#: messages whose fault is in a field (the parse succeeds), and when they apply
FIELD_FAULTS: dict[str, Callable[[Draw, WsCtx], Msg]] = {
    "unknown_type": msg_unknown_type,
    "bad_id": msg_bad_id,
    "no_id": msg_no_id,
    "unknown_card": msg_unknown_card,
    "wrong_kind": msg_wrong_kind,
    "bad_action_field": msg_bad_action_field,
    "not_an_action": msg_not_an_action,
    "big_numbers": msg_big_numbers,
    "illegal": msg_illegal,
    "other_seat": msg_other_seat,
    "replayed_id": msg_replayed_id,
    "chat_text": msg_chat_text,
    "bad_phrase": msg_bad_phrase,
    "lobby_chat": msg_lobby_chat,
    "open_unknown": msg_open_unknown,
    "unknown_field": msg_unknown_field,
    "not_object": msg_not_object,
}


def applicable(category: str, ctx: WsCtx) -> bool:
    """Whether ``category`` can be made for the socket ``ctx`` describes."""
    if category == "illegal":
        return ctx.choices is not None and ctx.seat_codes is None and ctx.table_codes is None
    if category == "other_seat":
        return ctx.foreign_action is not None and ctx.table_codes is None
    if category == "replayed_id":
        return bool(ctx.used_ids)
    return True


def field_fault(d: Draw, ctx: WsCtx) -> Msg:
    """A message with a fault in a field, of any category that applies."""
    names = [name for name in FIELD_FAULTS if applicable(name, ctx)]
    return FIELD_FAULTS[names[index(d, len(names))]](d, ctx)


def write(d: Draw, msg: Msg, category: str, ensure_ascii: bool | None = None) -> Bad:
    """The frame of ``msg``, and what it must be refused with."""
    value = msg.value
    if ensure_ascii is None:
        ensure_ascii = has_lone_surrogate(value) or flag(d)  # a lone surrogate can only travel as an escape
    frame = dump(value, ensure_ascii)
    faults = parse_faults(frame, value, MAX_MESSAGE)
    if faults is not None:
        return Bad(frame, faults, None, category)
    return Bad(frame, msg.codes, msg.id, category)


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of ``value`` holding a value, for a fault to be put in."""
    out: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((value, k))
            out += _slots(v)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((value, i))
            out += _slots(v)
    return out


def put_somewhere(d: Draw, msg: Msg, item: Any) -> None:
    """Put ``item`` in place of one of ``msg``'s values, or in a new field."""
    slots = _slots(msg.value)
    if slots and flag(d):
        container, key = slots[index(d, len(slots))]
        container[key] = item
    elif isinstance(msg.value, dict):
        msg.value[d.pick(["pad", "x", "\u200b", "action", "text"])] = item
    else:
        msg.value = [msg.value, item]


def bad_surrogate(d: Draw, ctx: WsCtx) -> Bad:
    """A lone UTF-16 surrogate, written as a JSON escape, in a key or a value of any message."""
    if d.integer(0, 5) == 0:
        return write(d, Msg("hi " + d.pick(SURROGATES), {"bad_message"}), "surrogate", True)
    msg = field_fault(d, ctx)
    lone = d.pick(SURROGATES)
    strings = [(c, k) for c, k in _slots(msg.value) if isinstance(c[k], str)]
    keys = [(c, k) for c, k in _slots(msg.value) if isinstance(c, dict)]
    choice = d.integer(0, 2)
    if choice == 0 and strings:
        container, key = strings[index(d, len(strings))]
        container[key] = insert(d, container[key], lone)
    elif choice == 1 and keys:
        container, key = keys[index(d, len(keys))]
        container[insert(d, key, lone)] = container.pop(key)
    else:
        put_somewhere(d, msg, insert(d, nasty_text(d, 10), lone))
    return write(d, msg, "surrogate", True)


def bad_non_finite(d: Draw, ctx: WsCtx) -> Bad:
    """NaN, an infinity or an integer past what a double holds, in place of any value."""
    msg = field_fault(d, ctx)
    number = d.pick(NON_FINITE) if flag(d) else d.pick(HUGE) * d.pick([1, -1])
    put_somewhere(d, msg, number)
    return write(d, msg, "non_finite")


def bad_deep(d: Draw, ctx: WsCtx) -> Bad:
    """Arrays and objects nested from 17 to a few thousand levels, as the message or in any of its values."""
    levels = d.pick([17, 18, 32, 100, 500, 1000, 1023, 1024, 1025, 1500, 2000, 2030])
    if flag(d):
        return write(d, Msg(deep_value(d, levels), {"too_deep"}), "deep")
    msg = field_fault(d, ctx)
    put_somewhere(d, msg, deep_value(d, min(levels, 1500)))
    return write(d, msg, "deep")


def roomy(d: Draw, ctx: WsCtx) -> tuple[Msg, dict[str, Any], int]:
    """A message whose fault is its type, or its action's card, with room for a pad that changes nothing:
    an unknown type is refused whatever the message holds, and an action may hold fields it does not use.
    Returns the message, the object the pad goes in and that object's level (the message is level 1)."""
    if flag(d):
        cid = ctx.fresh_id(d) if flag(d) else None
        value: dict[str, Any] = {"type": d.pick(["x", "pong", "PING", "ａｃｔ", "act\u200b"])}
        if cid is not None:
            value["id"] = cid
        return Msg(value, {"unknown_type"}, cid), value, 1
    action = {"action": "play", "card": d.pick(["ZZ", "1S", "ＡＳ"])}
    return act(ctx, d, action, {"bad_action", "chain_open"}), action, 2


def bad_depth_edge(d: Draw, ctx: WsCtx) -> Bad:
    """A message exactly 16 levels deep (allowed: its other fault is named) or 17 (too deep)."""
    msg, holder, level = roomy(d, ctx)
    holder["pad"] = deep_value(d, d.pick([MAX_DEPTH, MAX_DEPTH + 1]) - level)
    return write(d, msg, "depth_edge")


def bad_too_large(d: Draw, ctx: WsCtx) -> Bad:
    """Any message, even a legal action, padded past 4096 bytes (often with few characters of many bytes)."""
    if ctx.legal_action is not None and flag(d):
        msg = Msg({"type": "act", "id": ctx.fresh_id(d), "action": copied(ctx.legal_action)}, set())
    else:
        msg = field_fault(d, ctx)
    if not isinstance(msg.value, dict):
        msg.value = {"v": msg.value}
    size = d.pick([MAX_MESSAGE + 1, MAX_MESSAGE + 2, MAX_MESSAGE + 100]) if flag(d) else d.integer(
        MAX_MESSAGE + 1, MAX_FRAME - 1000)
    return pad_to(d, msg, msg.value, size, "too_large")


def bad_just_fits(d: Draw, ctx: WsCtx) -> Bad:
    """A message of exactly 4096 bytes (its other fault is named) or 4097 (too large), counted in UTF-8 bytes."""
    msg, holder, _ = roomy(d, ctx)
    return pad_to(d, msg, holder, d.pick([MAX_MESSAGE, MAX_MESSAGE + 1]), "just_fits")


def pad_to(d: Draw, msg: Msg, holder: dict[str, Any], size: int, category: str) -> Bad:
    """``msg`` written (raw UTF-8) with a pad field in ``holder`` that makes it exactly ``size`` bytes."""
    ensure_ascii = has_lone_surrogate(msg.value)
    holder["pad"] = ""
    need = size - len(dump(msg.value, ensure_ascii).encode("utf-8", "surrogatepass"))
    if need < 0:
        d.reject()
    wide = d.pick(["😀", "中", "é", "x"]) if not ensure_ascii else "x"
    width = len(wide.encode())
    holder["pad"] = wide * (need // width) + "x" * (need % width)
    bad = write(d, msg, category, ensure_ascii)
    assert isinstance(bad.frame, str) and len(bad.frame.encode("utf-8", "surrogatepass")) == size, size
    return bad


def bad_binary(d: Draw, ctx: WsCtx) -> Bad:
    kind = d.integer(0, 3)
    if kind == 0:
        frame = d.text(0, 100).encode()
    elif kind == 1:
        frame = json.dumps({"type": "ping", "id": ctx.fresh_id(d)}).encode()  # a good message, but binary
    elif kind == 2:
        frame = bytes(d.integer(0, 255) for _ in range(d.integer(0, 40)))
    else:
        frame = b"\xff" * d.integer(MAX_MESSAGE, MAX_MESSAGE + 2000)
    return Bad(frame, {"bad_message"}, None, "binary")


def bad_not_json(d: Draw, ctx: WsCtx) -> Bad:
    kind = d.integer(0, 4)
    if kind == 0:
        text = d.text(0, 200)
    elif kind == 1:  # a good message cut short, or with something after it
        good = json.dumps({"type": "ping", "id": ctx.fresh_id(d)}, ensure_ascii=flag(d))
        text = good[: index(d, len(good))] if flag(d) else good + d.pick([" x", ",", "}", "{}", "\x00"])
    elif kind == 2:
        text = d.pick(["{'type': 'ping'}", '{"type": "ping",}', "{type: ping}", '{"type": "ping"} // hi',
                       "\ufeff{}", '{"a": 01}', '{"a": .5}', '{"a": +1}', '{"a": 0x10}', '["\x01"]', "", " ",
                       '{"type": "chat", "text": "\t"}', "[" * 20, "{" * 20, '"\\x41"', '"\\u12"'])
    elif kind == 3:
        text = d.pick(["NaN", "Infinity", "-Infinity", "[NaN]", '{"id": Infinity}', "1e400", "-1e999",
                       "1" + "0" * 400])
    else:
        text = "".join(d.pick(["[", "]", "{", "}", '"', ":", ",", "1", "\\", "null", " "]) for _ in range(
            d.integer(1, 40)))
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Bad(text, {"bad_json"}, None, "not_json")
    if isinstance(value, dict):
        d.reject()
    return Bad(text, parse_faults(text, value, MAX_MESSAGE) or {"bad_message"}, None, "not_json")


WRAPPED_FAULTS: dict[str, Callable[[Draw, WsCtx], Bad]] = {
    "surrogate": bad_surrogate,
    "non_finite": bad_non_finite,
    "deep": bad_deep,
    "depth_edge": bad_depth_edge,
    "too_large": bad_too_large,
    "just_fits": bad_just_fits,
    "binary": bad_binary,
    "not_json": bad_not_json,
}
CATEGORIES = [*FIELD_FAULTS, *WRAPPED_FAULTS]


def bad_message(d: Draw, category: str, ctx: WsCtx) -> Bad:
    """A bad message of ``category`` for the socket ``ctx`` describes, with the codes that name its fault."""
    if category in WRAPPED_FAULTS:
        return WRAPPED_FAULTS[category](d, ctx)
    return write(d, FIELD_FAULTS[category](d, ctx), category)


def check_error(bad: Bad, error: dict[str, Any]) -> None:
    """``error`` names ``bad``'s fault, in words a person can read, with its id."""
    assert error["type"] == "error", (bad, error)
    assert error["code"] in bad.codes, (bad, error)
    assert isinstance(error["message"], str) and error["message"].strip(), error
    words = WORDS.get(error["code"], ("",))
    assert any(w.lower() in error["message"].lower() for w in words), (bad, error)
    assert error["id"] == bad.id, (bad, error)


# ---------------------------------------------------------------- bad HTTP requests


@dataclass
class HttpCtx:
    """A server, a started table (or another existing one) and the token of its seated host."""

    host: str  # what the Host header says: 127.0.0.1:PORT
    table_ids: list[str]
    token: str


@dataclass
class HttpBad:
    """A bad request as bytes on the wire, and the error codes that name its fault."""

    method: str
    path: bytes
    codes: set[str]
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes | None = None  # None: no body and no content-length
    chunked: bool = False
    length: int | None = None  # a content-length other than the body's own (a lie)
    fault: str = ""

    def wire(self, host: str) -> bytes:
        lines = [f"{self.method} ".encode() + self.path + b" HTTP/1.1", b"host: " + host.encode(),
                 b"connection: close", *(k + b": " + v for k, v in self.headers)]
        body = self.body or b""
        if self.chunked:
            lines.append(b"transfer-encoding: chunked")
            chunks = [body[i:i + 4000] for i in range(0, len(body), 4000)]
            body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
        elif self.length is not None:
            lines.append(b"content-length: %d" % self.length)
        elif self.body is not None:
            lines.append(b"content-length: %d" % len(body))
        return b"\r\n".join(lines) + b"\r\n\r\n" + body


@dataclass
class Route:
    name: str
    method: str
    path: str
    auth: bool
    body: str | None  # what the route reads from its body (None: it reads none)


ROUTES = [
    Route("session", "POST", "/api/session", False, "session"),
    Route("me", "GET", "/api/me", True, None),
    Route("matches", "GET", "/api/me/matches", True, None),
    Route("tables", "GET", "/api/tables", False, None),
    Route("create", "POST", "/api/tables", True, "create"),
    Route("table", "GET", "/api/tables/{id}", True, None),
    Route("join", "POST", "/api/tables/{id}/join", True, "join"),
    Route("leave", "POST", "/api/tables/{id}/leave", True, None),
    Route("bot", "POST", "/api/tables/{id}/bot", True, "bot"),
    Route("start", "POST", "/api/tables/{id}/start", True, "start"),
    Route("record", "GET", "/api/tables/{id}/record", False, None),
    Route("deal", "GET", "/api/tables/{id}/deals/{index}/record", False, None),
    Route("bids", "GET", "/api/bids", False, None),
]
POSTS = [r for r in ROUTES if r.method == "POST"]
READERS = [r for r in ROUTES if r.body is not None]
AUTHED = [r for r in ROUTES if r.auth]
WITH_ID = [r for r in ROUTES if "{id}" in r.path]
#: what a route's body holds when the fault is elsewhere: refused as well if the fault were missed, never a change
CARRIER = {"session": {"name": ""}, "create": {"deals": 7}, "join": {"seat": 1}, "bot": {"seat": 1, "level": "random"},
           "start": {}, None: {}}
JSON = (b"content-type", b"application/json")
BAD_CONTENT_TYPES = [b"text/plain", b"text/plain; charset=utf-8", b"application/x-www-form-urlencoded",
                     b"multipart/form-data; boundary=x", b"application/jsonp", b"text/json", b"application/json5",
                     b"application/problem+json", b"json", b"*/*", b"application/", b"application\\json",
                     b"applicati\xf3n/json", b"application/json-patch+json", b""]
INVALID_UTF8 = [b"%ff", b"%fe%ff", b"%c0%af", b"%ed%a0%80", b"%e2%82", b"%80", b"%f4%90%80%80", b"%c3"]


def route_path(route: Route, table_id: str | bytes, deal_index: str | bytes = b"0") -> bytes:
    ident = table_id.encode() if isinstance(table_id, str) else table_id
    number = deal_index.encode() if isinstance(deal_index, str) else deal_index
    return route.path.encode().replace(b"{id}", ident).replace(b"{index}", number)


def bearer(ctx: HttpCtx) -> tuple[bytes, bytes]:
    return b"authorization", b"Bearer " + ctx.token.encode()


def good_request(d: Draw, ctx: HttpCtx, route: Route, fault: str) -> HttpBad:
    """The request ``route`` as a client should send it (the fault is then put in by the caller)."""
    headers = [bearer(ctx)] if route.auth else []
    body = None
    if route.method == "POST":
        headers.append(JSON)
        body = json.dumps(CARRIER[route.body]).encode()
    table_id = ctx.table_ids[index(d, len(ctx.table_ids))]
    return HttpBad(route.method, route_path(route, table_id), set(), headers, body, fault=fault)


def http_body(d: Draw, limit: int = MAX_BODY) -> tuple[bytes, set[str]]:
    """A request body that is not a JSON object, and the codes that name its fault."""
    kind = d.integer(0, 7)
    if kind == 0:
        text = d.text(0, 200)
    elif kind == 1:  # a lone surrogate in a key or a value
        lone = d.pick(SURROGATES)
        text = json.dumps(d.pick([{"name": insert(d, "Ann", lone)}, {insert(d, "seat", lone): 1},
                                  {"seat": 1, "x": [lone]}]))
    elif kind == 2:
        text = d.pick(['{"seat": NaN}', '{"seat": Infinity}', '{"deals": -Infinity}', '{"seat": 1e400}',
                       '{"seed": ' + str(d.pick(HUGE)) + "}", "NaN"])
    elif kind == 3:  # not UTF-8 at all
        raw = b'{"name": "' + d.pick([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80"]) + b'"}'
        return raw, {"bad_json"}
    elif kind == 4:  # too deep for the server; Python's own parser would recurse, so no oracle is asked
        levels = d.pick([MAX_DEPTH + 1, 100, 1024, 1025, 4000, 8000])
        text = deep_value(d, levels).text
        if flag(d):
            text = '{"seat": ' + text + "}"
        return text.encode(), {"too_deep"}
    elif kind == 5:  # JSON, but not an object
        text = json.dumps(d.pick([junk(d), [{"seat": 1}], "seat", 1, None]))
    elif kind == 6:
        text = d.pick(["", " ", "\ufeff{}", "{", '{"seat": 1', "{'seat': 1}", '{"seat": 1,}', "\x00"])
    else:
        text = "".join(d.pick(["[", "]", "{", "}", '"', ":", ",", "1", "\\", "null", " "]) for _ in range(
            d.integer(1, 40)))
    raw = text.encode("utf-8", "surrogatepass")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return raw, {"bad_json"} if len(raw) <= limit else {"too_large"}
    if isinstance(value, dict) and not (has_lone_surrogate(value) or has_non_finite(value)) and text_depth(
            text) <= MAX_DEPTH:
        d.reject()
    return raw, parse_faults(text, value, limit) or {"bad_request"}


def bad_seat(d: Draw) -> Any:
    return d.pick([big_int(d), -1, 3, 1.0, "1", True, None, [], nasty_text(d, 4), {"seat": 1}, 2**63, 2**64])


def bad_fields(d: Draw, route: Route) -> tuple[dict[str, Any], set[str]]:
    """A JSON object for ``route`` with one field that can never be accepted."""
    if route.body == "session":
        body = {"name": bad_name(d)}
        if d.integer(0, 7) == 0:
            body.pop("name")
        return body, {"bad_name"}
    if route.body == "join":
        body = {"seat": bad_seat(d), "invite": junk(d)}
        if d.integer(0, 7) == 0:
            body.pop("seat")
        return body, {"bad_request"}
    if route.body == "bot":
        if flag(d):
            return {"seat": bad_seat(d), "level": "random"}, {"bad_request"}
        level: object = d.pick(
            [nasty_text(d, 10), big_int(d), None, "Random", "strong ", "heuristic\u200b", "impossible"]
        )
        if level in BOT_LEVELS:
            level = [level]
        return {"seat": d.integer(0, 2), "level": level}, {"bad_request"}
    assert route.body == "create"
    config: dict[str, Any] = {"deals": 6, "move_seconds": 0, "seats": [{"kind": "me"}, {"kind": "open"},
                                                                      {"kind": "open"}]}
    where = d.pick(["deals", "move_seconds", "seats", "kind", "level", "two_me", "seed", "no_deals"])
    if where == "deals":
        config["deals"] = d.pick([big_int(d), 0, 7, 6.0, "6", True, None, [6], nasty_text(d, 3), 2**64 + 6])
    elif where == "move_seconds":
        config["move_seconds"] = d.pick([big_int(d), -1, 601, 1.5, "0", True, None, 2**63])
    elif where == "seats":
        config["seats"] = d.pick([junk(d), [{"kind": "me"}] * d.pick([0, 1, 2, 4, 5]), "me,open,open"])
        if isinstance(config["seats"], list) and len(config["seats"]) == 3:
            config["seats"] = config["seats"][:2]
    elif where == "kind":
        kind: object = d.pick([nasty_text(d, 8), big_int(d), None, "ME", "bot ", "human", "open\u200b"])
        if kind in ("open", "invite", "bot", "me"):
            kind = [kind]
        config["seats"][index(d, 3)] = d.pick([{"kind": kind}, kind])
    elif where == "level":
        level = d.pick([nasty_text(d, 8), big_int(d), None, "Strong", "random\x00", "expert"])
        if level in BOT_LEVELS:
            level = [level]
        config["seats"][2] = {"kind": "bot", "level": level}
    elif where == "two_me":
        config["seats"][1] = {"kind": "me"}
    elif where == "seed":  # a table's seed is an integer from 0 to 2**48 - 1 (a test server lets one be chosen)
        config["seed"] = d.pick([2**48, 2**63, 2**64, -1, 1.5, "1", True, [1], big_int(d) + 2**100, -(2**63)])
    else:
        config.pop("deals")
    return config, {"bad_config"}


def is_id(text: str) -> bool:
    return 1 <= len(text) <= 64 and all(c in ID_CHARS for c in text)


def percent(text: str) -> bytes:
    return urllib.parse.quote(text, safe="").encode()


def http_fault_oversize(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(ROUTES)
    request = good_request(d, ctx, route, "oversize")
    size = d.integer(MAX_BODY + 1, 60_000)
    request.body = (b'{"pad": "' + "é".encode() * (size // 2) + b'"}')[:size]
    mode = d.integer(0, 2)
    if mode == 1:  # a declared length over the limit is refused before a byte of the body is read
        request.length = d.pick([MAX_BODY + 1, size, 10**9, 10**12])
        request.body = request.body[: d.integer(0, 100)]
    elif mode == 2 and route.body is not None:  # no length declared: refused once the bytes read pass the limit
        request.chunked = True
    request.codes = {"too_large"}
    return request


def http_fault_content_type(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(POSTS)
    request = good_request(d, ctx, route, "content_type")
    request.headers = [h for h in request.headers if h[0] != b"content-type"]
    if d.integer(0, 4):
        request.headers.append((b"content-type", d.pick(BAD_CONTENT_TYPES)))
    if flag(d):
        request.body = nasty_text(d, 100).encode() or b"x"
    request.codes = {"bad_content_type"}
    return request


def http_fault_origin(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(POSTS)
    request = good_request(d, ctx, route, "origin")
    request.headers = [h for h in request.headers if h[0] != b"authorization"]
    token = ctx.token.encode() if flag(d) else b"x"
    request.headers.append((b"cookie", b"ulti_session=" + token))
    port = int(ctx.host.rsplit(":", 1)[1])
    origin = d.pick([b"http://evil.example", b"null", b"", f"http://127.0.0.1:{port + 1}".encode(),
                     f"http://{ctx.host}.evil.example".encode(), f"http://localhost:{port}".encode(),
                     f"http://evil.example/{ctx.host}".encode(), f"http://user@{ctx.host}".encode(),
                     "http://\xe9vil.example".encode("latin-1"), None])
    if origin is not None:
        request.headers.append((b"origin", origin))
    if flag(d):
        request.body = None
    request.codes = {"bad_origin"}
    return request


def http_fault_body(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(READERS)
    request = good_request(d, ctx, route, "body")
    request.body, request.codes = http_body(d)
    return request


def http_fault_fields(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick([r for r in READERS if r.body != "start"])
    request = good_request(d, ctx, route, "fields")
    body, request.codes = bad_fields(d, route)
    request.body = dump(body, flag(d)).encode()
    return request


def http_fault_path_id(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(WITH_ID)
    request = good_request(d, ctx, route, "path_id")
    kind = d.integer(0, 4)
    codes = {"bad_id"}
    if kind == 0:
        table = unknown_table_id(d)
        ident, codes = percent(table) if flag(d) else table.encode(), {"not_found"}
    elif kind == 1:  # percent-encoded bytes that are not UTF-8
        ident = insert(d, "".join(d.pick(ID_CHARS) for _ in range(d.integer(0, 10))), "\0").encode().replace(
            b"\0", d.pick(INVALID_UTF8))
    elif kind == 2:  # characters a path may hold as they are
        ident = insert(d, "abc", d.pick("~!$&'()*+,;=:@.")).encode()
    else:
        value = bad_table_id(d)
        text = value if isinstance(value, str) else json.dumps(value)
        ident = percent(text)
        if is_id(text):  # a number or null written out is a well-formed id: of no table
            codes = {"not_found"}
        elif not text or "/" in text:  # an empty or split segment is another path: no route, or another one
            codes = {"bad_id", "not_found", "method_not_allowed"}
    request.path = route_path(route, ident)
    request.codes = codes
    return request


def http_fault_index(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = ROUTES[-2]
    request = good_request(d, ctx, route, "index")
    # never a small number (a finished deal's record is there to be read): a word, a fraction, a big or negative one
    number = d.pick(["abc", "1.5", "1e3", "0x1f", "٣٣", "१३", "+-1", "%20", "9" * 25, "9" * 5000, "-1",
                     "-99999999999999999999", "1_000", "", "%ff", "NaN", "inf", "18446744073709551616",
                     str(2**63), str(-(2**63) - 1), "13", "４２", str(d.integer(13, 10**6)), str(-d.integer(1, 10**6)),
                     "%e2%82", "1%00"])
    request.path = route_path(route, ctx.table_ids[0], urllib.parse.quote(number, safe="%"))
    request.codes = {"bad_request", "not_found"}
    return request


def bad_token(d: Draw, ctx: HttpCtx) -> bytes:
    """A session token that is not one: tampered, forged, non-ASCII, too long, misshapen."""
    kind = d.integer(0, 6)
    if kind == 0:
        last = ctx.token[-1]
        return (ctx.token[:-1] + ("0" if last != "0" else "1")).encode()
    if kind == 1:
        player = ctx.token.split(".")[0]
        return f"{player}.{'0' * 40}".encode()
    if kind == 2:  # non-ASCII: latin-1 bytes in the header, or UTF-8 of look-alikes
        char = d.pick(["é", "ÿ", "ſ", "Ａ", "٣"])
        encoding = d.pick(["utf-8", "latin-1"]) if ord(char) < 256 else "utf-8"
        return insert(d, ctx.token, char).encode(encoding)
    if kind == 3:
        return b"a" * d.pick([129, 200, 1000, 4096, 10240])
    if kind == 4:
        return ctx.token.encode() + b"." + b"0" * d.integer(0, 200)
    if kind == 5:
        return d.pick([b"", b".", b"..", b"x.y.z", ctx.token.replace(".", "").encode(), b"null", b"undefined"])
    return chars(d, string.ascii_letters + string.digits + ".-_~", 1, 128).encode()


def http_fault_token(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(AUTHED)
    request = good_request(d, ctx, route, "token")
    request.headers = [h for h in request.headers if h[0] != b"authorization"]
    token = bad_token(d, ctx)
    if flag(d):
        request.headers.append((b"authorization", d.pick([b"Bearer ", b"bearer ", b"BEARER  "]) + token))
    else:  # the cookie, from this site's own page
        request.headers += [(b"cookie", b"ulti_session=" + token), (b"origin", f"http://{ctx.host}".encode())]
    request.codes = {"unauthorized"}
    return request


def http_fault_method(d: Draw, ctx: HttpCtx) -> HttpBad:
    route = d.pick(ROUTES)
    request = good_request(d, ctx, route, "method")
    others = [m for m in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS") if m != route.method]
    if route.name in ("tables", "create"):  # GET and POST /api/tables are both routes
        others = [m for m in others if m not in ("GET", "POST")]
    request.method = d.pick(others)
    request.body = None
    request.headers = [h for h in request.headers if h[0] != b"content-type"]
    # a GET that no API route takes falls through to the static pages (mounted at /): 404
    request.codes = {"method_not_allowed"} if request.method != "GET" else {"not_found", "method_not_allowed"}
    return request


def http_fault_no_route(d: Draw, ctx: HttpCtx) -> HttpBad:
    tail = percent(nasty_text(d, 20)) if flag(d) else d.pick(INVALID_UTF8)
    # the static pages (mounted at /) take GET only: 405 for the others (404 if the path has a line break)
    method = d.pick(["GET", "POST", "DELETE"])
    codes = {"not_found"} if method == "GET" else {"method_not_allowed", "not_found"}
    return HttpBad(method, b"/api/x-" + tail, codes, [bearer(ctx)], fault="no_route")


HTTP_FAULTS: dict[str, Callable[[Draw, HttpCtx], HttpBad]] = {
    "oversize": http_fault_oversize,
    "content_type": http_fault_content_type,
    "origin": http_fault_origin,
    "body": http_fault_body,
    "fields": http_fault_fields,
    "path_id": http_fault_path_id,
    "index": http_fault_index,
    "token": http_fault_token,
    "method": http_fault_method,
    "no_route": http_fault_no_route,
}


def bad_request(d: Draw, ctx: HttpCtx, fault: str | None = None) -> HttpBad:
    """A bad HTTP request (of ``fault``, or any) and the codes that name its fault."""
    return HTTP_FAULTS[fault or d.pick(sorted(HTTP_FAULTS))](d, ctx)


def ws_bad_token(d: Draw, ctx: HttpCtx) -> tuple[str, set[int]]:
    """A WebSocket handshake query with a bad token, and the statuses that may refuse it (414: too long a line)."""
    token = bad_token(d, ctx)
    query = urllib.parse.quote(token.decode("latin-1"), safe="") if flag(d) else urllib.parse.quote_from_bytes(token)
    if d.integer(0, 5) == 0:
        query = "%ff%fe" + query
    if d.integer(0, 7) == 0:
        query = "a" * d.pick([9000, 10240, 12000])
    if len(query) > 8100:
        return f"token={query}", {414}
    return f"token={query}", {403}


async def http_call(port: int, request: HttpBad, host: str, timeout: float = 10) -> tuple[int, bytes]:
    """Send ``request`` as it is (one connection) and read the answer's status and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        async with asyncio.timeout(timeout):
            writer.write(request.wire(host))
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            status = int((await reader.readline()).split()[1])
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            return status, await reader.readexactly(length)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


def check_http_answer(request: HttpBad, status: int, body: bytes) -> str:
    """A 4xx JSON error whose code names ``request``'s fault; returns the code."""
    assert 400 <= status < 500, (request, status, body[:300])
    try:
        error = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError(("not a JSON error", request, status, body[:300])) from None
    code, message = error["code"], error["message"]
    assert code in request.codes, (request, status, body[:300])
    assert HTTP_STATUS.get(code, status) == status, (request, status, body[:300])
    assert isinstance(message, str) and message.strip(), body
    assert any(w.lower() in message.lower() for w in WORDS.get(code, ("",))), (request, body[:300])
    return str(code)


async def handshake_status(url: str, timeout: float = 5) -> int:
    """The HTTP status a WebSocket handshake to ``url`` gets (101 if it opens); it must come at once."""
    try:
        async with asyncio.timeout(timeout), connect(url, max_size=2**20):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


# ---------------------------------------------------------------- the arena


def legal_move(deal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action from a seat's view of its deal as the server sends it (record form, no seat)."""
    action = action_to_json(RandomBot(rng).act(SeatView.from_json(deal)))
    action.pop("seat")
    return action


def random_move(client: GameClient, attempt: int = 0) -> dict[str, Any]:
    """A random legal action for the client's seat from its view (record form without the seat).

    ``attempt`` counts the moves already made at this event number: a repeated kontra decline is
    acknowledged without an event, so the next move there must be drawn anew.
    """
    assert client.state is not None
    return legal_move(client.state["deal"], random.Random(f"{client.seq}:{attempt}" if attempt else client.seq))
