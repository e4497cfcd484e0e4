"""The bot interface, a helper to read a seat's view, and the registry of bot levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ulti.engine.actions import Action
from ulti.engine.view import SeatChoices, SeatView


class Bot(Protocol):
    """A bot chooses an action for ``seat`` from that seat's view alone (``Deal.seat_view(seat)``;
    a client holding the wire form parses it with ``SeatView.from_json``)."""

    def act(self, view: SeatView) -> Action:
        """The action to take now (the view's ``choices`` are not empty)."""
        ...


def seat_and_choices(view: SeatView) -> tuple[int, SeatChoices]:
    """The viewer's seat and what it may do (a ``ValueError`` for a view a bot cannot act on)."""
    if view.seat is None or view.choices is None:
        raise ValueError("a bot acts on a seat's view that offers choices")
    return view.seat, view.choices


# ------------------------------------------------------------------------------------ the registry
# The bots are imported when first made: the bot modules import this one, and the strong bot loads
# the compiled solver, which a process that only checks level names does not need.


def _random(rng: random.Random) -> Bot:
    from ulti.bots.random_bot import RandomBot

    return RandomBot(rng)


def _heuristic(rng: random.Random) -> Bot:
    from ulti.bots.heuristic import HeuristicBot

    return HeuristicBot(rng)


def _strong(rng: random.Random) -> Bot:
    from ulti.bots.strong import StrongBot

    return StrongBot(rng)


def _strong_fast(rng: random.Random) -> Bot:
    from ulti.bots.strong import StrongBot

    return StrongBot(rng, samples=8, auction_samples=4)


def _strong_96(rng: random.Random) -> Bot:
    from ulti.bots.expert import EXPERT_SAMPLES
    from ulti.bots.strong import StrongBot

    return StrongBot(rng, samples=EXPERT_SAMPLES)


def _expert(rng: random.Random) -> Bot:
    from ulti.bots.expert import ExpertBot

    return ExpertBot(rng)


def _expert_192(rng: random.Random) -> Bot:
    from ulti.bots.expert import EXPERT_SAMPLES, ExpertBot

    return ExpertBot(rng, samples=2 * EXPERT_SAMPLES)


def _expert_rejection(rng: random.Random) -> Bot:
    from ulti.bots.expert import RejectionExpert

    return RejectionExpert(rng)


def _expert_auction24(rng: random.Random) -> Bot:
    from ulti.bots.expert import RejectionExpert

    return RejectionExpert(rng, auction_samples=24)


def _expert_scaled(rng: random.Random) -> Bot:
    from ulti.bots.expert import ScaledExpert

    return ScaledExpert(rng)


def _expert_scaled192(rng: random.Random) -> Bot:
    from ulti.bots.expert import EXPERT_SAMPLES, ScaledExpert

    return ScaledExpert(rng, samples=2 * EXPERT_SAMPLES)


def _expert_fitted_scaled(rng: random.Random) -> Bot:
    from ulti.bots.expert import FittedScaledExpert

    return FittedScaledExpert(rng)


def _expert_fitted_bids(rng: random.Random) -> Bot:
    from ulti.bots.expert import FittedBidsExpert

    return FittedBidsExpert(rng)


def _expert_auction_evidence(rng: random.Random) -> Bot:
    from ulti.bots.expert import AuctionEvidenceExpert

    return AuctionEvidenceExpert(rng)


def _expert_played_auction(rng: random.Random) -> Bot:
    from ulti.bots.expert import PlayedAuctionExpert

    return PlayedAuctionExpert(rng)


def _expert_dd_auction(rng: random.Random) -> Bot:
    from ulti.bots.expert import DoubleDummyAuctionExpert

    return DoubleDummyAuctionExpert(rng)


def _expert_discards(rng: random.Random) -> Bot:
    from ulti.bots.expert import DiscardsExpert

    return DiscardsExpert(rng)


def _expert_discards_cards(rng: random.Random) -> Bot:
    from ulti.bots.expert import DiscardsCardsExpert

    return DiscardsCardsExpert(rng)


def _expert_blind_talon(rng: random.Random) -> Bot:
    from ulti.bots.expert import BlindTalonExpert

    return BlindTalonExpert(rng)


def _expert_lookahead(rng: random.Random) -> Bot:
    from ulti.bots.expert import LookaheadExpert

    return LookaheadExpert(rng)


def _expert_margin(rng: random.Random) -> Bot:
    from ulti.bots.expert import MarginExpert

    return MarginExpert(rng)


def _expert_partner(rng: random.Random) -> Bot:
    from ulti.bots.expert import PartnerExpert

    return PartnerExpert(rng)


def _expert_partner_trumps(rng: random.Random) -> Bot:
    from ulti.bots.expert import PartnerTrumpsExpert

    return PartnerTrumpsExpert(rng)


def _expert_passes(rng: random.Random) -> Bot:
    from ulti.bots.expert import PassReadingExpert

    return PassReadingExpert(rng)


@dataclass(frozen=True)
class Level:
    """A bot level: its name, how to make its bot, whether tables offer it (else arenas only), and
    whether it runs the compiled search (which holds the interpreter lock: a server runs such a bot in
    another process, never on a thread beside its event loop)."""

    name: str
    make: Callable[[random.Random], Bot]
    at_tables: bool = True
    searches: bool = True


#: Every bot level by name: the one list of level names (tables, arenas and the command line read it).
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", _random, searches=False),
        Level("heuristic", _heuristic, searches=False),
        Level("strong", _strong),  # kept unchanged: the yardstick the expert is measured against
        Level("expert", _expert),
        # the expert before the fitted declarer model and the Metropolis chain (rejection sampling), for arenas;
        # the variants below are of it
        Level("expert-rejection", _expert_rejection, at_tables=False),
        Level("expert-passes", _expert_passes, at_tables=False),  # reading passes too
        # three times the worlds per valued bid and discard (24)
        Level("expert-auction24", _expert_auction24, at_tables=False),
        # its evidence's likelihood scaled before rejection sampling
        Level("expert-scaled", _expert_scaled, at_tables=False),
        # the same with twice the expert's worlds per card decision (192), for arenas
        Level("expert-scaled192", _expert_scaled192, at_tables=False),
        # the rejection expert with the fitted declarer model and a scaled likelihood, for arenas
        Level("expert-fitted-scaled", _expert_fitted_scaled, at_tables=False),
        # the expert with twice its worlds per card decision (192), for arenas
        Level("expert-192", _expert_192, at_tables=False),
        # the expert whose defenders do not weigh the unseen talon (the expert before it did), for arenas
        Level("expert-blindtalon", _expert_blind_talon, at_tables=False),
        # the expert with the information-set lookahead in no-trump contracts, for arenas
        Level("expert-lookahead", _expert_lookahead, at_tables=False),
        # the expert breaking ties between cards by the card points behind them, for arenas
        Level("expert-margin", _expert_margin, at_tables=False),
        # the expert whose defenders value a no-trump card with the partner's next card from its own view
        Level("expert-partner", _expert_partner, at_tables=False),
        # ... and in trump contracts too, from the second trick (over 48 worlds)
        Level("expert-partner-trumps", _expert_partner_trumps, at_tables=False),
        # the expert weighing the other seats' bids by the fitted declarer model, for arenas
        Level("expert-fittedbids", _expert_fitted_bids, at_tables=False),
        # the expert whose auction weighs its worlds by the other seats' bids, for arenas
        Level("expert-auctionevidence", _expert_auction_evidence, at_tables=False),
        # the expert whose auction corrects its double-dummy values by what declarations bring played out
        # (the expert itself since it adopted that auction), and the expert before it (the strong bot's values)
        Level("expert-playedauction", _expert_played_auction, at_tables=False),
        Level("expert-ddauction", _expert_dd_auction, at_tables=False),
        # the expert weighing its worlds by the discards it picked up too: in its card play and kontra
        # (discardscards), and in its auction as well, which then reads the other seats' bids (discards)
        Level("expert-discardscards", _expert_discards_cards, at_tables=False),
        Level("expert-discards", _expert_discards, at_tables=False),
        Level("strong-fast", _strong_fast, at_tables=False),  # fewer samples, for arenas
        # the expert's worlds without its evidence: what of the expert's lead the worlds alone give
        Level("strong-96", _strong_96, at_tables=False),
    )
}

#: The levels a table may seat.
BOT_LEVELS: tuple[str, ...] = tuple(name for name, level in LEVELS.items() if level.at_tables)


def level_searches(level: str) -> bool:
    """Whether a bot of ``level`` runs the compiled search (True for an unknown name: the safe side)."""
    entry = LEVELS.get(level)
    return entry is None or entry.searches


def bot_for_level(level: str, rng: random.Random) -> Bot:
    """A bot of ``level``, any name of ``LEVELS`` (those with ``at_tables`` False are for arenas only)."""
    entry = LEVELS.get(level)
    if entry is None:
        names = list(LEVELS)
        raise ValueError(f"unknown bot level {level!r} ({', '.join(names[:-1])} or {names[-1]})")
    return entry.make(rng)
