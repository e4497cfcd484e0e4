"""A searching bot's settings (fixed work and margins) and its safety stop.

Strength is a fixed amount of work per decision (``samples`` worlds per card decision, ``auction_samples``
per valued bid and discard), so a bot plays the same on a loaded machine as on an idle one and an arena
reproduces exactly from its seed. The time budgets are only a safety stop: a decision that runs past its
budget stops drawing worlds, and every such stop is counted (``SafetyStop.count``) and logged, so a run
whose figures a stop may have changed says so. The defaults are far above the usual work (``make bench``:
a card decision takes at most about 1 CPU second, an auction decision about 0.5) even on a machine whose
cores are shared several times over.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    """The work per decision and the margins of a searching bot.

    ``samples`` worlds per card decision, ``auction_samples`` per valued discard and bid; ``time_budget``
    (card play and kontra) and ``auction_budget`` (auction, talon, trump) are safety stops in seconds. The
    margins: ``pass_loss`` (a defender's expected loss per stake, what passing costs), ``take_margin``
    (taking the talon must beat passing by this much), ``kontra_margin``, ``chain_margin`` and
    ``late_chain_margin`` (a raise at the first, second and later kontra steps must gain this many stakes).
    ``repertoire``: the bid codes the bot ever chooses to declare (``None``: all of them); a bot made to
    declare with none of its repertoire allowed declares from all the allowed bids.
    """

    samples: int = 32
    time_budget: float = 60.0
    auction_samples: int = 8
    auction_budget: float = 120.0
    pass_loss: float = 0.3
    take_margin: float = 0.5
    kontra_margin: float = 0.3
    chain_margin: float = 0.5
    late_chain_margin: float = 0.9
    repertoire: frozenset[str] | None = None

    def declarable(self, allowed: set[str]) -> set[str]:
        """The bids of ``allowed`` this bot would choose to declare: its repertoire among them, or all of
        ``allowed`` when none of its repertoire is."""
        if self.repertoire is None:
            return allowed
        return (allowed & self.repertoire) or allowed


class SafetyStop:
    """The safety stop of a bot's decisions, and how many times it fired."""

    def __init__(self) -> None:
        """A stop that has not fired."""
        #: How many times the stop cut a decision's worlds short (0 in a run that reproduces from its seed).
        self.count = 0

    def deadline(self, budget: float) -> float:
        """The ``time.perf_counter()`` past which a decision with ``budget`` seconds stops."""
        return time.perf_counter() + budget

    def over(self, deadline: float, what: str) -> bool:
        """Whether the stop fires now for the decision ``what``; a stop is counted and logged."""
        if time.perf_counter() <= deadline:
            return False
        self.count += 1
        log.warning("searching bot: safety stop fired in %s (%d so far)", what, self.count)
        return True
