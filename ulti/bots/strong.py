"""The strong bot: deals the unseen cards many times and solves each deal exactly (double dummy).

It reads only its seat's view (``Deal.seat_view(seat)``), through ``ulti.bots.sampling``:

- **Card play.** Worlds consistent with the view (own hand, cards played, voids and "could not beat"
  shown by the play, talons handled, open hands, marriage announcements), with the bid as soft
  evidence about a declarer's hand (a likelihood each world is accepted with). Each world is solved
  with ``Objective.CONTRACT`` once per distinct legal card (cards that are equivalent from the
  viewer's side are solved once); the card with the best mean ``per_defender`` is played (the
  declarer maximises it, a defender minimises it). Ties go to the heuristic bot's card.
- **Kontra and the chain.** The same worlds, solved with and without each part raised one step: a
  part is raised when the mean gain beats a safety margin.
- **Auction, talon, trump, give-up.** Candidate discards (a few per trump suit, and for no-trump bids)
  and the plausible bids of each are valued by solving a few worlds of the other hands at the start
  of play; the best expected score (2 × per_defender as declarer) is bid, the talon is taken when the
  best expected score with it (a few talons sampled) beats passing (a defender's rough expected loss),
  the trump with the best mean is named, an M-S is given up when playing loses more than the 2 per
  defender the give-up costs.

Work is capped by ``samples`` and ``time_budget`` (seconds per card decision; auction decisions get
``auction_budget``), checked between worlds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace

from ulti.bots.base import seat_and_choices
from ulti.bots.heuristic import HeuristicBot, betli_risk, trump_strength
from ulti.bots.sampling import Knowledge, Sampler, World, analyse
from ulti.bots.solver import Objective, Position, solve
from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import (
    FULL_DECK,
    KING,
    POINT_CARDS,
    QUEEN,
    SUIT_MASKS,
    TEN,
    Card,
    CardSet,
    card_points,
    count,
    iter_cards,
)
from ulti.engine.contracts import BIDS_BY_CODE, KONTRA_STEP_NAMES, Bid, Part, parse_bid
from ulti.engine.deal import Phase
from ulti.engine.play import NO_TRUMP, higher_table, seven_of, trick_winner_index
from ulti.engine.view import SeatChoices, SeatView

#: Value the declarer gets from a give-up, per defender (docs/rules.md §2.2).
GIVE_UP = -2


def _value(pos: Position) -> int:
    return int(solve(pos, Objective.CONTRACT, best_cards=False).value)


def value_after(pos: Position, card: Card) -> int:
    """The contract value (per_defender, perfect play) after the seat to move plays ``card``."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = (*pos.trick, card)
    if len(trick) < 3:
        return _value(replace(pos, hands=(hands[0], hands[1], hands[2]), trick=trick))
    winner = (pos.leader + trick_winner_index(list(trick), pos.trump)) % 3
    won = list(pos.won)
    won[winner] += 1
    points = pos.declarer_points
    if winner == pos.declarer:
        points += card_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]))
    bid = pos.bid
    done = sum(won)
    if not bid.has_trumps:
        part, v = bid.parts[0]
        v *= pos.multipliers.get(part, 1)
        if (winner == pos.declarer) == (part is Part.BETLI):
            return -v
        if done == 10:
            return v
    elif done == 10:  # pragma: no cover - a single card is never solved
        raise ValueError("the last trick is not solved")
    nxt = replace(
        pos,
        hands=(hands[0], hands[1], hands[2]),
        trick=(),
        leader=winner,
        won=(won[0], won[1], won[2]),
        declarer_points=points,
    )
    return _value(nxt)


def position_of(know: Knowledge, world: World, multipliers: dict[Part, int] | None = None) -> Position:
    """The solver position of ``world`` at the current point of the play."""
    assert know.contract is not None
    hands = world.hands
    start = tuple(hands[s] | know.played_by[s] for s in range(3))
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        leader=know.leader,
        trump=know.trump,
        declarer=know.declarer,
        bid=know.contract,
        talon=world.talon,
        start_hands=(start[0], start[1], start[2]),
        multipliers=dict(multipliers if multipliers is not None else know.multipliers),
        trick=know.trick,
        won=know.won,
        declarer_points=know.declarer_points,
    )


