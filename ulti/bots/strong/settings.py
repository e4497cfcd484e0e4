"""The strong bot's settings (shared by its play and auction halves)."""

from __future__ import annotations

import random

from ulti.bots.heuristic import HeuristicBot


class StrongSettings:
    """The work caps and margins of a strong bot."""

    def __init__(
        self,
        rng: random.Random,
        samples: int = 32,
        time_budget: float = 0.25,
        auction_samples: int = 8,
        auction_budget: float = 0.8,
        pass_loss: float = 0.3,
        take_margin: float = 0.5,
        kontra_margin: float = 0.3,
        chain_margin: float = 0.5,
        late_chain_margin: float = 0.9,
    ) -> None:
        """A strong bot: ``samples`` worlds per card decision within ``time_budget`` seconds;
        ``auction_samples`` worlds per valued discard and bid within ``auction_budget`` seconds."""
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
