"""The card-point margin behind a card whose contract value ties with others' (a tie-break for trump contracts).

Most card decisions are ties: several classes of legal cards bring the same contract value in every sampled
world, because double-dummy the contract is already decided. At the table it is not: the seats after the
card do not see the hidden hands and go wrong. Where the party (or a 100) is played, the card points behind
the decided value say how far a seat is from that value changing: a declarer who keeps 20 points more in
hand can afford a defender's good guess; a defender who holds the declarer 10 points lower leaves it one
misstep from losing. Bridge programs break their ties the same way, by tricks beyond the contract.

``declarer_points_after`` finds, double-dummy, the declarer's final total after one card (the solver's
``Objective.points`` asked "at least t?" stepwise from a guess: totals are multiples of 10);
``margin_totals`` sums it over worlds for the tied classes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ulti.bots.solver import Objective, Position, solve
from ulti.bots.strong import advance
from ulti.engine.cards import CARD_POINT_VALUE, FULL_DECK, Card, card_points
from ulti.engine.contracts import Part
from ulti.engine.scoring import LAST_TRICK_BONUS

#: The parts whose value depends on the card points (a party, a 100): where the margin means something.
POINT_PARTS = (Part.SIMPLE, Part.FORTY_HUNDRED, Part.TWENTY_HUNDRED)
#: Card points come in steps of an ace's or a ten's value (the last trick's bonus is the same).
POINT_STEP = CARD_POINT_VALUE
#: The most a declarer's tricks can hold: every ace and ten, and the last trick.
MOST_POINTS = card_points(FULL_DECK) + LAST_TRICK_BONUS


def plays_for_points(pos: Position) -> bool:
    """Whether ``pos``'s contract has trumps and a part decided by the card points."""
    return pos.bid.has_trumps and any(pos.bid.has(part) for part in POINT_PARTS)


def _reaches(pos: Position, total: int) -> bool:
    """Whether the declarer, double-dummy, ends with at least ``total`` card points (marriages aside)."""
    return bool(solve(pos, Objective.points(total), best_cards=False).value)


def declarer_points_after(pos: Position, card: Card, guess: int | None = None) -> int:
    """The declarer's final card points (its tricks' aces and tens, the last trick's 10) under perfect
    play after the seat to move in ``pos`` (a trump contract) plays ``card``; ``guess``: a likely answer,
    where the stepwise search starts (the fewer steps, the fewer solves)."""
    after = advance(pos, card)
    assert not isinstance(after, int), "a trump contract is never decided before its last trick"
    low = after.declarer_points  # already taken: reached whatever the play
    # totals are multiples of 10, as the points already taken are: start on one at or below the guess
    start = low if guess is None else low + (min(max(guess, low), MOST_POINTS) - low) // POINT_STEP * POINT_STEP
    if start > low and not _reaches(after, start):
        total = start - POINT_STEP
        while total > low and not _reaches(after, total):
            total -= POINT_STEP
        return total
    total = start
    while total < MOST_POINTS and _reaches(after, total + POINT_STEP):
        total += POINT_STEP
    return total


def margin_totals(positions: Sequence[Position], cards: Sequence[Card]) -> list[int]:
    """Per card of ``cards``, the declarer's final card points summed over the worlds ``positions`` (each
    with the same seat to move), double-dummy after that card."""
    totals = [0] * len(cards)
    guess: int | None = None  # the last answer: the classes of one world, and the worlds, end close together
    for pos in positions:
        for k, card in enumerate(cards):
            guess = declarer_points_after(pos, card, guess)
            totals[k] += guess
    return totals
