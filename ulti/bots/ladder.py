"""The ladder: searching-bot levels below the expert that play like people of a given strength.

Each rung is the searching bot (``ulti.bots.strong.SearchBot`` with the strong bot's parts) made weaker the
way a person is weaker, never by random junk:

- **Fewer worlds** per card decision and per valued declaration: its picture of the hidden hands is rougher,
  so its bids and cards are off by what a rough picture costs.
- **Mistakes sized by what they cost** at the cards: every class of legal cards is solved exactly in every
  world, and the card is drawn from the bot's own rng with odds that fall with the class's mean loss against
  the best (a softmax with the rung's ``temperature``, in per_defender points): a class that loses little is
  often played, one that loses much rarely, and one that loses more than the rung's ``limit`` (an ace thrown
  away to a trick it wins for free, a game handed over) never. Classes that tie the best are not mistakes:
  the bot's own choice (the heuristic's card among equals) stands for them all, as a person keeps the
  natural card when nothing hangs on it.
- **Caution in the auction and kontra**: the talon is taken and a kontra step said only with a larger margin
  than the strong bot's. The offered rungs' first-kontra margins are set where the kontras
  they say win on average once played out by their own card play (``ulti.lab.kontra_calibration --level
  RUNG``): a rung's estimate is rougher than the expert's, so its margin is wider.
- **A club player's judgement**: the top rung values its kontra steps as the expert does (what such steps
  brought played out, ``ulti.bots.expert``), not by the double-dummy mean that makes a searching bot's
  defenders confident; but it values its declarations by that mean, as the lower rungs do: it hopes for
  more from a durchmars or a 100 than they bring, the club player's costly mistake.
- **A beginner's repertoire**: the lowest rung never chooses a durchmars, an open contract or a 20-100 (the
  contracts a newcomer does not yet dare or count): it plays the Simple games, 40-100, ulti and betli, and
  declares anything else only when nothing of its repertoire is allowed.

A seed replays a rung's every choice: the work per decision is fixed and every draw comes from the bot's rng.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ulti.bots.expert.step_values import calibrated_gain
from ulti.bots.parts import SearchParts
from ulti.bots.strong import STRONG_PARTS, SearchBot, Settings
from ulti.bots.strong.play import CardTable
from ulti.engine.contracts import BIDS, Part


@dataclass(frozen=True)
class Temper:
    """How a rung errs at the cards: ``temperature`` (per_defender points) of the odds over the classes' mean
    loss against the best, and ``limit``: a class losing more than this on average is never played."""

    temperature: float
    limit: float


@dataclass(frozen=True)
class Rung:
    """One level of the ladder: its card ``temper``, its work (``samples`` worlds per card decision,
    ``auction_samples`` per valued declaration) and its margins (``Settings``: taking the talon, kontra at
    the first, second and later steps), its ``repertoire`` of bids (``None``: every bid) and whether it
    judges kontra steps as the expert does (``sound_judgement``)."""

    temper: Temper
    samples: int
    auction_samples: int
    take_margin: float
    kontra_margin: float
    chain_margin: float
    late_chain_margin: float
    repertoire: frozenset[str] | None = None
    sound_judgement: bool = False

    def parts(self) -> SearchParts:
        """The searching bot's parts of this rung: the strong bot's, with the expert's valuation of kontra
        steps for a rung of sound judgement (its declarations keep the double-dummy mean)."""
        if not self.sound_judgement:
            return STRONG_PARTS
        return replace(STRONG_PARTS, step_gain=calibrated_gain)

    def settings(self, **overrides: Any) -> Settings:
        """The searching bot's settings of this rung (``overrides``: any ``Settings`` field, e.g. a budget)."""
        fields: dict[str, Any] = {
            "samples": self.samples,
            "auction_samples": self.auction_samples,
            "take_margin": self.take_margin,
            "kontra_margin": self.kontra_margin,
            "chain_margin": self.chain_margin,
            "late_chain_margin": self.late_chain_margin,
            "repertoire": self.repertoire,
        }
        fields.update(overrides)
        return Settings(**fields)


