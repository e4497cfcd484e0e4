"""The solver's line: every seat plays a best card of the true deal (all hands open) from a position on.

Among equally good cards the first in the engine's card order is played, so a line is one fixed
sequence that ``ulti puzzles check`` can replay exactly.
"""

from __future__ import annotations

from ulti.bots.solver import Objective, Position, solve
from ulti.engine import actions as act
from ulti.engine.cards import Card, card_str, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.errors import IllegalAction
from ulti.engine.phase import Phase
from ulti.engine.scoring import DealResult


def best_card(deal: Deal) -> Card:
    """The solver's card for the seat on turn of ``deal`` in its play: the first of its best cards."""
    legal = deal.legal_card_mask()
    if legal.bit_count() == 1:
        return next(iter_cards(legal))
    best = solve(Position.from_deal(deal), Objective.CONTRACT).best_cards & legal
    return next(iter_cards(best if best else legal))


def play(deal: Deal, card: Card) -> None:
    """Play ``card`` for the seat on turn of ``deal``."""
    seat = deal.to_move
    if seat is None:  # the engine's refusal of any action once the deal is over
        raise IllegalAction("deal_over")
    deal.apply(act.play(seat, card))


def replies(deal: Deal, seat: int) -> list[str]:
    """Play the other seats' solver cards on ``deal`` until ``seat`` is on turn or the deal ends; their codes."""
    out = []
    while deal.phase is Phase.PLAY and deal.to_move != seat:
        card = best_card(deal)
        play(deal, card)
        out.append(card_str(card))
    return out


def play_out(deal: Deal) -> tuple[list[str], DealResult | None]:
    """Play ``deal`` to its end by the solver's line; the cards played and the result."""
    cards = []
    while deal.phase is Phase.PLAY:
        card = best_card(deal)
        play(deal, card)
        cards.append(card_str(card))
    return cards, deal.result


def after(deal: Deal, card: Card) -> tuple[Deal, list[str], DealResult | None]:
    """A copy of ``deal`` where the seat on turn plays ``card`` and the solver's line follows to the end."""
    copy = deal.copy()
    play(copy, card)
    cards, result = play_out(copy)
    return copy, [card_str(card), *cards], result
