"""A defender's card valued with its partner's next card chosen from the partner's own view (partner fusion).

Plain sampling solves each world double-dummy: there the other defender plays as if it saw every hand, the
deciding defender's included. Where the defence needs the partner to guess (which card to keep, when to take
a trick over, which suit to switch to), each world's solve has the partner guess right, and a card that
leaves the partner a guess is valued as if the guess were free. The lookahead (``lookahead``) answers this
for the deciding seat's own later cards; this module answers it for the partner's next card.

``partner_values`` values each candidate card so: in each world, after the card, the declarer plays as the
solver plays it up to the partner's turn; there the partner plays the card it would choose from its own view
(the deal rebuilt from the world, ``world_to_deal``; the partner's view of it; worlds drawn for the partner
as the strong bot draws them; the card with the best total over them, each solved double-dummy: plain
sampling, as the partner itself decides at the table); the rest of the world is then solved. The partner's
choice depends only on what it sees (its hand and the cards played), so the worlds alike to the partner
share it (``PartnerChoices`` remembers it by that).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ulti.bots.expert.lookahead import solver_card, step
from ulti.bots.sampling.inference import analyse
from ulti.bots.sampling.knowledge import World
from ulti.bots.sampling.rebuild import world_to_deal
from ulti.bots.sampling.sampler import Sampler
from ulti.bots.solver import Position, values_after
from ulti.bots.strong import solve_value
from ulti.bots.strong.play import declarer_weight, position_of
from ulti.engine import actions as act
from ulti.engine.cards import Card, CardSet, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.view import SeatView


class PartnerChoices:
    """The partner's card at its turn, chosen from its own view and remembered by what it sees there."""

    def __init__(self, rng: random.Random, worlds: int) -> None:
        """Choices drawn with ``rng``, each over ``worlds`` worlds of the partner's view."""
        self.rng = rng
        self.worlds = worlds
        self._known: dict[tuple[CardSet, tuple[Card, ...]], Card] = {}

    def choose(self, deal: Deal, seen: tuple[Card, ...]) -> Card:
        """The card the seat to move in ``deal`` plays (a defender, its view alone): among its legal cards,
        the one whose total over worlds drawn for it, each solved double-dummy, is best for the defence
        (the lowest per_defender; the first of equals). ``seen``: the cards played since the decision
        began (with the hand, what tells the partner's situations apart)."""
        seat = deal.to_move
        key = (deal.hands[seat], seen)
        if key in self._known:
            return self._known[key]
        legal = list(iter_cards(deal.legal_card_mask()))
        card = legal[0]
        if len(legal) > 1:
            know = analyse(deal.seat_view(seat))
            worlds = Sampler(know, declarer_weight(know)).draw_many(self.rng, self.worlds)
            totals = [0] * len(legal)
            for world in worlds:
                for k, value in enumerate(values_after(position_of(know, world), legal)):
                    totals[k] += value
            card = legal[totals.index(min(totals))]
        self._known[key] = card
        return card


def _value_with_partner(pos: Position, deal: Deal, card: Card, partner: int, choices: PartnerChoices) -> int:
    """The contract value (per_defender) in one world when the deciding defender plays ``card``, the
    declarer plays on as the solver plays it, the partner's next card is its own choice (``choices``) and
    the rest is solved. ``pos`` and ``deal`` are that world at the decision, as solver and engine hold it."""
    deal = deal.copy()
    deal.apply(act.play(pos.to_move, card))
    seen: tuple[Card, ...] = (card,)
    after = step(pos, card)
    while isinstance(after, Position) and after.to_move not in (partner, pos.to_move):
        played = solver_card(after)
        deal.apply(act.play(after.to_move, played))
        seen += (played,)
        after = step(after, played)
    if isinstance(after, int):
        return after
    if after.to_move != partner:  # the deciding seat's own turn again: the rest as plain sampling solves it
        return solve_value(after)
    reply = step(after, choices.choose(deal, seen))
    return reply if isinstance(reply, int) else solve_value(reply)


def partner_values(
    view: SeatView, positions: Sequence[Position], cards: Sequence[Card], choices: PartnerChoices
) -> list[list[int]]:
    """Per card of ``cards`` (the deciding defender's candidates, one per class), its value (per_defender)
    in each world of ``positions`` when the partner's next card is the one it would choose from its own
    view (the module docstring). ``view`` is the deciding seat's view, from which each world is rebuilt as
    an engine deal."""
    seat = positions[0].to_move
    partner = 3 - seat - positions[0].declarer
    rows: list[list[int]] = [[] for _ in cards]
    for pos in positions:
        world = World([pos.hands[0], pos.hands[1], pos.hands[2]], pos.talon)
        deal = world_to_deal(view, world, choices.rng)
        for k, card in enumerate(cards):
            rows[k].append(_value_with_partner(pos, deal, card, partner, choices))
    return rows


__all__ = ["PartnerChoices", "partner_values"]
