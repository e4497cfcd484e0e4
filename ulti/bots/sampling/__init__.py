"""Worlds consistent with one seat's view: where the cards it cannot see may be, and random deals of them.

A bot sees only ``Deal.seat_view(seat)``. ``analyse(view)`` turns that view into ``Knowledge``: for every
location (the three seats and the talon) the set of cards that may lie there now, the hand sizes, the
cards played, and the marriage counts announced in trick 1. The sets come from

- the auction, replayed from the viewer's side: its own dealt hand, the cards it discarded (it knows
  where they went until somebody else discards again), the talons it picked up, and which seat's hidden
  discards the talon holds;
- the play, replayed through the engine's own rule of legal cards (``ulti.engine.play``): a seat that
  did not follow suit holds none of that suit, one that did not trump holds no trump, one that did not
  beat (or overtrump) holds no higher card, an ulti declarer who played the trump 7 early had no other
  legal card;
- the hands that are face up (open contracts) and the talon the viewer discarded.

``Sampler`` draws worlds uniformly from the deals allowed by those sets and hand sizes (an exact count
of the ways to split each kind of card among the locations), rejects those that contradict the marriage
announcements, and optionally accepts each with a caller's likelihood (soft evidence such as the bids).

``MetropolisSampler`` draws worlds distributed as a likelihood says by a Metropolis chain of card swaps:
where the evidence is strong, rejection sampling from uniform worlds can no longer reach the hands it
favours.

``world_to_deal`` rebuilds a whole engine ``Deal`` from a world (choosing the hidden discards of the
auction backwards) and replays the log: its ``seat_view(seat)`` must equal the real one (the tests check it).

The package in reading order: ``knowledge`` (``Knowledge``, ``World``), ``inference`` (``analyse``),
``sampler`` (``Sampler``), ``metropolis`` (``MetropolisSampler``), ``rebuild`` (``world_to_deal``).
"""

from ulti.bots.sampling.inference import analyse, forbidden_after
from ulti.bots.sampling.knowledge import TALON, Knowledge, World, discarder_before, pair_mask
from ulti.bots.sampling.metropolis import MetropolisSampler
from ulti.bots.sampling.rebuild import rebuild, world_to_deal
from ulti.bots.sampling.sampler import Sampler

__all__ = [
    "TALON",
    "Knowledge",
    "MetropolisSampler",
    "Sampler",
    "World",
    "analyse",
    "discarder_before",
    "forbidden_after",
    "pair_mask",
    "rebuild",
    "world_to_deal",
]
