"""Sport ulti (duplicate): every table of a round plays the same deals, dealt from the round's seed.

Round ``r`` (from 1) of a tournament with seed ``S`` is a duplicate event (``ulti.duplicates``) with the
seed ``round_seed(S, r)``: deal ``k`` of every table of the round is ``duplicate_hands(round_seed(S, r), k)``,
so the tables' seats are compared by matchpoints (``standings.round_points``), with the same rules as
duplicate events: a table's cards are never shown to another table before the round ends.
"""

from __future__ import annotations

import hashlib

from ulti.duplicates.deals import duplicate_hands


def round_seed(seed: int, round_number: int) -> int:
    """The seed of round ``round_number`` of the tournament seeded ``seed`` (a 63-bit number).

    >>> round_seed(7, 1) == round_seed(7, 1) != round_seed(7, 2)
    True
    """
    digest = hashlib.sha256(f"ulti-tournament:{seed}:{round_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def round_deals(seed: int, round_number: int, deals: int) -> list[tuple[int, list[list[str]]]]:
    """The dealer and hands of each deal of the round, the same at every table.

    >>> from ulti.duplicates.deals import duplicate_first_dealer
    >>> first = round_deals(7, 1, 3)
    >>> len(first), first[0][0] == duplicate_first_dealer(round_seed(7, 1))
    (3, True)
    """
    event = round_seed(seed, round_number)
    return [duplicate_hands(event, k) for k in range(deals)]
