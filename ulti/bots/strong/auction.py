"""Auction, talon, trump and give-up: a searching bot's bids and discards valued by solving sampled worlds at
the start of play."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ulti.bots.heuristic import trump_strength
from ulti.bots.parts import SearchParts
from ulti.bots.sampling import Knowledge, Sampler, World
from ulti.bots.solver import Position
from ulti.bots.strong.hand import bid_trumps, discard_cost, discard_options, plausible_bids
from ulti.bots.strong.play import solve_value
from ulti.bots.strong.settings import SafetyStop, Settings
from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_MASKS, Card, CardSet, count, iter_cards
from ulti.engine.contracts import BIDS, BIDS_BY_CODE, Bid
from ulti.engine.play import NO_TRUMP
from ulti.engine.view import SeatChoices

#: Value the declarer gets from a give-up, per defender (docs/rules.md §2.2).
GIVE_UP = -2
#: How much worse than the give-up (per defender) the best trump's mean must be before the bot gives up.
GIVE_UP_MARGIN = 0.25


def trump_choice(totals: Sequence[float], n: int, may_give_up: bool) -> int | None:
    """The index in ``totals`` of the trump the bot names, from each trump's total value (per_defender)
    over ``n`` worlds: the best total (the first of equals); None to give up instead (when ``may_give_up``
    and the best mean is below the give-up by more than ``GIVE_UP_MARGIN``)."""
    best = max(range(len(totals)), key=lambda k: totals[k])
    if may_give_up and n > 0 and totals[best] / n < GIVE_UP - GIVE_UP_MARGIN:
        return None
    return best


@dataclass(frozen=True)
class BidEstimate:
    """The strong bot's own reason for a bid: of the ``worlds`` deals it simulated for it (the other
    hands drawn from its view, each solved double dummy), the bid was won (a positive score) in ``made``."""

    bid: str
    made: int
    worlds: int


class Auction:
    """A searching bot's auction, talon, trump and give-up decisions: declarations valued by solving worlds
    drawn uniformly from the view, each valued by the ``declaration_value`` part, with the bot's
    ``settings`` and safety ``stop``."""

    def __init__(self, rng: random.Random, settings: Settings, parts: SearchParts, stop: SafetyStop) -> None:
        """The auction of a bot drawing from ``rng``."""
        self.rng = rng
        self.settings = settings
        self.parts = parts
        self.stop = stop
        #: Why the last auction action was a bid (the learner tables' bidding log shows it); None after
        #: any other action, and for a bid no world was solved for (the cheapest bid, out of ideas).
        self.estimate: BidEstimate | None = None

    # ---------------------------------------------------------------- trump and give-up

    def trump(self, know: Knowledge, ch: SeatChoices) -> Action:
        """The trump to name, or the give-up."""
        seat = know.seat
        assert know.contract is not None
        suits = [0, 1, 2]
        sampler = Sampler(know)  # the auction's worlds are uniform (ulti.bots.parts)
        worlds = sampler.draw_many(self.rng, self.settings.auction_samples)
        deadline = self.stop.deadline(self.settings.auction_budget)
        totals = [0.0, 0.0, 0.0]
        n = 0
        for world in worlds:
            for t in suits:
                pos = Position.start(world.hands, seat, know.contract, t, world.talon)
                totals[t] += solve_value(pos)
            n += 1
            if n < len(worlds) and self.stop.over(deadline, "trump"):
                break
        if n == 0:
            best = max(suits, key=lambda s: trump_strength(know.hand, s))
            return act.trump(seat, best)
        choice = trump_choice(totals, n, ch.may_give_up)
        if choice is None:
            return act.give_up(seat)
        return act.trump(seat, suits[choice])

    # ---------------------------------------------------------------- auction

    def bid(self, know: Knowledge, ch: SeatChoices) -> Action:
        """The auction action to take now (a bid, a take of the talon, a pass)."""
        self.estimate = None
        action = self._auction_action(know, ch)
        if action.kind is not Kind.BID:
            self.estimate = None  # valuing the talon (take_value) declares in imagined hands: no reason to show
        return action

    def _auction_action(self, know: Knowledge, ch: SeatChoices) -> Action:
        seat = know.seat
        allowed = self.settings.declarable({b.code for b in ch.bids})
        deadline = self.stop.deadline(self.settings.auction_budget)
        if ch.must_discard:
            _, bid, discard = self.best_declaration(know, allowed, self.settings.auction_samples, deadline)
            return act.bid(seat, bid, discard)
        if know.high_bidder == seat:
            return self._rebid(know, allowed, deadline)
        if not ch.may_take:
            return act.pass_(seat)
        standing = know.standing
        pass_value = -self.settings.pass_loss * standing.value if standing is not None else 0.0
        take_value = self.take_value(know, allowed, deadline)
        if take_value > pass_value + self.settings.take_margin:
            return act.take(seat)
        return act.pass_(seat)

    def _rebid(self, know: Knowledge, allowed: set[str], deadline: float) -> Action:
        """The standing bid is the bot's own: pass (play it) or bid higher without the talon."""
        seat = know.seat
        standing = know.standing
        assert standing is not None
        sampler = Sampler(know)  # the auction's worlds are uniform (ulti.bots.parts)
        worlds = sampler.draw_many(self.rng, self.settings.auction_samples)
        candidates = [standing]
        for trump in (0, 1, 2, 3, NO_TRUMP):
            for bid in plausible_bids(know.hand, trump, allowed):
                if bid not in candidates:
                    candidates.append(bid)
        if len(candidates) == 1:
            return act.pass_(seat)
        made: dict[Bid, tuple[int, int]] = {}
        values = self._bid_values(know.hand, seat, candidates, worlds, deadline, None, made)
        best = max(values, key=lambda b: values[b])
        if best != standing and values[best] > values[standing] + 0.25:
            self.estimate = BidEstimate(best.code, *made[best])
            return act.bid(seat, best)
        return act.pass_(seat)

    def _bid_values(
        self,
        hand: CardSet,
        seat: int,
        bids: list[Bid],
        worlds: list[World],
        deadline: float,
        talon: CardSet | None,
        made: dict[Bid, tuple[int, int]] | None = None,
    ) -> dict[Bid, float]:
        """Mean per_defender of each bid declared with ``hand`` (best trump for minor bids); ``made``
        receives, per bid, in how many of the worlds solved it was won with that trump, and how many."""
        configs: list[tuple[Bid, int]] = []
        for bid in bids:
            configs += [(bid, t) for t in bid_trumps(bid)]
        totals = dict.fromkeys(configs, 0.0)
        wins = dict.fromkeys(configs, 0)
        n = 0
        for world in worlds:
            hands = list(world.hands)
            hands[seat] = hand
            final_talon = world.talon if talon is None else talon
            for bid, trump in configs:
                value = solve_value(Position.start(hands, seat, bid, trump, final_talon))
                totals[(bid, trump)] += value
                wins[(bid, trump)] += value > 0
            n += 1
            if n < len(worlds) and self.stop.over(deadline, "bid values"):
                break
        out: dict[Bid, float] = {}
        for (bid, trump), total in totals.items():
            mean = self.parts.declaration_value(bid, total / max(1, n))
            if mean > out.get(bid, -math.inf):
                out[bid] = mean
                if made is not None:
                    made[bid] = (wins[(bid, trump)], n)
        return out

    def best_declaration(
        self, know: Knowledge, allowed: set[str], samples: int, deadline: float
    ) -> tuple[float, Bid, tuple[Card, Card]]:
        """The best (2 × mean per_defender, bid, discard) for the bot holding 12 cards."""
        hand = know.hand
        seat = know.seat
        sampler = Sampler(know)  # the auction's worlds are uniform (ulti.bots.parts)
        worlds = sampler.draw_many(self.rng, samples)
        strengths = {t: trump_strength(hand, t) for t in range(4)}
        top = max(strengths.values())
        trumps = [t for t in range(4) if strengths[t] >= top - 3 and count(hand & SUIT_MASKS[t]) >= 3]
        pairs: list[tuple[tuple[Card, Card], Bid, int]] = []
        for t in trumps:
            for discard in discard_options(hand, t, 3):
                kept = hand & ~((1 << discard[0]) | (1 << discard[1]))
                for bid in plausible_bids(kept, t, allowed):
                    pairs.append((discard, bid, t))
        for discard in discard_options(hand, NO_TRUMP, 2):
            kept = hand & ~((1 << discard[0]) | (1 << discard[1]))
            for bid in plausible_bids(kept, NO_TRUMP, allowed):
                pairs.append((discard, bid, NO_TRUMP))
        if not pairs:
            return self._cheapest(hand, allowed)
        totals = [0.0] * len(pairs)
        counts = [0] * len(pairs)
        wins = [0] * len(pairs)
        active = list(range(len(pairs)))
        cache: dict[tuple[tuple[Card, Card], Bid, int], int] = {}

        def worth(k: int) -> float:  # the pair's worth so far: its mean over the worlds solved
            return self.parts.declaration_value(pairs[k][1], totals[k] / counts[k])

        for w, world in enumerate(worlds):
            hands = list(world.hands)
            for k in active:
                discard, bid, t = pairs[k]
                talon = (1 << discard[0]) | (1 << discard[1])
                hands[seat] = hand & ~talon
                key = (discard, _scale_base(bid), t)
                if key in cache and _scale_base(bid) != bid:
                    base_value = cache[key]
                    value = base_value * bid.value // _scale_base(bid).value
                else:
                    value = solve_value(Position.start(hands, seat, bid, t, talon))
                    if _scale_base(bid) == bid:
                        cache[key] = value
                totals[k] += value
                counts[k] += 1
                wins[k] += value > 0
            cache.clear()
            if w + 1 < len(worlds) and self.stop.over(deadline, "declaration"):
                break
            if w == 2 and len(active) > 6:
                active.sort(key=lambda k: -worth(k))
                active = active[:6]
        scored = [(worth(k), k) for k in range(len(pairs)) if counts[k]]
        if not scored:
            return self._cheapest(hand, allowed)
        best_mean, k = max(scored)
        discard, bid, _ = pairs[k]
        self.estimate = BidEstimate(bid.code, wins[k], counts[k])
        return 2 * best_mean, bid, discard

    def _cheapest(self, hand: CardSet, allowed: set[str]) -> tuple[float, Bid, tuple[Card, Card]]:
        # the bids' table order breaks ties of price: a set's order changes with the process's string hashes
        bid = min((b for b in BIDS if b.code in allowed), key=lambda b: b.key)
        ranked = sorted(iter_cards(hand), key=lambda c: discard_cost(hand, c, -1))
        return -2.0 * bid.value, bid, (ranked[0], ranked[1])

    def take_value(self, know: Knowledge, allowed: set[str], deadline: float) -> float:
        """The expected score of taking the talon and declaring the best bid over a few sampled talons."""
        sampler = Sampler(know)  # the auction's worlds are uniform (ulti.bots.parts)
        talons = sampler.draw_many(self.rng, 4)
        values = []
        for i, world in enumerate(talons):
            sub = know.taking(world.talon)
            value, _, _ = self.best_declaration(sub, allowed, 3, deadline)
            values.append(value)
            if i + 1 < len(talons) and self.stop.over(deadline, "talon"):
                break
        if not values:
            return -math.inf
        return sum(values) / len(values)


_SCALE_BASE = {"N-HB": "N-B", "N-OB": "N-B", "N-HD": "N-D", "N-OD": "N-D"}


def _scale_base(bid: Bid) -> Bid:
    """No-trump bids that differ only in price are solved once (their values scale)."""
    code = _SCALE_BASE.get(bid.code)
    return BIDS_BY_CODE[code] if code else bid
