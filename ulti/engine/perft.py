"""Perft: count the legal card sequences from a position, to check legal-move generation."""

from __future__ import annotations

from ulti.engine.cards import iter_cards
from ulti.engine.deal import Deal, Phase


def perft(deal: Deal, depth: int) -> int:
    """The number of distinct legal card sequences of length ``depth`` from ``deal``.

    No kontra is said. A deal that ends before ``depth`` cards counts as one sequence where it ends.
    """
    if depth == 0 or deal.phase is Phase.DONE:
        return 1
    seat = deal.to_move
    total = 0
    for card in iter_cards(deal.legal_card_mask()):
        child = deal.copy()
        child.play(seat, card)
        total += perft(child, depth - 1)
    return total