# ------------------------------------------------------------------------------------ hand features


def _pair(suit: int) -> CardSet:
    return (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))


def _has_twenty(hand: CardSet, trump: int) -> bool:
    return any(hand & _pair(s) == _pair(s) for s in range(4) if s != trump)


def durchmars_losers(hand: CardSet, trump: int) -> int:
    """A rough count of tricks ``hand`` may lose when trying to take them all."""
    table = higher_table(trump)
    losers = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        outside = SUIT_MASKS[suit] & ~hand
        for card in iter_cards(mine):
            above_out = count(table[card] & outside)
            above_mine = count(table[card] & mine)
            if above_out > above_mine and (suit != trump or above_out > count(mine) - above_mine - 1):
                losers += 1
    return losers


def plausible_bids(hand: CardSet, trump: int, allowed: set[str]) -> list[Bid]:
    """The bids worth valuing for a 10-card ``hand`` declared with ``trump`` (NO_TRUMP: no-trump bids)."""
    if trump == NO_TRUMP:
        out = []
        if betli_risk(hand) <= 3:
            out += ["N-B", "N-HB", "N-OB"]
        if durchmars_losers(hand, NO_TRUMP) <= 1:
            out += ["N-D", "N-HD", "N-OD"]
        return [BIDS_BY_CODE[c] for c in out if c in allowed]
    kind = "H" if trump == 3 else "M"
    trumps = hand & SUIT_MASKS[trump]
    ulti = bool(hand >> seven_of(trump) & 1) and count(trumps) >= 4
    forty = hand & _pair(trump) == _pair(trump)
    twenty = _has_twenty(hand, trump)
    bases = ["S"] + (["40"] if forty else []) + (["20"] if twenty else [])
    letters = []
    for base in bases:
        letters.append(base)
        if ulti:
            letters.append("SU" if base == "S" else base + "U")
    if durchmars_losers(hand, trump) <= 1 and count(trumps) >= 4:
        carriers = (["U"] if ulti else []) + [x for x in letters if x not in ("S", "SU")]
        for carrier in carriers:
            letters += [carrier + "D", carrier + "O"]
    codes = [f"{kind}-{x}" for x in letters]
    return [BIDS_BY_CODE[c] for c in codes if c in BIDS_BY_CODE and c in allowed]


def _discard_cost(hand: CardSet, card: Card, trump: int) -> float:
    suit = card >> 3
    value = 0.0
    if suit == trump:
        value += 30
    if (1 << card) & POINT_CARDS:
        value += 12
    strength = (0, 1, 2, 6, 3, 4, 5, 7)[card & 7]
    value += strength
    value += 0.8 * count(hand & SUIT_MASKS[suit])
    if card & 7 in (KING, QUEEN) and hand & _pair(suit) == _pair(suit):
        value += 8
    return value


def discard_options(hand: CardSet, trump: int, k: int) -> list[tuple[Card, Card]]:
    """Up to ``k`` plausible discards from 12 cards for ``trump`` (NO_TRUMP: for a betli)."""
    cards = list(iter_cards(hand))
    if trump == NO_TRUMP:
        scored = []
        for i, a in enumerate(cards):
            for b in cards[i + 1 :]:
                rest = hand & ~((1 << a) | (1 << b))
                scored.append((betli_risk(rest), -((a & 7) + (b & 7)), (a, b)))
        scored.sort()
        return [x[2] for x in scored[:k]]
    ranked = sorted(cards, key=lambda c: _discard_cost(hand, c, trump))
    out: list[tuple[Card, Card]] = [(ranked[0], ranked[1])]
    # a short side suit laid away whole makes a void to ruff in
    for suit in range(4):
        side = hand & SUIT_MASKS[suit]
        if suit != trump and count(side) == 2 and not side & POINT_CARDS & ~(1 << (suit * 8 + TEN)):
            a, b = iter_cards(side)
            out.append((a, b))
    out += [(ranked[0], ranked[2]), (ranked[1], ranked[2])]
    seen: list[tuple[Card, Card]] = []
    for a, b in out:
        pair = (min(a, b), max(a, b))
        if pair not in seen:
            seen.append(pair)
    return seen[:k]


