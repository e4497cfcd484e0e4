"""The named parts a searching bot is composed of, and the configuration that joins them.

A searching bot (``ulti.bots.strong.SearchBot``: ``strong``, ``expert`` and the laboratory's
configurations) decides every action the same way: it draws worlds of the hidden cards consistent with its
view, solves each double-dummy, and chooses from the values. What differs between the product's bots is
which parts do that, and ``SearchParts`` names them:

- ``weighting``: how likely each world is, from the seat's view (the evidence the bot reads);
- ``drawer``: how worlds are drawn with that weighting (rejection sampling, a Metropolis chain);
- ``declaration_value``: what a declaration is taken to be worth from its worlds' double-dummy mean;
- ``step_gain``: what raising a part one kontra step gains the seat, from each world's value as it
  stands and raised.

Every part is handed what it reads; none reaches into the bot. The auction's worlds are uniform for every
bot (the auction's evidence moved no estimate measurably: docs/lab-journal.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ulti.bots.sampling import Knowledge, Sampler, World
from ulti.engine.contracts import Bid, Part
from ulti.engine.view import SeatView

#: How likely a world is (unnormalised, 0..1); None where every world is alike.
Likelihood = Callable[[World], float]


class Weighting(Protocol):
    """The likelihood the worlds of a card or kontra decision are weighed by, from the deciding seat's view
    (``know``: the view analysed); None when the view says nothing that tells worlds apart."""

    def __call__(self, view: SeatView, know: Knowledge) -> Likelihood | None:
        """The likelihood for this decision."""
        ...


class Drawer(Protocol):
    """Draws the worlds of ``know`` distributed as ``likelihood`` says."""

    def __call__(self, know: Knowledge, likelihood: Likelihood | None) -> Sampler:
        """A sampler of those worlds."""
        ...


class DeclarationValue(Protocol):
    """What a declaration of ``bid`` is taken to be worth (per_defender) when its sampled worlds, solved
    double-dummy, give ``solved`` on average."""

    def __call__(self, bid: Bid, solved: float) -> float:
        """The declaration's value."""
        ...


class StepGain(Protocol):
    """The seat's gain per world from raising ``part`` one kontra step: each world's contract value
    (per_defender, the declarer's side) as it stands (``base``) and with the part raised (``raised``)."""

    def __call__(self, know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
        """The mean gain (minus infinity: never raise)."""
        ...


def rejection_drawer(know: Knowledge, likelihood: Likelihood | None) -> Sampler:
    """Rejection sampling: a uniform world kept with probability ``likelihood(world)``."""
    return Sampler(know, likelihood)


def double_dummy_value(bid: Bid, solved: float) -> float:
    """A declaration is worth its worlds' double-dummy mean."""
    return solved


def standing_gain(know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
    """The seat's mean gain per world, the raise valued as if the opponents let it stand."""
    gain = (sum(raised) - sum(base)) / len(base)
    return gain if know.seat == know.declarer else -gain


@dataclass(frozen=True)
class SearchParts:
    """The parts a searching bot decides with (the module docstring)."""

    weighting: Weighting
    drawer: Drawer
    declaration_value: DeclarationValue = double_dummy_value
    step_gain: StepGain = standing_gain