#: The bids a beginner chooses: no durchmars, no open contract, no 20-100.
BEGINNERS_BIDS = frozenset(
    bid.code for bid in BIDS
    if not bid.is_open and not bid.has(Part.DURCHMARS) and not bid.has(Part.TWENTY_HUNDRED)
)

#: The rungs from the lowest up (the strong bot: 32 worlds, take 0.5, kontra 0.3 / 0.5 / 0.9, no mistakes).
RUNGS: dict[str, Rung] = {
    "beginner": Rung(Temper(0.7, 1.0), 8, 4, 1.0, 1.3, 1.5, 2.5, BEGINNERS_BIDS),
    "casual": Rung(Temper(0.5, 0.9), 12, 6, 0.8, 0.6, 1.0, 1.8),
    "club": Rung(Temper(0.22, 0.65), 24, 8, 0.6, 0.75, 0.7, 1.2, sound_judgement=True),
}


def class_losses(totals: Sequence[float], worlds: int) -> list[float]:
    """Each class's mean loss against the best class, per_defender points, from the classes' total scores
    over ``worlds`` worlds (the deciding seat's score: higher is better)."""
    best = max(totals)
    return [(best - total) / worlds for total in totals]


def choice_odds(totals: Sequence[float], worlds: int, chosen: int, temper: Temper) -> list[float]:
    """The probability of playing each class: the bot's own choice ``chosen`` (a best class) weighs 1, every
    class that loses on average weighs ``exp(-loss / temperature)`` if the loss is within the ``limit``, else
    0; the other best classes weigh 0 (a tie is no mistake: the bot's own choice stands for them)."""
    losses = class_losses(totals, worlds)
    weights = [
        1.0 if k == chosen else math.exp(-loss / temper.temperature) if 0 < loss <= temper.limit else 0.0
        for k, loss in enumerate(losses)
    ]
    whole = sum(weights)
    return [w / whole for w in weights]


def expected_loss(totals: Sequence[float], worlds: int, chosen: int, temper: Temper) -> float:
    """The mean loss per_defender a rung of ``temper`` expects to give away on this decision."""
    odds = choice_odds(totals, worlds, chosen, temper)
    return sum(p * loss for p, loss in zip(odds, class_losses(totals, worlds), strict=True))


def draw(odds: Sequence[float], rng: random.Random) -> int:
    """A class drawn with ``odds`` (summing to 1) from ``rng``: one draw, so a seed replays it."""
    point = rng.random()
    for k, p in enumerate(odds):
        point -= p
        if point < 0:
            return k
    # rounding can leave a sliver past the last class: the last class with any weight takes it
    return max(k for k, p in enumerate(odds) if p > 0)


class HumanChooser:
    """A card decision's ``CardPlay.chooser`` for a rung: the class drawn by ``choice_odds`` from a table
    whose every entry is exact (the bot's play is made non-lazy)."""

    def __init__(self, rng: random.Random, temper: Temper) -> None:
        """A chooser drawing from ``rng`` (the bot's own) with ``temper``."""
        self.rng = rng
        self.temper = temper

    def __call__(self, table: CardTable) -> int:
        """The class to play from ``table`` (settled)."""
        chosen = table.decide()
        odds = choice_odds(table.totals(), table.worlds, chosen, self.temper)
        if odds[chosen] == 1.0:
            return chosen  # no other class within the limit: nothing to draw
        return draw(odds, self.rng)


def ladder_bot(rng: random.Random, rung: str, **settings: Any) -> SearchBot:
    """The bot of the ladder's ``rung`` (a name of ``RUNGS``) drawing from ``rng``; ``settings`` override
    the rung's ``Settings`` fields."""
    step = RUNGS[rung]
    bot = SearchBot(rng, step.parts(), step.settings(**settings))
    # every class exact in every world: a mistake's odds are sized by the classes' true mean losses
    bot.play.lazy = False
    bot.play.chooser = HumanChooser(rng, step.temper)
    return bot
