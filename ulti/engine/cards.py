"""Cards as small ints, sets of cards as 32-bit masks (docs/rules.md §0.3, §3.1; docs/record.md codes).

A card is ``suit * 8 + rank`` where suits are C S D H (0..3: acorns, leaves, bells, hearts) and
ranks are in natural order 7 8 9 T J Q K A (0..7). A set of cards is an int whose bit ``card`` is
set. Everything the hot paths need (suit masks, "cards that beat this card" masks for both rank
orders) is precomputed here so that legal-move generation is a handful of bit operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from ulti.engine.errors import RecordError

Card = int
"""A card: ``suit * 8 + rank`` (0..31)."""

CardSet = int
"""A set of cards: bit ``card`` set for each member."""


class Suit(IntEnum):
    """The four suits in record order. Hearts is the "double" suit."""

    CLUBS = 0  # acorns / makk
    SPADES = 1  # leaves / zöld
    DIAMONDS = 2  # bells / tök
    HEARTS = 3  # hearts / piros


SUIT_LETTERS = "CSDH"
RANK_LETTERS = "789TJQKA"
SUIT_SYMBOLS = "♣♠♦♥"
SUIT_NAMES_EN = ("clubs", "spades", "diamonds", "hearts")

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

FULL_DECK: CardSet = (1 << 32) - 1
SUIT_MASKS: tuple[CardSet, ...] = tuple(0xFF << (8 * s) for s in range(4))
#: Card points of each ace and ten (docs/rules.md §0.3).
CARD_POINT_VALUE = 10
#: Aces and tens: ``CARD_POINT_VALUE`` card points each (docs/rules.md §0.3).
POINT_CARDS: CardSet = sum((1 << (s * 8 + ACE)) | (1 << (s * 8 + TEN)) for s in range(4))

#: Strength (0..7, higher is stronger) of each natural rank in a contract with trumps (docs/rules.md §3.1).
TRUMP_ORDER_STRENGTH: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)  # A 10 K Q J 9 8 7
#: Strength of each natural rank in a no-trump contract (docs/rules.md §3.1).
PLAIN_ORDER_STRENGTH: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)  # A K Q J 10 9 8 7


def _higher_masks(strength: tuple[int, ...]) -> tuple[CardSet, ...]:
    table = []
    for card in range(32):
        suit, rank = divmod(card, 8)
        mask = 0
        for other in range(8):
            if strength[other] > strength[rank]:
                mask |= 1 << (suit * 8 + other)
        table.append(mask)
    return tuple(table)


#: ``HIGHER_TRUMP_ORDER[c]``: cards of c's suit that beat c in a contract with trumps.
HIGHER_TRUMP_ORDER: tuple[CardSet, ...] = _higher_masks(TRUMP_ORDER_STRENGTH)
#: ``HIGHER_PLAIN_ORDER[c]``: cards of c's suit that beat c in a no-trump contract.
HIGHER_PLAIN_ORDER: tuple[CardSet, ...] = _higher_masks(PLAIN_ORDER_STRENGTH)


def card_str(card: Card) -> str:
    """The record code of ``card``, e.g. ``"TS"`` for the ten of spades.

    >>> card_str(0), card_str(31)
    ('7C', 'AH')
    >>> card_str(Suit.SPADES * 8 + TEN)
    'TS'
    """
    return RANK_LETTERS[card & 7] + SUIT_LETTERS[card >> 3]


def card_label(card: Card) -> str:
    """A short label for people, with the French suit symbol: ``"♠K"``, ``"♥10"``.

    >>> card_label(parse_card("KS")), card_label(parse_card("TH"))
    ('♠K', '♥10')
    """
    rank = "10" if card & 7 == TEN else RANK_LETTERS[card & 7]
    return SUIT_SYMBOLS[card >> 3] + rank


_CODES = {card_str(c): c for c in range(32)}


def parse_card(text: object) -> Card:
    """Parse a card code such as ``"7H"`` or ``"ts"`` (case-insensitive).

    >>> parse_card("7H"), parse_card("ts")
    (24, 11)
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    ulti.engine.errors.RecordError: unknown card '1X' (a card is a rank 7 8 9 T J Q K A and a suit C S D H)
    """
    if isinstance(text, str):
        card = _CODES.get(text.upper())
        if card is not None:
            return card
    raise RecordError(f"unknown card {text!r} (a card is a rank 7 8 9 T J Q K A and a suit C S D H)")


def parse_suit(text: object) -> int:
    """Parse a suit letter ``C``, ``S``, ``D`` or ``H`` (case-insensitive).

    >>> parse_suit("h") == Suit.HEARTS
    True
    """
    if isinstance(text, str) and len(text) == 1 and text.upper() in SUIT_LETTERS:
        return SUIT_LETTERS.index(text.upper())
    raise RecordError(f"unknown suit {text!r} (a suit is C, S, D or H)")


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The set holding ``cards``.

    >>> hand = mask_of(parse_card(c) for c in ("AH", "7C", "TS"))
    >>> hex(hand)  # bits 0 (7C), 11 (TS) and 31 (AH)
    '0x80000801'
    >>> format_cards(hand)
    '7C TS AH'
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_cards(mask: CardSet) -> Iterator[Card]:
    """The cards of ``mask`` in ascending order.

    >>> [card_str(c) for c in iter_cards(SUIT_MASKS[Suit.HEARTS] & POINT_CARDS)]
    ['TH', 'AH']
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: CardSet) -> list[Card]:
    """The cards of ``mask`` as a sorted list.

    >>> cards_of(0b1001)
    [0, 3]
    """
    return list(iter_cards(mask))


def count(mask: CardSet) -> int:
    """How many cards ``mask`` holds.

    >>> count(FULL_DECK), count(SUIT_MASKS[Suit.CLUBS]), count(0)
    (32, 8, 0)
    """
    return mask.bit_count()


def card_points(mask: CardSet) -> int:
    """Card points of the aces and tens in ``mask`` (10 each), not counting the last trick.

    >>> card_points(mask_of(parse_card(c) for c in ("AH", "TS", "KS")))
    20
    >>> card_points(FULL_DECK)
    80
    """
    return CARD_POINT_VALUE * (mask & POINT_CARDS).bit_count()


def format_cards(mask: CardSet) -> str:
    """Codes of ``mask``'s cards separated by spaces, by suit then rank (for messages).

    >>> format_cards(SUIT_MASKS[Suit.DIAMONDS])
    '7D 8D 9D TD JD QD KD AD'
    """
    return " ".join(card_str(c) for c in iter_cards(mask))
