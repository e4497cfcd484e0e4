"""An event's deals from its seed: the same cards at every table, in the same order, seat for seat.

A table of an event is an ordinary table whose ``created`` event holds the event's seed; the table
draws deal ``k`` from ``random.Random(f"{seed}:{k}")`` dealt by ``(first_dealer + k) % 3``, and its
first dealer from ``random.Random(f"{seed}:first-dealer")`` (``TableState.deal_rng``). Nothing else
enters: not the players, not the table, not what happened in earlier deals, so two tables of an
event hold identical cards on every deal (tie-break deals too, though they are no part of the event).
These functions are that derivation, written once more here so that ``ulti score`` can check an event
record's cards against its seed without the server.
"""

from __future__ import annotations

import random

from ulti.engine.cards import card_str, iter_cards
from ulti.engine.dealing import deal_hands


def duplicate_first_dealer(seed: int) -> int:
    """The first dealer of every table of the event with ``seed``.

    >>> duplicate_first_dealer(7) in (0, 1, 2)
    True
    """
    return random.Random(f"{seed}:first-dealer").randrange(3)


def duplicate_hands(seed: int, index: int) -> tuple[int, list[list[str]]]:
    """Deal ``index`` (from 0) of the event with ``seed``: its dealer and the hands as record card codes.

    >>> dealer, hands = duplicate_hands(7, 0)
    >>> dealer == duplicate_first_dealer(7), sorted(len(h) for h in hands)
    (True, [10, 10, 12])
    >>> duplicate_hands(7, 3) == duplicate_hands(7, 3)
    True
    """
    dealer = (duplicate_first_dealer(seed) + index) % 3
    hands = deal_hands(random.Random(f"{seed}:{index}"), dealer)
    return dealer, [[card_str(c) for c in iter_cards(h)] for h in hands]
