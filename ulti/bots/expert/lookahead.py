"""A card decision that does not assume its own next card will see the hidden hands (strategy fusion).

Plain sampling values each card by solving every sampled world double-dummy: as if, from the next card
on, the deciding seat knew which world is the true one. Where the right card later depends on where the
hidden cards lie, every world's solve finds it, and a card that leaves that guess to come is valued as
if the guess were free. In a betli defence that is the lead: many leads are "winning" in each world,
because each world's solve finds the forcing switch a trick later; at the table the defender must guess
it.

The information-set lookahead (``lookahead_totals``) values a card more honestly: after the card, the other
seats play on as the solver plays them in each world (each sees everything: they are not the seat
deciding), up to the deciding seat's next turn; there the worlds it cannot tell apart (the same cards seen
since) must share one card, the one with the best total over them when each is solved after it; and so on
for its next ``turns`` cards, the rest of each world solved. With one turn this is α-μ search with one
move of memory for the deciding seat (Cazenave and Ventos, "The αμ search algorithm for the game of
Bridge", 2019); with more, the seat's later cards follow that greedy shared choice, the opponents and the
partner still taken per world as plain sampling takes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ulti.bots.solver import Objective, Position, solve, values_after
from ulti.bots.strong import advance, solve_value
from ulti.engine.cards import Card, CardSet, iter_cards
from ulti.engine.contracts import Part
from ulti.engine.play import TRICKS_PER_DEAL, legal_cards, seven_of, trick_winner_index


def legal_in(pos: Position) -> CardSet:
    """The legal cards of the seat to move in ``pos`` (an ulti declarer holds its trump 7 back, §3.4)."""
    seat = pos.to_move
    held = seven_of(pos.trump) if seat == pos.declarer and pos.bid.has(Part.ULTI) else -1
    if not pos.trick:
        return legal_cards(pos.hands[seat], -1, -1, pos.trump, held)
    top = pos.trick[trick_winner_index(list(pos.trick), pos.trump)]
    return legal_cards(pos.hands[seat], pos.trick[0] >> 3, top, pos.trump, held)


def step(pos: Position, card: Card) -> Position | int:
    """The position after the seat to move plays ``card`` (``advance``), or the contract's final value
    when the play ends: in a trump contract's last trick, where every card is forced, the solver's."""
    if pos.bid.has_trumps and pos.tricks_done == TRICKS_PER_DEAL - 1:
        return solve_value(pos)
    return advance(pos, card)


def solver_card(pos: Position) -> Card:
    """The card the solver plays for the seat to move in ``pos``: the lowest of its best cards."""
    best = solve(pos, Objective.CONTRACT, best_cards=True).best_cards
    return next(iter_cards(best))


def shared_choice(group: Sequence[Position], sign: int) -> tuple[Card, list[int]]:
    """The card the deciding seat plays in all worlds of ``group`` (its turn in each, the same hand and the
    same cards seen): the one with the best total score (``sign`` × per_defender) over them when each
    world is solved after it; with each world's value after it."""
    legal = list(iter_cards(legal_in(group[0])))
    per_world = [values_after(pos, legal) for pos in group]
    totals = [sum(sign * values[k] for values in per_world) for k in range(len(legal))]
    k = totals.index(max(totals))
    return legal[k], [values[k] for values in per_world]


def _play_on(pos: Position, seat: int, seen: tuple[Card, ...]) -> tuple[Position | int, tuple[Card, ...]]:
    """Play on from ``pos`` as the solver plays every seat but ``seat``, up to ``seat``'s turn or the
    end: the position (or final value) reached and the cards seen, ``seen`` first."""
    cards = list(seen)
    nxt: Position | int = pos
    while isinstance(nxt, Position) and nxt.to_move != seat:
        played = solver_card(nxt)
        cards.append(played)
        nxt = step(nxt, played)
    return nxt, tuple(cards)


#: Worlds alike to the deciding seat, each with the cards it has seen since the decision.
Group = list[tuple[Position, tuple[Card, ...]]]


def _after_card(group: Group, card: Card, seat: int, sign: int, turns: int) -> int:
    """The seat's total over the worlds of ``group`` when it plays ``card`` in all of them and then its next
    ``turns`` cards alike in the worlds it cannot tell apart by then (``_shared_value``)."""
    total = 0
    groups: dict[tuple[Card, ...], Group] = {}
    for pos, seen in group:
        after = step(pos, card)
        reached, cards = (after, seen) if isinstance(after, int) else _play_on(after, seat, (*seen, card))
        if isinstance(reached, int):
            total += sign * reached
        else:
            groups.setdefault(cards, []).append((reached, cards))
    return total + sum(_shared_value(g, seat, sign, turns) for g in groups.values())


def _shared_value(group: Group, seat: int, sign: int, turns: int) -> int:
    """The seat's total over the worlds of ``group`` (at its turn, alike to it) when it plays its next
    ``turns`` cards alike in the worlds it cannot tell apart (``shared_choice``), the rest solved."""
    card, values = shared_choice([pos for pos, _ in group], sign)
    if turns <= 1:
        return sum(sign * v for v in values)
    return _after_card(group, card, seat, sign, turns - 1)


def lookahead_totals(positions: Sequence[Position], cards: Sequence[Card], sign: int, turns: int = 1) -> list[int]:
    """Per card of ``cards`` (the seat to move's candidates, one per class), its total score over the
    worlds ``positions`` (``sign`` × per_defender: 1 for the declarer, -1 for a defender), with the seat's
    next ``turns`` cards shared by the worlds it cannot tell apart by then (the module docstring). Never
    above the plain total (every world solved after the card): the shared card is one of each world's
    choices."""
    seat = positions[0].to_move
    start: Group = [(pos, ()) for pos in positions]
    return [_after_card(start, card, seat, sign, turns) for card in cards]


__all__ = ["legal_in", "lookahead_totals", "shared_choice", "solver_card", "step"]
