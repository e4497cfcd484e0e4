"""Names that read alike are one name (the UTS #39 skeleton), and no name holds "Bot" or a bot level as a word."""

from __future__ import annotations

import string
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from ulti.accounts.names import fold, holds_phrase, name_skeleton, words
from ulti.accounts.skeleton import prototypes, skeleton

BOT_WORDS = ("bot", "random", "heuristic", "strong", "expert", "expert-rejection")


def _plain(char: str) -> bool:
    """A letter that NFKC and case folding leave alone (what a homoglyph attack types)."""
    return unicodedata.normalize("NFKC", char) == char and char.casefold() == char and unicodedata.category(
        char
    ).startswith("L")


#: for each small Latin letter, the letters of other scripts (or other Latin letters) that look like it
LOOKALIKES: dict[str, list[str]] = {}
for _source, _prototype in sorted(prototypes().items()):
    if _prototype in string.ascii_lowercase and _plain(_source):
        LOOKALIKES.setdefault(_prototype, []).append(_source)
#: capitals of other scripts that look like a Latin capital (Cyrillic А, В, Н, Greek Ν, ...)
CAPITALS: dict[str, list[str]] = {}
for _source, _prototype in sorted(prototypes().items()):
    if _prototype in string.ascii_uppercase and not _source.isascii() and unicodedata.category(_source) == "Lu" \
            and unicodedata.normalize("NFKC", _source) == _source:
        CAPITALS.setdefault(_prototype, []).append(_source)


def test_the_data_gives_the_skeleton_of_uts_39() -> None:
    # a few mappings of confusables.txt, in the direction UTS #39 gives them
    assert skeleton("\u0456") == "i"  # CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
    assert skeleton("0") == "O" and skeleton("1") == "l" and skeleton("I") == "l"
    assert skeleton("m") == "rn" and skeleton("rn") == "rn"
    assert skeleton("\u0430") == "a" and skeleton("\u0410") == "A"  # Cyrillic а and А
    assert skeleton("paypal") == "paypal"  # a prototype maps to itself
    assert len(prototypes()) > 6000 and all(len(source) == 1 for source in prototypes())


def test_look_alike_and_case_variants_of_a_name_share_its_skeleton() -> None:
    victim = name_skeleton("Victim")
    for alike in ("V\u0456ctim", "VICTIM", "victim", "Vict\u0456m", "Ｖｉｃｔｉｍ", "Vіctіm"):
        assert name_skeleton(alike) == victim, alike
    assert name_skeleton("\u041dANNA") == name_skeleton("Hanna")  # Cyrillic capital Н
    assert name_skeleton("\u0410nna") == name_skeleton("anna")  # Cyrillic capital А
    assert name_skeleton("rnoon") == name_skeleton("moon")
    # different names stay different: accents are letters of their own in Hungarian
    for one, other in (("Árvíztűrő", "Arvizturo"), ("Béla", "Bela"), ("Anna", "Hanna"), ("Ali", "All")):
        assert name_skeleton(one) != name_skeleton(other), (one, other)
    assert len(victim) == 64 and int(victim, 16) >= 0  # a fixed-width digest for the unique index


@given(
    st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=16),
    st.lists(st.integers(min_value=0, max_value=1000), min_size=16, max_size=16),
    st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_a_name_and_its_homoglyph_substituted_variant_share_a_skeleton(
    name: str, picks: list[int], swap: list[bool]
) -> None:
    variant = "".join(
        LOOKALIKES[c][p % len(LOOKALIKES[c])] if s and c in LOOKALIKES else c
        for c, p, s in zip(name, picks, swap, strict=False)
    )
    assert name_skeleton(variant) == name_skeleton(name), (name, variant)
    capital = name.upper()
    variant = "".join(
        CAPITALS[c][p % len(CAPITALS[c])] if s and c in CAPITALS else c
        for c, p, s in zip(capital, picks, swap, strict=False)
    )
    assert name_skeleton(variant) == name_skeleton(name), (name, variant)


def test_words_split_at_spaces_punctuation_and_a_capital_after_a_small_letter() -> None:
    assert words("KillerBot") == ["Killer", "Bot"]
    assert words("Bot · strong 2") == ["Bot", "strong", "2"]
    assert words("Talbot") == ["Talbot"] and words("TALBOT") == ["TALBOT"]
    assert words("Kiss-Nagy Éva") == ["Kiss", "Nagy", "Éva"]


def test_bot_and_the_bot_levels_are_found_as_words_in_any_case_or_look_alike_letters() -> None:
    for name in ("Killer Bot", "KillerBot", "killer bot", "My B0t", "BOT 2", "Bot2", "Bot_", "\u0412\u041e\u0422",
                 "RoBOT", "Ｂｏｔ"):
        assert holds_phrase(name, BOT_WORDS) == "bot", name
    assert holds_phrase("Strong Anna", BOT_WORDS) == "strong"
    assert holds_phrase("anna EXPERT", BOT_WORDS) == "expert"
    assert holds_phrase("Expert Rejection Fan", BOT_WORDS) == "expert"  # "expert" is a word already
    assert holds_phrase("Rejection", ("expert-rejection",)) is None  # a level of several words: all of them
    assert holds_phrase("The Expert-Rejection", ("expert-rejection",)) == "expert-rejection"
    for name in ("Talbot", "Abbot", "Robotic", "Árvíztűrő", "Botond", "Bo Tibor", "Strongman"):
        assert holds_phrase(name, BOT_WORDS) is None, name


def test_fold_settles() -> None:
    for name in ("b0t", "VICTIM", "ｍｍ", "\u0412\u041e\u0422"):
        assert fold(fold(name)) == fold(name)
