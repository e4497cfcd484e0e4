"""A bot that picks uniformly among its legal choices (for tests and baselines)."""

from __future__ import annotations

import random

from ulti.bots.interface import seat_and_choices
from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import cards_of
from ulti.engine.contracts import bids_above
from ulti.engine.deal import Deal, Phase
from ulti.engine.view import SeatView


class RandomBot:
    """Chooses any legal action at random; discards two random cards when it must."""

    def __init__(self, rng: random.Random) -> None:
        """A random bot drawing from ``rng``."""
        self.rng = rng

    def act(self, view: SeatView) -> Action:
        """A uniformly random legal action for the viewer's seat."""
        seat, ch = seat_and_choices(view)
        rng = self.rng
        options: list[Action] = []
        if ch.may_pass:
            options += [act.pass_(seat)] * 4  # passing often keeps random auctions short
        if ch.may_take:
            options.append(act.take(seat))
        if ch.bids:
            bid = rng.choice(ch.bids[:6])
            discard = None
            if ch.must_discard:
                a, b = rng.sample(cards_of(view.hand), 2)
                discard = (a, b)
            options.append(act.bid(seat, bid, discard))
        options += [act.trump(seat, s) for s in ch.trumps]
        if ch.may_give_up:
            options.append(act.give_up(seat))
        if ch.cards:
            options.append(act.play(seat, rng.choice(cards_of(ch.cards))))
        if ch.kontra is not None and (not options or rng.random() < 0.3):
            chosen = tuple(p for p in ch.kontra.parts if rng.random() < 0.5)
            return act.kontra(seat, chosen)
        return rng.choice(options)


def random_card(mask: int, rng: random.Random) -> int:
    """A uniformly random card of the non-empty set ``mask``."""
    k = rng.randrange(mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_legal_action(deal: Deal, rng: random.Random, kontra_rate: float = 0.2) -> Action:
    """A random legal action for the seat on turn, read from the whole deal (simulations, tests).

    It passes often so that auctions end, takes the talon sometimes, says kontra at ``kontra_rate``.
    """
    seat = deal.to_move
    if seat is None:
        raise ValueError("the deal is over: nobody is on turn")
    phase = deal.phase
    if phase is Phase.PLAY:
        if deal.in_chain or deal.kontra_time(seat):
            ch = deal.choices(seat)
            if ch.kontra_step and (not ch.cards or rng.random() < kontra_rate):
                return act.kontra(seat, tuple(p for p in ch.kontra_parts if rng.random() < 0.5))
            if not ch.cards:  # pragma: no cover - the chain speaker always has a kontra step
                raise RuntimeError("no action")
        return act.play(seat, random_card(deal.legal_card_mask(), rng))
    if phase is Phase.TRUMP:
        if deal.contract is not None and deal.contract.code == "M-S" and rng.random() < 0.1:
            return act.give_up(seat)
        return act.trump(seat, rng.randrange(3))
    bids = bids_above(deal.high_bid)
    if deal.obliged:
        a, b = rng.sample(cards_of(deal.hands[seat]), 2)
        return act.bid(seat, rng.choice(bids[:6]), (a, b))
    roll = rng.random()
    if bids and roll < 0.12:
        return act.take(seat)
    if bids and roll < 0.25:
        return act.bid(seat, rng.choice(bids[:6]))
    return act.pass_(seat)
