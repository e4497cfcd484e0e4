"""Reconstruction: a whole engine ``Deal`` rebuilt from a world (hidden discards chosen backwards), log replayed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ulti.bots.sampling.inference import analyse
from ulti.bots.sampling.knowledge import TALON, Knowledge, World, discarder_before, pair_mask
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import Card, CardSet, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.view import LogEntry, SeatView


def _has_discard(log: Sequence[LogEntry]) -> list[bool]:
    out = []
    obliged = -2
    for entry in log:
        flag = False
        if entry.action is Kind.TAKE:
            obliged = entry.seat
        elif entry.action is Kind.BID:
            flag = obliged in (-2, entry.seat)
            obliged = -1
        out.append(flag)
    return out


def world_to_deal(view: SeatView, world: World, rng: random.Random) -> Deal:
    """An engine deal that gives ``view.seat`` exactly ``view``, with the unseen cards of ``world``.

    The auction's hidden discards are chosen backwards; then every logged action is replayed through
    the engine. Raises ``ValueError`` if ``world`` cannot be rebuilt (it is inconsistent with the view).
    """
    know = analyse(view)
    log = view.log
    dealt, discards = rebuild(know, log, world, rng)
    deal = Deal(dealt, view.dealer)
    for i, entry in enumerate(log):
        deal.apply(_action(entry, discards.get(i)))
    return deal


def rebuild(
    know: Knowledge, log: Sequence[LogEntry], world: World, rng: random.Random
) -> tuple[list[CardSet], dict[int, tuple[Card, Card]]]:
    """The dealt hands and the hidden discards (by log index) that lead to ``world``; ``ValueError`` if none.

    Walks the log backwards: a play returns its card to the hand, a discard returns the talon to the
    discarder, and a take of a talon the viewer never saw gives back two cards of the taker's hand,
    chosen among those the tracked knowledge allows (cards the taker could not have held before must be
    among them).
    """
    seat = know.seat
    hands = list(world.hands)
    talon = world.talon
    with_discard = _has_discard(log)
    discards: dict[int, tuple[Card, Card]] = {}
    for i in range(len(log) - 1, -1, -1):
        entry = log[i]
        s = entry.seat
        kind = entry.action
        if kind is Kind.PLAY:
            assert entry.card is not None
            hands[s] |= 1 << entry.card
        elif kind is Kind.BID and with_discard[i]:
            if talon.bit_count() != 2:
                raise ValueError(f"action {i}: the talon should hold 2 cards")
            own = entry.discard if s == seat else None
            if own is not None and talon != pair_mask(own):
                raise ValueError(f"action {i}: the talon is not the viewer's discard")
            a, b = iter_cards(talon)
            if own is not None:
                a, b = own
            discards[i] = (a, b)
            hands[s] |= talon
            talon = 0
        elif kind is Kind.TAKE:
            if s == seat:
                assert entry.cards is not None
                taken = entry.cards
            else:
                j = discarder_before(log, i)
                seen = log[j].discard if log[j].seat == seat else None
                if seen is not None:
                    taken = pair_mask(seen)
                else:
                    taken = _choose_taken(know, hands[s], s, i, j, log[j].seat, rng)
            if hands[s] & taken != taken:
                raise ValueError(f"action {i}: seat {s} does not hold the talon it took")
            hands[s] &= ~taken
            talon = taken
    if talon:
        raise ValueError("cards left in the talon before the opener's discard")
    return hands, discards


def _choose_taken(
    know: Knowledge, held: CardSet, taker: int, i: int, j: int, discarder: int, rng: random.Random
) -> CardSet:
    before_take = know.snapshots[i]
    before_discard = know.snapshots[j]
    others = 0
    for loc in range(4):
        if loc != discarder:
            others |= before_discard[loc]
    forced_at_discarder = before_discard[discarder] & ~others
    required = held & ~before_take[taker]
    if taker != discarder:
        required |= held & forced_at_discarder
    allowed = held & before_take[TALON]
    if required & ~allowed or required.bit_count() > 2:
        raise ValueError(f"action {i}: no talon fits")
    pool = list(iter_cards(allowed & ~required))
    rng.shuffle(pool)
    taken = required
    for card in pool:
        if taken.bit_count() == 2:
            break
        taken |= 1 << card
    if taken.bit_count() != 2:
        raise ValueError(f"action {i}: no talon fits")
    return taken


def _action(entry: LogEntry, discard: tuple[Card, Card] | None) -> Action:
    """The action an entry logs, with ``discard`` for a bid (the viewer sees only its own discards)."""
    return Action(entry.seat, entry.action, entry.bid, discard, entry.suit, entry.parts, entry.card)
