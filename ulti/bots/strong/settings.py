"""The strong bot's settings (shared by its play and auction halves): fixed work, and a safety stop.

Strength is a fixed amount of work per decision (``samples`` worlds per card decision, ``auction_samples``
per valued bid and discard), so a bot plays the same on a loaded machine as on an idle one and an arena
reproduces exactly from its seed. The time budgets are only a safety stop: a decision that runs past its
budget stops drawing worlds, and every such stop is counted (``safety_stops``) and logged, so a run whose
figures a stop may have changed says so. The defaults are far above the usual work (``make bench``: a
card decision takes at most about 1 CPU second, an auction decision about 0.5) even on a machine whose
cores are shared several times over: a 5-second card budget fired once in a loaded arena run.
"""

from __future__ import annotations

import logging
import random
import time

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.parts import SearchParts

log = logging.getLogger(__name__)


class StrongSettings:
    """The work per decision and the margins of a strong bot, and its safety-stop count."""

    #: the parts the bot decides with (``ulti.bots.parts``), set by the bot's constructor
    parts: SearchParts

    def __init__(
        self,
        rng: random.Random,
        samples: int = 32,
        time_budget: float = 60.0,
        auction_samples: int = 8,
        auction_budget: float = 120.0,
        pass_loss: float = 0.3,
        take_margin: float = 0.5,
        kontra_margin: float = 0.3,
        chain_margin: float = 0.5,
        late_chain_margin: float = 0.9,
    ) -> None:
        """A strong bot: ``samples`` worlds per card decision, ``auction_samples`` worlds per valued
        discard and bid. ``time_budget`` (card play and kontra) and ``auction_budget`` (auction, talon,
        trump) are safety stops in seconds, far above the usual work: when one fires the decision uses
        the worlds solved so far and ``safety_stops`` counts it."""
        self.rng = rng
        self.samples = samples
        self.time_budget = time_budget
        self.auction_samples = auction_samples
        self.auction_budget = auction_budget
        self.pass_loss = pass_loss
        self.take_margin = take_margin
        self.kontra_margin = kontra_margin
        self.chain_margin = chain_margin
        self.late_chain_margin = late_chain_margin
        self.fallback = HeuristicBot(rng)
        #: How many times the safety stop cut a decision's worlds short (0 in a run that reproduces from its seed).
        self.safety_stops = 0

    def deadline(self, budget: float) -> float:
        """The ``time.perf_counter()`` past which a decision with ``budget`` seconds stops (safety only)."""
        return time.perf_counter() + budget

    def over(self, deadline: float, what: str) -> bool:
        """Whether the safety stop fires now for the decision ``what``; a stop is counted and logged."""
        if time.perf_counter() <= deadline:
            return False
        self.safety_stops += 1
        log.warning("strong bot: safety stop fired in %s (%d so far)", what, self.safety_stops)
        return True
