"""Worlds consistent with one seat's view: where the cards it cannot see may be, and random deals of them.

A bot sees only ``Deal.seat_view(seat)``. ``analyse(view)`` turns that view into ``Knowledge``: for every
location (the three seats and the talon) the set of cards that may lie there now, the hand sizes, the
cards played, and the marriage counts announced in trick 1. The sets come from

- the auction, replayed from the viewer's side: its own dealt hand, the cards it discarded (it knows
  where they went until somebody else discards again), the talons it picked up, and which seat's hidden
  discards the talon holds;
- the play, replayed through the engine's own rule of legal cards (``ulti.engine.play``): a seat that
  did not follow suit holds none of that suit, one that did not trump holds no trump, one that did not
  beat (or overtrump) holds no higher card, an ulti declarer who played the trump 7 early had no other
  legal card;
- the hands that are face up (open contracts) and the talon the viewer discarded.

``Sampler`` draws worlds uniformly from the deals allowed by those sets and hand sizes (an exact count
of the ways to split each kind of card among the locations), rejects those that contradict the marriage
announcements, and optionally accepts each with a caller's likelihood (soft evidence such as the bids).

``world_to_deal`` rebuilds a whole engine ``Deal`` from a world (choosing the hidden discards of the
auction backwards) and replays the log: its ``seat_view(seat)`` must equal the real one (the tests check it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ulti.engine.actions import Action, Kind
from ulti.engine.cards import (
    FULL_DECK,
    KING,
    QUEEN,
    SUIT_MASKS,
    Card,
    CardSet,
    card_points,
    iter_cards,
)
from ulti.engine.contracts import Bid, Part
from ulti.engine.deal import Deal
from ulti.engine.play import NO_TRUMP, higher_table, seven_of, trick_winner_index
from ulti.engine.scoring import marriages_of
from ulti.engine.view import LogEntry, SeatView

TALON = 3
"""Location index of the talon (seats are 0, 1, 2)."""


@dataclass
class World:
    """One full deal of the unseen cards: every seat's current hand and the current talon (0 if none)."""

    hands: list[CardSet]
    talon: CardSet


@dataclass
class Knowledge:
    """What a seat knows now, read from its view alone."""

    seat: int
    dealer: int
    opener: int
    phase: str
    hand: CardSet
    sizes: tuple[int, int, int]
    talon_size: int
    #: ``allowed[loc]``: cards that may be at location ``loc`` (0..2 seats, 3 talon) now.
    allowed: list[CardSet]
    played: CardSet = 0
    played_by: list[CardSet] = field(default_factory=lambda: [0, 0, 0])
    #: (forty, twenties) announced by seats other than the viewer (trump contracts, trick 1).
    marriages: dict[int, tuple[int, int]] = field(default_factory=dict)
    contract: Bid | None = None
    declarer: int = -1
    trump: int = NO_TRUMP
    multipliers: dict[Part, int] = field(default_factory=dict)
    leader: int = -1
    trick: tuple[Card, ...] = ()
    won: tuple[int, int, int] = (0, 0, 0)
    declarer_points: int = 0
    tricks_done: int = 0
    #: possible locations before each log action (for ``world_to_deal``)
    snapshots: list[list[CardSet]] = field(default_factory=list)
    standing: Bid | None = None
    high_bidder: int = -1
    obliged: bool = False
    #: the log, when a world must be checked against it (a seat took a talon the viewer never saw)
    check_log: Sequence[LogEntry] | None = None

    @property
    def others(self) -> tuple[int, int]:
        """The two other seats, in seat order after the viewer."""
        return (self.seat + 1) % 3, (self.seat + 2) % 3

    def taking(self, talon: CardSet) -> Knowledge:
        """The knowledge after picking up ``talon`` (auction): 12 cards in hand, no talon."""
        allowed = [a & ~talon for a in self.allowed]
        allowed[self.seat] = self.hand | talon
        allowed[TALON] = 0
        sizes = list(self.sizes)
        sizes[self.seat] += 2
        return Knowledge(
            self.seat, self.dealer, self.opener, self.phase, self.hand | talon,
            (sizes[0], sizes[1], sizes[2]), 0, allowed,
        )

    def with_final_talon(self, talon: CardSet) -> Knowledge:
        """The knowledge with the current talon fixed to ``talon`` (e.g. the viewer's own discards)."""
        allowed = [a & ~talon for a in self.allowed]
        allowed[self.seat] = self.hand
        allowed[TALON] = talon
        out = Knowledge(self.seat, self.dealer, self.opener, self.phase, self.hand, self.sizes, 2, allowed)
        return out

    def start_hand(self, world: World, seat: int) -> CardSet:
        """``seat``'s hand at the start of play in ``world`` (its hand now plus the cards it has played)."""
        return world.hands[seat] | self.played_by[seat]


