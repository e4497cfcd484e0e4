"""The strong bot as it was before the DDS-style solver, for old-against-new runs (benchmarks only).

``OldStrongBot`` is today's ``StrongBot`` with the card decision as it was (one ``value_after`` solve
per class of equivalent cards per world: ``_card`` below is the old code, unchanged) and every solve
running the old compiled search (``using_old_solver``). Everything else (sampling, auction, kontra,
settings) is shared code that this change did not touch.

``register()`` adds it as the bot level ``strong-old`` for arenas run through ``benchmarks.arena_old_new``
(an arena-only configuration of the laboratory, ``ulti.lab.configs``).
"""

from __future__ import annotations

from benchmarks.baseline import using_old_solver
from ulti.bots.levels import Level
from ulti.bots.sampling import Knowledge, Sampler
from ulti.bots.strong import StrongBot, position_of, value_after
from ulti.engine.actions import Action
from ulti.engine.cards import Card, count, iter_cards
from ulti.engine.view import SeatChoices, SeatView
from ulti.lab import configs

OLD_LEVEL = "strong-old"


class OldStrongBot(StrongBot):
    """The strong bot before this change: the old card decision on the old search."""

    def act(self, view: SeatView) -> Action:
        """The old bot's action (every solve on the old search)."""
        with using_old_solver():
            return super().act(view)

    def _card(self, view: SeatView, know: Knowledge, ch: SeatChoices) -> Card:
        legal = ch.cards
        if count(legal) == 1:
            return next(iter_cards(legal))
        groups = self._groups(legal, know)
        heuristic = self.fallback.choose_card(view, ch)
        if len(groups) == 1:
            return heuristic
        sampler = Sampler(know, self.card_likelihood(view, know))
        deadline = self.deadline(self.time_budget)
        totals = [0.0] * len(groups)
        n = 0
        while n < self.samples:
            world = sampler.draw(self.rng)
            if world is None:
                break
            pos = position_of(know, world)
            for k, group in enumerate(groups):
                totals[k] += value_after(pos, group[0])
            n += 1
            if n < self.samples and self.over(deadline, "card play"):
                break
        if n == 0:
            return heuristic
        sign = 1 if know.seat == know.declarer else -1
        scores = [sign * t / n for t in totals]
        best = max(scores)
        good = [g for g, s in zip(groups, scores, strict=True) if s >= best - 1e-9]
        for group in good:
            if heuristic in group:
                return heuristic
        # lowest card of the best class (cheapest to give)
        group = good[0]
        return group[0]


def register() -> None:
    """Add the configuration ``strong-old`` (arenas only) to this process's laboratory."""
    configs.register(Level(OLD_LEVEL, "benchmarks.baseline.old_bot:OldStrongBot", at_tables=False))
