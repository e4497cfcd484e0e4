"""The searching bots: deal the unseen cards many times and solve each deal exactly (double dummy).

The strong bot (``strong_bot``) reads only its seat's view (``Deal.seat_view(seat)``), through ``ulti.bots.sampling``:

- **Card play.** Worlds consistent with the view (own hand, cards played, voids and "could not beat"
  shown by the play, talons handled, open hands, marriage announcements), with the bid as soft
  evidence about a declarer's hand (a likelihood each world is accepted with). Each world is solved
  with ``Objective.CONTRACT`` once per distinct legal card (cards that are equivalent from the
  viewer's side are solved once); the card with the best mean ``per_defender`` is played (the
  declarer maximises it, a defender minimises it). Ties go to the heuristic bot's card. Each world is
  solved only as far as that choice needs (``play.CardTable``): the leading class exactly, every other
  class only "is it better here?" (one null-window search), and at the end whatever the choice still
  depends on, so the card is the one every exact value would give, for less work.
- **Kontra and the chain.** The same worlds, solved with and without each part raised one step: a
  part is raised when the mean gain beats a safety margin.
- **Auction, talon, trump, give-up.** Candidate discards (a few per trump suit, and for no-trump bids)
  and the plausible bids of each are valued by solving a few worlds of the other hands at the start
  of play; the best expected score (2 × per_defender as declarer) is bid, the talon is taken when the
  best expected score with it (a few talons sampled) beats passing (a defender's rough expected loss),
  the trump with the best mean is named, an M-S is given up when playing loses more than the 2 per
  defender the give-up costs.

Work per decision is fixed: ``samples`` worlds per card decision, ``auction_samples`` per valued bid
and discard, so the bot plays the same under any load and reproduces from its rng's seed. ``time_budget``
(card play, kontra) and ``auction_budget`` (auction, talon, trump) are only safety stops, checked between
worlds; each stop that fires is counted in ``SearchBot.stop`` and logged (``settings``).

How worlds are weighed and drawn, what a declaration is worth and what a kontra step gains are parts
(``ulti.bots.parts``). ``SearchBot`` is the one searching bot: its ``CardPlay`` and ``Auction`` halves
are handed its settings, its parts and what each decision reads (the view, its analysis, the choices).
The strong bot is a ``SearchBot`` with the strong bot's parts (``STRONG_PARTS``: the hand-written fit
above, rejection sampling, double-dummy means, a raise valued as if it stands); the expert is one with its
own (``ulti.bots.expert.expert_bot``).

The package in reading order: ``hand`` (hand evaluation), ``settings``, ``play`` (solver positions,
card play, kontra), ``auction`` (auction, talon, trump, give-up); ``SearchBot`` joins them here.
"""

from __future__ import annotations

import random
from typing import Any

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.interface import seat_and_choices
from ulti.bots.parts import Likelihood, SearchParts, rejection_drawer
from ulti.bots.sampling import Knowledge, analyse
from ulti.bots.strong.auction import GIVE_UP, Auction, BidEstimate, trump_choice
from ulti.bots.strong.hand import bid_trumps, declarer_likelihood, discard_options, durchmars_losers, plausible_bids
from ulti.bots.strong.play import (
    CardPlay,
    advance,
    choose_class,
    declarer_weight,
    equal_groups,
    kontra_samples,
    position_of,
    solve_value,
    value_after,
)
from ulti.bots.strong.settings import SafetyStop, Settings
from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.deal import Phase
from ulti.engine.view import SeatView


def hand_fit_weighting(view: SeatView, know: Knowledge) -> Likelihood | None:
    """The strong bot's weighting: a defender weighs each world by how well the declarer's hand fits the
    contract (``declarer_weight``); the view's log is not read."""
    return declarer_weight(know)


#: The strong bot's parts (``ulti.bots.parts``): the hand-written fit, rejection sampling, double-dummy
#: declaration values, a raise valued as if it stands.
STRONG_PARTS = SearchParts(weighting=hand_fit_weighting, drawer=rejection_drawer)


class SearchBot:
    """Sampling + double-dummy solving for card play, kontra, bidding and the talon, deciding with its
    ``parts`` and ``settings``: the card play (``play``) and the auction (``auction``) share its rng, its
    settings, its parts and its safety stop."""

    def __init__(self, rng: random.Random, parts: SearchParts, settings: Settings) -> None:
        """A searching bot drawing from ``rng`` (the heuristic bot it falls back on draws from it too)."""
        self.parts = parts
        self.settings = settings
        self.stop = SafetyStop()
        self.fallback = HeuristicBot(rng)
        self.play = CardPlay(rng, settings, parts, self.stop, self.fallback)
        self.auction = Auction(rng, settings, parts, self.stop)

    @property
    def safety_stops(self) -> int:
        """How many times the safety stop cut a decision's worlds short (``SafetyStop.count``)."""
        return self.stop.count

    @property
    def estimate(self) -> BidEstimate | None:
        """Why the last auction action was a bid (``Auction.estimate``)."""
        return self.auction.estimate

    def act(self, view: SeatView) -> Action:
        """The bot's action for its seat, given its view."""
        seat, ch = seat_and_choices(view)
        know = analyse(view)
        if view.phase is Phase.AUCTION:
            return self.auction.bid(know, ch)
        if view.phase is Phase.TRUMP:
            return self.auction.trump(know, ch)
        if ch.kontra is not None:
            last = view.log[-1] if view.log else None
            already = last is not None and last.seat == seat and last.action is Kind.KONTRA
            if not (already and ch.cards):
                parts = self.play.kontra(view, know, ch)
                if parts or not ch.cards:
                    return act.kontra(seat, parts)
        return act.play(seat, self.play.card(view, know, ch))


def strong_bot(rng: random.Random, **settings: Any) -> SearchBot:
    """The strong bot drawing from ``rng``: the strong bot's parts (``STRONG_PARTS``) and ``settings``
    (``Settings``: its work and margins, the defaults unless given)."""
    return SearchBot(rng, STRONG_PARTS, Settings(**settings))


__all__ = [
    "GIVE_UP",
    "STRONG_PARTS",
    "Auction",
    "BidEstimate",
    "CardPlay",
    "SafetyStop",
    "SearchBot",
    "Settings",
    "advance",
    "bid_trumps",
    "choose_class",
    "declarer_likelihood",
    "declarer_weight",
    "discard_options",
    "durchmars_losers",
    "equal_groups",
    "hand_fit_weighting",
    "kontra_samples",
    "plausible_bids",
    "position_of",
    "solve_value",
    "strong_bot",
    "trump_choice",
    "value_after",
]
