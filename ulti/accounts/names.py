"""Account names: one account per name, whatever the case of its letters or look-alike letters in it.

Also what a name must not say: ``holds_phrase`` finds a word (``Bot``) or a run of words (a bot
level's name) in a name, compared by skeleton, so that ``B0t`` and Cyrillic ``ВОТ`` count too.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from ulti.accounts.errors import AccountError
from ulti.accounts.skeleton import prototypes, skeleton

#: the longest account name, in characters (the same bound as a guest's display name)
MAX_NAME = 32
#: the longest a name's key may be (its column's width): NFKC may make one character 18 (U+FDFA)
MAX_KEY = 128
#: rounds of case folding and skeleton at most (they settle in two for the data)
_FOLD_ROUNDS = 4


def account_name(value: object) -> str:
    """A name as an account keeps it: NFC, one space between words, 1 to ``MAX_NAME`` characters.

    The server's edge (``ulti.server.inputs.clean_name``) refuses control characters, card codes and
    reserved words before this; the bound is checked here too so that no caller can store more.
    """
    if not isinstance(value, str):
        raise AccountError("bad_name", "name must be a string", 400)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise AccountError("bad_name", f"name must be 1 to {MAX_NAME} characters", 400)
    return name


def name_key(name: str) -> str:
    """What makes two account names the same to log in: NFKC, case folded (``Anna``, ``ANNA``, ``ａｎｎａ``).

    The store holds it under a unique index, so two registrations racing for one name cannot both win.
    """
    return unicodedata.normalize("NFKC", account_name(name)).casefold()


def fold(text: str) -> str:
    """``text`` as it reads: NFKC, then case folding and the UTS #39 skeleton until they settle.

    Case is folded first, so every case form of a name is one (``Victim``, ``VICTIM``); then the
    skeleton maps look-alikes to one prototype (Cyrillic ``і`` to ``i``, ``0`` to ``O``, ``m`` to
    ``rn``), whose capitals are folded again (``b0t`` → ``bOt`` → ``bot``). Before that, a capital
    of another script that looks like a Latin capital becomes it (Cyrillic ``Н`` → ``H``, ``В`` →
    ``B``): folded first, it would become a small letter that looks like none (``н``, ``в``). A
    Latin capital ``I`` and a small ``l``, alike in some fonts, stay different (``I`` is ``i``).
    """
    current = "".join(_latin_capital(c) for c in unicodedata.normalize("NFKC", text))
    for _ in range(_FOLD_ROUNDS):
        folded = skeleton(current.casefold())
        if folded == current:
            break
        current = folded
    return current


def _latin_capital(char: str) -> str:
    """The Latin capital a capital of another script maps to (Cyrillic ``В`` → ``B``), else ``char``."""
    if char.isascii() or not char.isupper():
        return char
    prototype = prototypes().get(char, char)
    return prototype if len(prototype) == 1 and prototype.isascii() and prototype.isupper() else char


def name_skeleton(name: str) -> str:
    """What makes two account names read alike: the SHA-256 (hex) of the name's ``fold``.

    Stored under a unique index beside ``name_key``: ``Vіctim`` (Cyrillic ``і``) cannot be registered
    beside ``Victim``, even by two processes at once. A digest, because a fold may be several times
    longer than the name and a fixed width suits every database's index.
    """
    # the spaces as ``account_name`` keeps them, without its checks: a stored name is hashed as it is
    return hashlib.sha256(fold(" ".join(unicodedata.normalize("NFC", name).split())).encode("utf-8")).hexdigest()


def words(name: str) -> list[str]:
    """The words of a name: runs of letters and digits, split also where a capital follows a small
    letter (``KillerBot`` is ``Killer`` and ``Bot``; ``Talbot`` and ``TALBOT`` are one word)."""
    found: list[str] = []
    for run in re.findall(r"[^\W_]+", unicodedata.normalize("NFC", name)):
        start = 0
        for i in range(1, len(run)):
            if run[i - 1].islower() and run[i].isupper():
                found.append(run[start:i])
                start = i
        found.append(run[start:])
    return found


def _word_fold(word: str) -> str:
    # trailing digits are a count, not part of the word: "Bot2" is "Bot"; a digit inside stays ("B0t")
    return fold(word.rstrip("0123456789") or word)


@cache
def _phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(_word_fold(w) for w in words(phrase))


def holds_phrase(name: str, phrases: Iterable[str]) -> str | None:
    """The first of ``phrases`` whose words appear in ``name`` as consecutive words, or None.

    Words are compared by ``fold``: ``My B0t``, ``KillerBot`` and ``ВОТ`` hold ``bot``; ``Abbot``
    and ``Robotic`` do not (``bot`` is not a word of theirs).
    """
    folded = tuple(_word_fold(w) for w in words(name))
    for phrase in phrases:
        wanted = _phrase_words(phrase)
        if wanted and any(folded[i : i + len(wanted)] == wanted for i in range(len(folded) - len(wanted) + 1)):
            return phrase
    return None
