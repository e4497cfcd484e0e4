"""Perft: count the legal card sequences from a position, to check legal-move generation."""

from __future__ import annotations

from ulti.engine.cards import iter_cards
from ulti.engine.deal import Deal, Phase


def perft(deal: Deal, depth: int) -> int:
    """The number of distinct legal card sequences of length ``depth`` from ``deal``.

    No kontra is said. A deal that ends before ``depth`` cards counts as one sequence where it ends.

    Seat 0 declares a Simple game in clubs holding all eight clubs, 7S and 8S; seat 1 holds the other
    spades and four diamonds. Seat 0 may lead any of its 10 cards; seat 1, out of clubs and without
    trumps, may answer a club lead with any card, and must beat a spade lead (6 spades): 8 × 10 + 2 × 6.

    >>> from ulti.engine.cards import Suit, mask_of, parse_card
    >>> from ulti.engine.contracts import parse_bid
    >>> def cards(codes: str) -> int:
    ...     return mask_of(parse_card(c) for c in codes.split())
    >>> hands = [cards("7C 8C 9C TC JC QC KC AC 7S 8S"), cards("9S TS JS QS KS AS 7D 8D 9D TD"),
    ...          cards("JD QD KD AD 7H 8H 9H TH JH QH")]
    >>> deal = Deal.at_play(hands, dealer=2, declarer=0, bid=parse_bid("M-S"), trump=Suit.CLUBS,
    ...                     talon=cards("KH AH"))
    >>> [perft(deal, depth) for depth in range(4)]
    [1, 10, 92, 920]
    """
    if depth == 0 or deal.phase is Phase.DONE:
        return 1
    seat = deal.to_move
    assert seat is not None  # a deal not over has a seat on turn
    total = 0
    for card in iter_cards(deal.legal_card_mask()):
        child = deal.copy()
        child.play(seat, card)
        total += perft(child, depth - 1)
    return total