# ---------------------------------------------------------------------------------------- analysis


def forbidden_after(card: Card, led: int, top: Card, trump: int, seven: Card) -> CardSet:
    """Cards the player of ``card`` cannot have held when it played it (the engine's rule of legal cards).

    ``led`` is the suit led (-1 when ``card`` leads), ``top`` the card winning so far, ``seven`` the
    trump 7 when the player is an ulti declarer (else -1). Holding any card of the result would have
    made ``card`` illegal.
    """
    out = 0
    if led >= 0:
        led_mask = SUIT_MASKS[led]
        if card >> 3 == led:
            if top >> 3 == led and not higher_table(trump)[top] >> card & 1:
                out |= led_mask & higher_table(trump)[top]
        else:
            out |= led_mask
            if trump >= 0:
                trumps = SUIT_MASKS[trump]
                if card >> 3 != trump:
                    out |= trumps
                elif top >> 3 == trump and not higher_table(trump)[top] >> card & 1:
                    out |= trumps & higher_table(trump)[top]
    if seven >= 0 and card == seven:
        # the 7 is legal only when nothing else is
        out |= SUIT_MASKS[trump]
        if led < 0:
            out = FULL_DECK
        elif led != trump:
            out |= SUIT_MASKS[led]
    return out & ~(1 << card)


def _pair_mask(cards: tuple[Card, Card]) -> CardSet:
    return (1 << cards[0]) | (1 << cards[1])


def _own_dealt(log: Sequence[LogEntry], seat: int, hand: CardSet) -> CardSet:
    h = hand
    for entry in reversed(log):
        if entry.seat != seat:
            continue
        kind = entry.action
        if kind is Kind.PLAY:
            assert entry.card is not None
            h |= 1 << entry.card
        elif kind is Kind.BID and entry.discard is not None:
            h |= _pair_mask(entry.discard)
        elif kind is Kind.TAKE:
            assert entry.cards is not None
            h &= ~entry.cards
    return h