def declarer_likelihood(bid: Bid, trump: int, hand: CardSet) -> float:
    """How plausible a 10-card start ``hand`` is for a declarer who bid ``bid`` (soft evidence, 0..1)."""
    if not bid.has_trumps:
        if bid.has(Part.BETLI):
            return math.exp(-0.8 * max(0, betli_risk(hand) - 1))
        return 0.35 ** max(0, durchmars_losers(hand, NO_TRUMP) - 1)
    w = 1.0 / (1.0 + math.exp(-(trump_strength(hand, trump) - 8.0) / 1.5))
    if bid.has(Part.ULTI) and not hand >> seven_of(trump) & 1:
        w *= 0.03
    if bid.has(Part.DURCHMARS):
        w *= 0.35 ** max(0, durchmars_losers(hand, trump) - 1)
    return w


# ------------------------------------------------------------------------------------ the bot


class StrongBot:
    """Sampling + double-dummy solving for card play, kontra, bidding and the talon."""

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

    # ---------------------------------------------------------------- entry point

    def act(self, view: SeatView) -> Action:
        """The bot's action for its seat, given its view."""
        seat, ch = seat_and_choices(view)
        know = analyse(view)
        if view.phase is Phase.AUCTION:
            return self._auction(know, ch)
        if view.phase is Phase.TRUMP:
            return self._trump(know, ch)
        if ch.kontra is not None:
            last = view.log[-1] if view.log else None
            already = last is not None and last.seat == seat and last.action is Kind.KONTRA
            if not (already and ch.cards):
                parts = self._kontra(know, ch)
                if parts or not ch.cards:
                    return act.kontra(seat, parts)
        return act.play(seat, self._card(view, know, ch))

    # ---------------------------------------------------------------- play

    def _likelihood(self, know: Knowledge) -> Callable[[World], float] | None:
        contract = know.contract
        if contract is None or know.declarer == know.seat or know.declarer < 0:
            return None
        declarer, trump = know.declarer, know.trump

        def weight(world: World) -> float:
            return declarer_likelihood(contract, trump, world.hands[declarer] | know.played_by[declarer])

        return weight

    def _groups(self, legal: CardSet, know: Knowledge) -> list[list[Card]]:
        """Legal cards split into classes that are equivalent from the viewer's side."""
        table = higher_table(know.trump)
        outstanding = FULL_DECK & ~know.hand & ~know.played
        seven = seven_of(know.trump) if know.trump != NO_TRUMP else -1
        groups: list[list[Card]] = []
        for suit in range(4):
            cards = sorted(iter_cards(legal & SUIT_MASKS[suit]), key=lambda c: -count(table[c]))
            current: list[Card] = []
            for card in cards:
                if current:
                    low = current[-1]
                    between = table[low] & ~table[card] & ~(1 << card)
                    same = (
                        not between & outstanding
                        and bool((1 << low) & POINT_CARDS) == bool((1 << card) & POINT_CARDS)
                        and seven not in (low, card)
                    )
                    if not same:
                        groups.append(current)
                        current = []
                current.append(card)
            if current:
                groups.append(current)
        return groups

    def _card(self, view: SeatView, know: Knowledge, ch: SeatChoices) -> Card:
        legal = ch.cards
        if count(legal) == 1:
            return next(iter_cards(legal))
        groups = self._groups(legal, know)
        heuristic = self.fallback._card(view, ch)
        if len(groups) == 1:
            return heuristic
        sampler = Sampler(know, self._likelihood(know))
        deadline = time.perf_counter() + self.time_budget
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
            if time.perf_counter() > deadline:
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

    def _kontra(self, know: Knowledge, ch: SeatChoices) -> tuple[Part, ...]:
        """The parts to raise one step now (empty: decline)."""
        assert know.contract is not None and ch.kontra is not None
        parts = list(ch.kontra.parts)
        # the opponents' own raises are evidence the sampling cannot see: later steps need more certainty
        level = KONTRA_STEP_NAMES.index(ch.kontra.step)
        margin = self.kontra_margin if level == 1 else self.chain_margin if level == 2 else self.late_chain_margin
        declarer_side = know.seat == know.declarer
        sampler = Sampler(know, self._likelihood(know))
        deadline = time.perf_counter() + self.time_budget
        base_total = 0.0
        raised_total = [0.0] * len(parts)
        n = 0
        while n < max(4, self.samples // 2):
            world = sampler.draw(self.rng)
            if world is None:
                break
            pos = position_of(know, world)
            base_total += _value(pos)
            for k, part in enumerate(parts):
                mult = dict(know.multipliers)
                mult[part] = mult.get(part, 1) * 2
                raised_total[k] += _value(replace(pos, multipliers=mult))
            n += 1
            if time.perf_counter() > deadline:
                break
        if n == 0:
            return ()
        chosen = []
        for k, part in enumerate(parts):
            gain = (raised_total[k] - base_total) / n
            if not declarer_side:
                gain = -gain
            stake = know.contract.part_value(part) * know.multipliers.get(part, 1)
            if gain > margin * stake:
                chosen.append(part)
        return tuple(chosen)

    # ---------------------------------------------------------------- trump and give-up

    def _trump(self, know: Knowledge, ch: SeatChoices) -> Action:
        seat = know.seat
        assert know.contract is not None
        suits = [0, 1, 2]
        sampler = Sampler(know)
        worlds = sampler.draw_many(self.rng, self.auction_samples)
        deadline = time.perf_counter() + self.auction_budget
        totals = [0.0, 0.0, 0.0]
        n = 0
        for world in worlds:
            for t in suits:
                pos = Position.start(world.hands, seat, know.contract, t, world.talon)
                totals[t] += _value(pos)
            n += 1
            if time.perf_counter() > deadline:
                break
        if n == 0:
            best = max(suits, key=lambda s: trump_strength(know.hand, s))
            return act.trump(seat, best)
        best = max(suits, key=lambda s: totals[s])
        if ch.may_give_up and totals[best] / n < GIVE_UP - 0.25:
            return act.give_up(seat)
        return act.trump(seat, best)

    # ---------------------------------------------------------------- auction

    def _auction(self, know: Knowledge, ch: SeatChoices) -> Action:
        seat = know.seat
        allowed = {b.code for b in ch.bids}
        deadline = time.perf_counter() + self.auction_budget
        if ch.must_discard:
            _, bid, discard = self.best_declaration(know, allowed, self.auction_samples, deadline)
            return act.bid(seat, bid, discard)
        if know.high_bidder == seat:
            return self._rebid(know, allowed, deadline)
        if not ch.may_take:
            return act.pass_(seat)
        standing = know.standing
        pass_value = -self.pass_loss * standing.value if standing is not None else 0.0
        take_value = self.take_value(know, allowed, deadline)
        if take_value > pass_value + self.take_margin:
            return act.take(seat)
        return act.pass_(seat)

    def _rebid(self, know: Knowledge, allowed: set[str], deadline: float) -> Action:
        """The standing bid is the bot's own: pass (play it) or bid higher without the talon."""
        seat = know.seat
        standing = know.standing
        assert standing is not None
        sampler = Sampler(know)
        worlds = sampler.draw_many(self.rng, self.auction_samples)
        candidates = [standing]
        for trump in (0, 1, 2, 3, NO_TRUMP):
            for bid in plausible_bids(know.hand, trump, allowed):
                if bid not in candidates:
                    candidates.append(bid)
        if len(candidates) == 1:
            return act.pass_(seat)
        values = self._bid_values(know.hand, seat, candidates, worlds, deadline, None)
        best = max(values, key=lambda b: values[b])
        if best != standing and values[best] > values[standing] + 0.25:
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
    ) -> dict[Bid, float]:
        """Mean per_defender of each bid declared with ``hand`` (best trump for minor bids)."""
        configs: list[tuple[Bid, int]] = []
        for bid in bids:
            if not bid.has_trumps:
                configs.append((bid, NO_TRUMP))
            elif bid.is_hearts:
                configs.append((bid, 3))
            else:
                configs += [(bid, t) for t in (0, 1, 2)]
        totals = dict.fromkeys(configs, 0.0)
        n = 0
        for world in worlds:
            hands = list(world.hands)
            hands[seat] = hand
            final_talon = world.talon if talon is None else talon
            for bid, trump in configs:
                totals[(bid, trump)] += _value(Position.start(hands, seat, bid, trump, final_talon))
            n += 1
            if time.perf_counter() > deadline:
                break
        out: dict[Bid, float] = {}
        for (bid, _), total in totals.items():
            mean = total / max(1, n)
            out[bid] = max(out.get(bid, -math.inf), mean)
        return out

    def best_declaration(
        self, know: Knowledge, allowed: set[str], samples: int, deadline: float
    ) -> tuple[float, Bid, tuple[Card, Card]]:
        """The best (2 × mean per_defender, bid, discard) for the bot holding 12 cards."""
        hand = know.hand
        seat = know.seat
        sampler = Sampler(know)
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
        active = list(range(len(pairs)))
        cache: dict[tuple[tuple[Card, Card], Bid, int], int] = {}
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
                    value = _value(Position.start(hands, seat, bid, t, talon))
                    if _scale_base(bid) == bid:
                        cache[key] = value
                totals[k] += value
                counts[k] += 1
            cache.clear()
            if time.perf_counter() > deadline:
                break
            if w == 2 and len(active) > 6:
                active.sort(key=lambda k: -totals[k] / counts[k])
                active = active[:6]
        scored = [(totals[k] / counts[k], k) for k in range(len(pairs)) if counts[k]]
        if not scored:
            return self._cheapest(hand, allowed)
        best_mean, k = max(scored)
        discard, bid, _ = pairs[k]
        return 2 * best_mean, bid, discard

    def _cheapest(self, hand: CardSet, allowed: set[str]) -> tuple[float, Bid, tuple[Card, Card]]:
        bid = min((parse_bid(c) for c in allowed), key=lambda b: b.key)
        ranked = sorted(iter_cards(hand), key=lambda c: _discard_cost(hand, c, -1))
        return -2.0 * bid.value, bid, (ranked[0], ranked[1])

    def take_value(self, know: Knowledge, allowed: set[str], deadline: float) -> float:
        """The expected score of taking the talon and declaring the best bid over a few sampled talons."""
        sampler = Sampler(know)
        talons = sampler.draw_many(self.rng, 4)
        values = []
        start = time.perf_counter()
        per = (deadline - start) / max(1, len(talons))
        for i, world in enumerate(talons):
            sub = know.taking(world.talon)
            value, _, _ = self.best_declaration(sub, allowed, 3, start + per * (i + 1))
            values.append(value)
            if time.perf_counter() > deadline:
                break
        if not values:
            return -math.inf
        return sum(values) / len(values)


_SCALE_BASE = {"N-HB": "N-B", "N-OB": "N-B", "N-HD": "N-D", "N-OD": "N-D"}


def _scale_base(bid: Bid) -> Bid:
    """No-trump bids that differ only in price are solved once (their values scale)."""
    code = _SCALE_BASE.get(bid.code)
    return BIDS_BY_CODE[code] if code else bid


__all__ = ["StrongBot", "declarer_likelihood", "plausible_bids", "position_of", "value_after"]
