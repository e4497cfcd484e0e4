"""Shuffling and dealing. The caller supplies the random source, so every deal is reproducible."""

from __future__ import annotations

import random

from ulti.engine.cards import CardSet, mask_of


def opener_of(dealer: int) -> int:
    """The seat that opens the auction and is dealt 12 cards: the one after ``dealer`` (docs/rules.md §0.3).

    >>> [opener_of(dealer) for dealer in (0, 1, 2)]
    [1, 2, 0]
    """
    return (dealer + 1) % 3


def deal_hands(rng: random.Random, dealer: int) -> list[CardSet]:
    """Shuffle the 32 cards with ``rng`` and deal 12 to the opener (after ``dealer``), 10 to the others.

    The same seed gives the same deal:

    >>> from ulti.engine.cards import FULL_DECK, count
    >>> hands = deal_hands(random.Random(7), dealer=0)
    >>> [count(hand) for hand in hands]  # seat 1, after the dealer, opens
    [10, 12, 10]
    >>> hands[0] | hands[1] | hands[2] == FULL_DECK
    True
    >>> deal_hands(random.Random(7), dealer=0) == hands
    True
    """
    deck = list(range(32))
    rng.shuffle(deck)
    opener = opener_of(dealer)
    hands = [0, 0, 0]
    start = 0
    for offset in range(3):
        seat = (opener + offset) % 3
        size = 12 if seat == opener else 10
        hands[seat] = mask_of(deck[start : start + size])
        start += size
    return hands