def analyse(view: SeatView) -> Knowledge:
    """The viewer's knowledge of where every card may be, from its view alone."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no hand to analyse")
    log = view.log
    hand = view.hand
    dealt = _own_dealt(log, seat, hand)
    others = ((seat + 1) % 3, (seat + 2) % 3)
    poss = [0, 0, 0, 0]
    poss[seat] = dealt
    for o in others:
        poss[o] = FULL_DECK & ~dealt
    obliged = view.opener
    talon_present = False
    snapshots: list[list[CardSet]] = []
    for entry in log:
        snapshots.append(list(poss))
        s = entry.seat
        kind = entry.action
        if kind is Kind.TAKE:
            if s == seat:
                assert entry.cards is not None
                cards = entry.cards
                for loc in (*others, TALON):
                    poss[loc] &= ~cards
                poss[seat] |= cards
            else:
                poss[s] |= poss[TALON]
            poss[TALON] = 0
            obliged = s
            talon_present = False
        elif kind is Kind.BID:
            if obliged == s:
                if s == seat:
                    assert entry.discard is not None
                    discard = _pair_mask(entry.discard)
                    poss[seat] &= ~discard
                    poss[TALON] = discard
                else:
                    poss[TALON] = poss[s]
                talon_present = True
            obliged = -1
        elif kind is Kind.PLAY and s == seat:
            assert entry.card is not None
            poss[seat] &= ~(1 << entry.card)

    know = Knowledge(
        seat=seat,
        dealer=view.dealer,
        opener=view.opener,
        phase=view.phase.value,
        hand=hand,
        sizes=view.hand_sizes,
        talon_size=2 if talon_present else 0,
        allowed=poss,
        snapshots=snapshots,
    )
    if any(
        e.action is Kind.TAKE and e.seat != seat and log[_discarder_before(log, i)].seat != seat
        for i, e in enumerate(log)
    ):
        know.check_log = log
    auction = view.auction
    know.standing = auction.bid
    know.high_bidder = auction.bidder if auction.bidder is not None else -1
    know.obliged = auction.obliged
    contract = view.contract
    if contract is not None:
        bid = contract.bid
        know.contract = bid
        know.declarer = contract.declarer
        know.trump = contract.trump if contract.trump is not None else NO_TRUMP
        know.multipliers = {p: 1 for p, _ in bid.parts}
        for part, mult in view.kontra:
            know.multipliers[part] = mult
    _analyse_play(view, know)
    return know


def _analyse_play(view: SeatView, know: Knowledge) -> None:
    poss = know.allowed
    voids = [0, 0, 0]
    played_by = [0, 0, 0]
    trump = know.trump
    seven = -1
    if know.contract is not None and know.contract.has(Part.ULTI) and trump != NO_TRUMP:
        seven = seven_of(trump)
    tricks: list[tuple[int, list[Card]]] = [(t.leader, list(t.cards)) for t in view.tricks]
    if view.trick is not None:
        know.leader = view.trick.leader
        know.trick = view.trick.cards
        tricks.append((know.leader, list(know.trick)))
    declarer_taken = 0
    for t in view.tricks:
        if t.winner == know.declarer:
            declarer_taken |= (1 << t.cards[0]) | (1 << t.cards[1]) | (1 << t.cards[2])
    know.declarer_points = card_points(declarer_taken)
    know.won = view.won
    know.tricks_done = len(view.tricks)
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            player = (leader + i) % 3
            played_by[player] |= 1 << card
            led = cards[0] >> 3 if i else -1
            top = cards[trick_winner_index(cards[:i], trump)] if i else -1
            voids[player] |= forbidden_after(card, led, top, trump, seven if player == know.declarer else -1)
    played = played_by[0] | played_by[1] | played_by[2]
    know.played = played
    know.played_by = played_by
    for s in know.others:
        poss[s] &= ~played & ~voids[s]
    poss[TALON] &= ~played
    poss[know.seat] = know.hand
    exact = [know.seat]
    for s in know.others:
        shown = view.hands[s]
        if shown is not None:
            poss[s] = shown
            exact.append(s)
    if view.talon is not None:
        poss[TALON] = view.talon
        know.talon_size = 2
        exact.append(TALON)
    fixed = 0
    for loc in exact:
        fixed |= poss[loc]
    for loc in (*know.others, TALON):
        if loc not in exact:
            poss[loc] &= ~fixed
    if not know.talon_size:
        poss[TALON] = 0
    for s, m in enumerate(view.marriages):
        if m is not None and s != know.seat:
            know.marriages[s] = (m.forty, m.twenties)
            if m.forty and trump >= 0:
                pair = (1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN))
                for loc in range(4):
                    if loc != s:
                        poss[loc] &= ~pair


# ---------------------------------------------------------------------------------------- sampling


def _splits(n: int, bins: list[int], caps: list[int]) -> list[tuple[int, ...]]:
    """Ways to put ``n`` cards into ``bins`` (indices into ``caps``) within the capacities."""
    if len(bins) == 1:
        return [(n,)] if n <= caps[bins[0]] else []
    out = []
    for k in range(min(n, caps[bins[0]]) + 1):
        for rest in _splits(n - k, bins[1:], caps):
            out.append((k, *rest))
    return out


class _Partition:
    """Uniform random splits of the unknown cards among locations with per-card allowed sets."""

    def __init__(self, locs: list[int], allowed: list[CardSet], caps: list[int]) -> None:
        self.locs = locs
        nloc = len(locs)
        # group the cards by the set of locations they may go to
        types: dict[int, list[Card]] = {}
        union = 0
        for i in range(nloc):
            union |= allowed[locs[i]]
        for card in iter_cards(union):
            t = 0
            for i in range(nloc):
                if allowed[locs[i]] >> card & 1:
                    t |= 1 << i
            types.setdefault(t, []).append(card)
        self.types = sorted(types.items(), key=lambda kv: kv[0].bit_count())
        self.options: list[tuple[tuple[tuple[int, ...], ...], int]] = []
        self.total = sum(len(c) for _, c in self.types)
        self.ok = self.total == sum(caps)
        if self.ok:
            self._enumerate(0, list(caps), [], 1)
        self.ok = bool(self.options)
        if self.ok:
            self.cum: list[float] = []
            acc = 0.0
            for _, weight in self.options:
                acc += float(weight)
                self.cum.append(acc)

    def _enumerate(self, index: int, caps: list[int], chosen: list[tuple[int, ...]], weight: int) -> None:
        if index == len(self.types):
            if not any(caps):
                self.options.append((tuple(chosen), weight))
            return
        t, cards = self.types[index]
        bins = [i for i in range(len(self.locs)) if t >> i & 1]
        n = len(cards)
        for split in _splits(n, bins, caps):
            w = weight
            left = n
            for k in split:
                w *= math.comb(left, k)
                left -= k
            for b, k in zip(bins, split, strict=True):
                caps[b] -= k
            chosen.append(split)
            self._enumerate(index + 1, caps, chosen, w)
            chosen.pop()
            for b, k in zip(bins, split, strict=True):
                caps[b] += k

    def draw(self, rng: random.Random) -> list[CardSet]:
        """One uniform split: the cards of each location (in ``locs`` order)."""
        x = rng.random() * self.cum[-1]
        lo, hi = 0, len(self.cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cum[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        splits = self.options[lo][0]
        out = [0] * len(self.locs)
        for (t, cards), split in zip(self.types, splits, strict=True):
            bins = [i for i in range(len(self.locs)) if t >> i & 1]
            if len(bins) == 1:
                for c in cards:
                    out[bins[0]] |= 1 << c
                continue
            shuffled = list(cards)
            rng.shuffle(shuffled)
            start = 0
            for b, k in zip(bins, split, strict=True):
                for c in shuffled[start : start + k]:
                    out[b] |= 1 << c
                start += k
        return out


class Sampler:
    """Draws worlds consistent with ``know`` (uniform, then marriage counts and an optional likelihood)."""

    def __init__(self, know: Knowledge, likelihood: Callable[[World], float] | None = None) -> None:
        self.know = know
        self.likelihood = likelihood
        self.locs = [s for s in know.others] + ([TALON] if know.talon_size else [])
        self.caps = [know.sizes[s] for s in know.others] + ([know.talon_size] if know.talon_size else [])
        self._cache: dict[tuple[CardSet, ...], _Partition] = {}
        self.base = self._partition(tuple(know.allowed))
        self.tries = 0

    @property
    def possible(self) -> bool:
        """Whether any world fits (false only if the knowledge is contradictory)."""
        return self.base.ok

    def _partition(self, allowed: tuple[CardSet, ...]) -> _Partition:
        part = self._cache.get(allowed)
        if part is None:
            part = _Partition(self.locs, list(allowed), self.caps)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[allowed] = part
        return part

    def _marriage_forcing(self, rng: random.Random) -> tuple[CardSet, ...]:
        """Allowed sets with the announced 20s placed: for each seat, some suits forced whole."""
        know = self.know
        allowed = list(know.allowed)
        for s, (_, twenties) in know.marriages.items():
            if not twenties:
                continue
            candidates = []
            for suit in range(4):
                if suit == know.trump:
                    continue
                pair = (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
                if pair & (allowed[s] | know.played_by[s]) == pair:
                    candidates.append(pair)
            rng.shuffle(candidates)
            for pair in candidates[:twenties]:
                for loc in range(4):
                    if loc != s:
                        allowed[loc] &= ~pair
                allowed[s] |= pair & ~know.played_by[s]
        return tuple(allowed)

    def _marriages_match(self, world: World) -> bool:
        know = self.know
        for s, announced in know.marriages.items():
            if marriages_of(know.start_hand(world, s), know.trump) != announced:
                return False
        return True

    def _rebuilds(self, world: World, rng: random.Random) -> bool:
        assert self.know.check_log is not None
        for _ in range(3):
            try:
                rebuild(self.know, self.know.check_log, world, rng)
            except ValueError:
                continue
            return True
        return False

    def draw(self, rng: random.Random, max_tries: int = 200) -> World | None:
        """One world (None if none was found in ``max_tries`` draws)."""
        know = self.know
        if not self.base.ok:
            return None
        best: World | None = None
        for _ in range(max_tries):
            self.tries += 1
            part = self.base
            if any(tw for _, tw in know.marriages.values()):
                part = self._partition(self._marriage_forcing(rng))
                if not part.ok:
                    continue
            cards = part.draw(rng)
            hands = [0, 0, 0]
            hands[know.seat] = know.hand
            talon = 0
            for loc, got in zip(self.locs, cards, strict=True):
                if loc == TALON:
                    talon = got
                else:
                    hands[loc] = got
            world = World(hands, talon)
            if not self._marriages_match(world):
                continue
            if know.check_log is not None and not self._rebuilds(world, rng):
                continue
            if self.likelihood is not None:
                if best is None:
                    best = world
                if rng.random() > self.likelihood(world):
                    continue
            return world
        return best

    def draw_many(self, rng: random.Random, n: int) -> list[World]:
        """Up to ``n`` worlds."""
        out = []
        for _ in range(n):
            world = self.draw(rng)
            if world is None:
                break
            out.append(world)
        return out


# ---------------------------------------------------------------------------------------- reconstruction


def _discarder_before(log: Sequence[LogEntry], index: int) -> int:
    """Index of the bid whose discard is the talon taken at ``index``."""
    obliged = -2
    last = -1
    for i in range(index):
        entry = log[i]
        if entry.action is Kind.TAKE:
            obliged = entry.seat
        elif entry.action is Kind.BID:
            if obliged == entry.seat or obliged == -2:
                last = i
            obliged = -1
    return last


def _has_discard(log: Sequence[LogEntry]) -> list[bool]:
    out = []
    obliged = -2
    for entry in log:
        flag = False
        if entry.action is Kind.TAKE:
            obliged = entry.seat
        elif entry.action is Kind.BID:
            flag = obliged in (-2, entry.seat)
            obliged = -1
        out.append(flag)
    return out


def world_to_deal(view: SeatView, world: World, rng: random.Random) -> Deal:
    """An engine deal that gives ``view.seat`` exactly ``view``, with the unseen cards of ``world``.

    The auction's hidden discards are chosen backwards; then every logged action is replayed through
    the engine. Raises ``ValueError`` if ``world`` cannot be rebuilt (it is inconsistent with the view).
    """
    know = analyse(view)
    log = view.log
    dealt, discards = rebuild(know, log, world, rng)
    deal = Deal(dealt, view.dealer)
    for i, entry in enumerate(log):
        deal.apply(_action(entry, discards.get(i)))
    return deal


def rebuild(
    know: Knowledge, log: Sequence[LogEntry], world: World, rng: random.Random
) -> tuple[list[CardSet], dict[int, tuple[Card, Card]]]:
    """The dealt hands and the hidden discards (by log index) that lead to ``world``; ``ValueError`` if none.

    Walks the log backwards: a play returns its card to the hand, a discard returns the talon to the
    discarder, and a take of a talon the viewer never saw gives back two cards of the taker's hand,
    chosen among those the tracked knowledge allows (cards the taker could not have held before must be
    among them).
    """
    seat = know.seat
    hands = list(world.hands)
    talon = world.talon
    with_discard = _has_discard(log)
    discards: dict[int, tuple[Card, Card]] = {}
    for i in range(len(log) - 1, -1, -1):
        entry = log[i]
        s = entry.seat
        kind = entry.action
        if kind is Kind.PLAY:
            assert entry.card is not None
            hands[s] |= 1 << entry.card
        elif kind is Kind.BID and with_discard[i]:
            if talon.bit_count() != 2:
                raise ValueError(f"action {i}: the talon should hold 2 cards")
            own = entry.discard if s == seat else None
            if own is not None and talon != _pair_mask(own):
                raise ValueError(f"action {i}: the talon is not the viewer's discard")
            a, b = iter_cards(talon)
            if own is not None:
                a, b = own
            discards[i] = (a, b)
            hands[s] |= talon
            talon = 0
        elif kind is Kind.TAKE:
            if s == seat:
                assert entry.cards is not None
                taken = entry.cards
            else:
                j = _discarder_before(log, i)
                seen = log[j].discard if log[j].seat == seat else None
                if seen is not None:
                    taken = _pair_mask(seen)
                else:
                    taken = _choose_taken(know, hands[s], s, i, j, log[j].seat, rng)
            if hands[s] & taken != taken:
                raise ValueError(f"action {i}: seat {s} does not hold the talon it took")
            hands[s] &= ~taken
            talon = taken
    if talon:
        raise ValueError("cards left in the talon before the opener's discard")
    return hands, discards


def _choose_taken(
    know: Knowledge, held: CardSet, taker: int, i: int, j: int, discarder: int, rng: random.Random
) -> CardSet:
    before_take = know.snapshots[i]
    before_discard = know.snapshots[j]
    others = 0
    for loc in range(4):
        if loc != discarder:
            others |= before_discard[loc]
    forced_at_discarder = before_discard[discarder] & ~others
    required = held & ~before_take[taker]
    if taker != discarder:
        required |= held & forced_at_discarder
    allowed = held & before_take[TALON]
    if required & ~allowed or required.bit_count() > 2:
        raise ValueError(f"action {i}: no talon fits")
    pool = list(iter_cards(allowed & ~required))
    rng.shuffle(pool)
    taken = required
    for card in pool:
        if taken.bit_count() == 2:
            break
        taken |= 1 << card
    if taken.bit_count() != 2:
        raise ValueError(f"action {i}: no talon fits")
    return taken


def _action(entry: LogEntry, discard: tuple[Card, Card] | None) -> Action:
    """The action an entry logs, with ``discard`` for a bid (the viewer sees only its own discards)."""
    return Action(entry.seat, entry.action, entry.bid, discard, entry.suit, entry.parts, entry.card)
