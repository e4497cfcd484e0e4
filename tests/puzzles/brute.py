"""Exhaustive searches over every card order, for checking puzzles without the solver: on the deal itself
(the engine plays every card) and on a sampled world (the engine's rules and scoring, other hands)."""

from __future__ import annotations

from collections.abc import Sequence

from ulti.engine import actions as act
from ulti.engine.cards import Card, CardSet, card_str, iter_cards, parse_card
from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase
from ulti.engine.play import legal_cards, trick_winner_index
from ulti.engine.scoring import Trick, settle


def brute_value(deal: Deal) -> int:
    """The contract's value (per defender, for the declarer) under perfect play, trying every card order."""
    if deal.phase is Phase.DONE:
        assert deal.result is not None
        return deal.result.per_defender
    assert deal.phase is Phase.PLAY and deal.to_move is not None
    values = []
    for card in iter_cards(deal.legal_card_mask()):
        nxt = deal.copy()
        nxt.apply(act.play(deal.to_move, card))
        values.append(brute_value(nxt))
    return max(values) if deal.to_move == deal.declarer else min(values)


def brute_values(deal: Deal) -> dict[str, int]:
    """Each legal card of the seat on turn → the value for that seat (its own points per defender)."""
    assert deal.to_move is not None  # a puzzle's deal is in its play
    sign = 1 if deal.to_move == deal.declarer else -1
    out = {}
    for card in iter_cards(deal.legal_card_mask()):
        nxt = deal.copy()
        nxt.apply(act.play(deal.to_move, card))
        out[card_str(card)] = sign * brute_value(nxt)
    return out


def play_codes(deal: Deal, codes: list[str]) -> None:
    """Play the cards ``codes`` in turn on ``deal``."""
    for code in codes:
        assert deal.to_move is not None, f"{code} is played after the deal is over"
        deal.apply(act.play(deal.to_move, parse_card(code)))


class Table:
    """A position of ``deal`` with other hands (a sampled world), searched over every card order and
    settled by the engine's scoring (``settle``), without the solver."""

    def __init__(self, deal: Deal, hands: Sequence[CardSet], start_hands: Sequence[CardSet], talon: CardSet) -> None:
        """The position of ``deal`` (in its play) with ``hands`` now, ``start_hands`` at the start of play."""
        assert deal.contract is not None
        self.deal = deal
        self.hands = tuple(hands)
        self.start_hands = tuple(start_hands)
        self.talon = talon
        self.multipliers = {part: deal.multiplier(part) for part, _ in deal.contract.parts}

    def _ended(self, tricks: list[Trick]) -> bool:
        """Whether a no-trump contract is decided by ``tricks`` (docs/rules.md §3.6)."""
        bid = self.deal.contract
        assert bid is not None
        if bid.has_trumps:
            return False
        taken = [t.winner == self.deal.declarer for t in tricks]
        return any(taken) if bid.has(Part.BETLI) else not all(taken)

    def _value(self, hands: tuple[CardSet, ...], trick: tuple[Card, ...], leader: int, tricks: list[Trick]) -> int:
        deal = self.deal
        trump = deal.trump
        if len(trick) == 3:
            winner = (leader + trick_winner_index(list(trick), trump)) % 3
            done = [*tricks, Trick(leader, (trick[0], trick[1], trick[2]), winner)]
            if len(done) == 10 or self._ended(done):
                assert deal.contract is not None and deal.declarer is not None
                return settle(bid=deal.contract, declarer=deal.declarer, trump=trump, tricks=done,
                              start_hands=self.start_hands, talon=self.talon, multipliers=self.multipliers).per_defender
            return self._value(hands, (), winner, done)
        seat = (leader + len(trick)) % 3
        led = trick[0] >> 3 if trick else -1
        top = trick[trick_winner_index(list(trick), trump)] if trick else -1
        values = []
        for card in iter_cards(legal_cards(hands[seat], led, top, trump, deal.held_seven(seat))):
            after = list(hands)
            after[seat] &= ~(1 << card)
            values.append(self._value(tuple(after), (*trick, card), leader, tricks))
        return max(values) if seat == deal.declarer else min(values)

    def value_after(self, card: Card) -> int:
        """The contract's value (per defender, for the declarer) after the seat on turn plays ``card``."""
        deal = self.deal
        seat = deal.to_move
        assert seat is not None and deal.leader is not None  # the deal is in its play
        after = list(self.hands)
        after[seat] &= ~(1 << card)
        return self._value(tuple(after), (*deal.trick, card), deal.leader, list(deal.tricks))
