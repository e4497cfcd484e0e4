"""The edge: everything a client sends is checked here before any other code sees it.

Why one module: a text that cannot be encoded (a lone UTF-16 surrogate), a JSON nesting that
exhausts the parser, a number wider than 64 bits or a name made of direction overrides must be
refused where it enters, with an error that names the field, so that nothing stored or broadcast
can ever fail to encode later (a stored event that cannot be sent would make its table unloadable).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import orjson

from ulti.accounts.names import MAX_KEY, holds_phrase
from ulti.bots.levels import BOT_LEVELS
from ulti.engine.cards import card_label, card_str
from ulti.server.errors import CommandError

#: deepest JSON nesting a client message or request body may have (real ones have 3)
MAX_DEPTH = 16
MAX_NAME = 32
#: table ids, invite tokens and player ids are made by ``auth.new_id`` (hex); a little slack for old ones
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Unicode categories never allowed in any text: controls, surrogates, private use, unassigned
_NEVER = {"Cc", "Cs", "Co", "Cn"}
#: format characters that reorder or hide text (bidi overrides and isolates); zero-width joiners
#: stay allowed in chat, where emoji sequences need them, but never in names
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
_SUIT_SYMBOLS = set("♠♥♦♣♤♡♢♧🂠")
# the record codes (TS, 7H), the labels (♠10) and how people write them (10S, S10)
_CARD_WORDS = {card_str(c) for c in range(32)} | {card_label(c) for c in range(32)} | {
    form for code in (card_str(c) for c in range(32))
    for rank in ("10" if code[0] == "T" else code[0],) for form in (rank + code[1], code[1] + rank)
}
#: The levels whose names are everyday words in people's names ("Chess Club Joe", "Casual Kati", "Beginner
#: Bea"): a name may hold them as words, but not be one alone ("Club", "Club 2") nor beside "bot" ("Club bot").
EVERYDAY_LEVELS = ("beginner", "casual", "club")
#: words no player's name may hold (``names.holds_phrase``: as words, by skeleton): "Bot" and every level a
#: table seats whose name is no everyday word ("Strong Anna" reads as the bot people met as "Bot · strong").
#: A new level is refused as a word unless it is named above: the safe side.
BOT_WORDS = ("bot", *(level for level in BOT_LEVELS if level not in EVERYDAY_LEVELS))
#: what a bot is called, as a whole name (a number may follow: "Bot · club 2", "Club 2"): a level alone, or
#: with "bot" before or after it
BOT_NAMES = ("bot", *BOT_LEVELS, *(f"bot {level}" for level in BOT_LEVELS), *(f"{level} bot" for level in BOT_LEVELS))
#: names no player may take: they would read as the server, a bot or a removed account
RESERVED_NAMES = ("server", "system", "admin", "moderator", "deleted player", "ulti", *BOT_NAMES)
# Letters that look alike across scripts (Cyrillic and Greek capitals and small letters that render
# like Latin ones) and digits that read as letters: two names equal after this map read the same.
_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "0": "o", "1": "l", "i": "l", "|": "l",
        "5": "s", "$": "s", "@": "a", "3": "e", "ı": "l",
    }
)


class BadInput(CommandError):
    """Input refused at the edge: counted by the caller, never logged line by line."""


# ---------------------------------------------------------------- JSON


def decode_json(raw: str | bytes, max_bytes: int, what: str = "message") -> Any:
    """Parse a client's JSON text after bounding its size; refuse what cannot be re-encoded.

    orjson refuses lone surrogates and bounds nesting without recursion in Python; numbers wider
    than 64 bits come back as floats, which every field check refuses by type.
    """
    # a text of n code points is at most 4n bytes of UTF-8: only a text that might be over is encoded to count
    if isinstance(raw, bytes) or 4 * len(raw) <= max_bytes:
        size = len(raw)
    else:
        size = len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise BadInput("too_large", f"a {what} may be at most {max_bytes} bytes", params={"max_bytes": max_bytes})
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "depth limit" in str(exc):
            raise BadInput(
                "too_deep", f"a {what} may nest at most {MAX_DEPTH} levels of arrays and objects",
                params={"max_depth": MAX_DEPTH},
            ) from None
        raise BadInput("bad_json", f"malformed JSON: {_first_line(str(exc))}") from None
    # Each level opens with a bracket of the text, so a text with at most MAX_DEPTH of them (every
    # command: they have two) cannot nest too deep: counting them in C spares the walk in Python.
    if _openers(raw) > MAX_DEPTH and _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise BadInput(
            "too_deep", f"a {what} may nest at most {MAX_DEPTH} levels of arrays and objects",
            params={"max_depth": MAX_DEPTH},
        )
    return data


def _openers(raw: str | bytes) -> int:
    """How many ``{`` and ``[`` the text holds (inside strings too): at least its nesting depth."""
    if isinstance(raw, bytes):
        return raw.count(b"{") + raw.count(b"[")
    return raw.count("{") + raw.count("[")


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value``, counted only until it exceeds ``limit`` (iterative: no recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


def _first_line(text: str) -> str:
    return text.splitlines()[0][:200] if text else "invalid"


# ---------------------------------------------------------------- text and names


def clean_text(value: object, field: str, max_length: int, code: str = "bad_chat") -> str:
    """A free text (chat): a string of visible text, NFC-normalised, stripped, at most ``max_length``."""
    if not isinstance(value, str):
        raise BadInput(code, f"{field} must be a non-empty string")
    if not _encodable(value):
        raise BadInput(code, f"{field} is not valid Unicode text (it holds a lone surrogate)")
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise BadInput(code, f"{field} must be a non-empty string")
    if len(text) > max_length:
        raise BadInput(code, f"{field} is longer than {max_length} characters")
    for char in text:
        if unicodedata.category(char) in _NEVER:
            raise BadInput(code, f"{field} holds a control or unassigned character (U+{ord(char):04X})")
        if char in _BIDI:
            raise BadInput(code, f"{field} holds a direction override (U+{ord(char):04X})")
    if not any(_visible(c) for c in text):
        raise BadInput(code, f"{field} has no visible character")
    return text


def clean_name(value: object) -> str:
    """A player's display name: NFC, 1 to 32 visible characters, not a card, a bot or a reserved word."""
    if not isinstance(value, str):
        raise BadInput("bad_name", "name must be a string")
    if not _encodable(value):
        raise BadInput("bad_name", "name is not valid Unicode text (it holds a lone surrogate)")
    name = " ".join(unicodedata.normalize("NFC", value).split())  # one space between words
    if not 1 <= len(name) <= MAX_NAME:
        raise BadInput("bad_name", f"name must be 1 to {MAX_NAME} characters")
    for char in name:
        category = unicodedata.category(char)
        if category in _NEVER or category in ("Cf", "Zl", "Zp") or char in _BIDI:
            raise BadInput("bad_name", f"name holds an invisible or control character (U+{ord(char):04X})")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise BadInput("bad_name", "name must hold at least one letter or digit")
    if len(unicodedata.normalize("NFKC", name).casefold()) > MAX_KEY:
        # a few characters grow by NFKC (U+FDFA into 18): an account's name key must fit its column
        raise BadInput("bad_name", f"name must be at most {MAX_KEY} characters once normalised (NFKC)")
    # a word written like a card code ("KS", "10h", "7H"), not an ordinary word such as "As"
    if any(c in _SUIT_SYMBOLS for c in name) or any(
        word.upper() in _CARD_WORDS and (word.isupper() or not word.isalpha()) for word in name.split()
    ):
        raise BadInput("bad_name", "name must not read as a card (no card codes such as KS or suit symbols)")
    key = name_key(name)
    if key in _RESERVED_KEYS or _numbered_bot(name):
        raise BadInput("bad_name", "that name is reserved (it reads as a bot, the server or a removed player)")
    word = holds_phrase(name, BOT_WORDS)
    if word is not None:
        # only the server names bots ("Bot · strong"): their accounts are made without this check
        raise BadInput(
            "bad_name", f"a name must not hold the word {word!r} (in any case or look-alike letters): it reads as a bot"
        )
    return name


def _numbered_bot(name: str) -> bool:
    """Whether ``name`` is a bot's name with a number after it ("Bot · strong 2", "Club 2"). The number
    is cut from the name, not from its key: the key reads some digits as letters (3 as e)."""
    return name_key(_TRAILING_NUMBER.sub("", name)) in _BOT_KEYS


_TRAILING_NUMBER = re.compile(r"[\W_]*\d+$")


def name_key(name: str) -> str:
    """What a name reads as: two names with the same key look the same to a person.

    NFKC folds compatibility forms (fullwidth letters, ligatures), case is folded, accents and
    spaces and punctuation are dropped, and look-alike letters of other scripts map to Latin.
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    key = "".join(c for c in folded if not unicodedata.combining(c)).translate(_LOOKALIKES)
    return "".join(c for c in key if unicodedata.category(c)[0] in "LN")


_RESERVED_KEYS = {name_key(word) for word in RESERVED_NAMES}
_BOT_KEYS = {name_key(word) for word in BOT_NAMES}


def check_id(value: object, field: str) -> str:
    """A table id, invite or other server-made id: short ASCII letters, digits, ``_`` or ``-``."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise BadInput("bad_id", f"{field} must be an id of 1 to 64 letters, digits, '_' or '-'")
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS"
