"""The Unicode confusables skeleton (UTS #39 §4): two strings with one skeleton read alike.

``skeleton(X)`` is NFD of X, each character replaced by its prototype from the Unicode data file
``confusables.txt``, then NFD again. The data comes from the ``confusable-homoglyphs`` package,
which ships it only as ``confusables.json``: every pair of ``confusables.txt`` stored in *both*
directions (its own API tells whether a string holds confusables, it computes no skeleton). The
direction is recovered here from the shape of that data, which UTS #39 guarantees:

- the mapping is idempotent, so a prototype is never a source: a character with two or more
  partners is a prototype, and its partners are sources mapping to it;
- a source maps to exactly one prototype: a character with a single partner that has several, or
  whose partner is a sequence of characters (``m`` → ``rn``), is a source;
- a pair of two characters that each have only the other (about 1,400 of 6,000 classes) is a class
  of one source and its prototype; which is which does not matter for comparing skeletons, so the
  lower code point is taken as the prototype.

The package's file wraps right-to-left characters in U+200E marks for display; they are dropped.
Replacements are applied until nothing changes (a prototype sequence may hold a character mapped
by the last rule), so equal skeletons are exactly equal classes.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

_LRM = "\u200e"
#: rounds of replacement at most (two suffice for the data; the bound only guards against a cycle)
_ROUNDS = 4


@cache
def prototypes() -> dict[str, str]:
    """Each confusable source character and the prototype it maps to (loaded once)."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    partners: dict[str, set[str]] = {}
    for key, entries in json.loads(raw).items():
        partners.setdefault(key.replace(_LRM, ""), set()).update(e["c"].replace(_LRM, "") for e in entries)
    mapping: dict[str, str] = {}
    for char, others in partners.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a sequence (only ever a prototype) or a prototype of several sources
        [other] = others
        if other == char:
            continue
        if len(other) > 1 or len(partners.get(other, ())) > 1 or ord(other) < ord(char):
            mapping[char] = other
    return mapping


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (case kept: ``skeleton("I")`` and ``skeleton("l")`` are equal)."""
    table = prototypes()
    current = unicodedata.normalize("NFD", text)
    for _ in range(_ROUNDS):
        mapped = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current
