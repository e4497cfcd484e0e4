"""The discard model: how likely a bidder lays a given pair of cards away from its 12 cards, fitted to data.

A seat that takes the talon sees the two cards the bidder before it laid away. Those cards say something
about the hand the bidder kept: bidders lay a short side suit away whole to make a void to ruff in, keep
their trumps and their marriages, and in a betli lay their high cards away. The uniform worlds know none of
it. This model prices it: per family of the bid made with the discard
(``discard_family``), a conditional logit over the 66 pairs of the 12 cards, each pair scored by the
features of its two cards in that hand (``card_features``) and of the pair (``pair_features``), fitted by
``ulti.lab.discard_fit`` to the discards the bots' auctions made. ``discard_probability`` is the chance
the model gives the pair laid away: a world whose hands make the seen discard likelier weighs more.

The coefficients live in ``ulti.bots.expert.discard_fitted`` (written by the fit; its docstring holds the
command), one model with trumps and one for a betli (a no-trump durchmars has too few discards for a
model). How well they predict held-out discards is a row of ``docs/lab-journal.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ulti.bots.expert.discard_fitted import COEFFICIENTS
from ulti.bots.heuristic import trump_strength
from ulti.bots.sampling import Knowledge, World
from ulti.bots.strong.hand import bid_trumps
from ulti.engine.cards import (
    KING,
    PLAIN_ORDER_STRENGTH,
    POINT_CARDS,
    QUEEN,
    SUIT_MASKS,
    TRUMP_ORDER_STRENGTH,
    Card,
    CardSet,
    count,
    iter_cards,
)
from ulti.engine.contracts import Bid, Part
from ulti.engine.play import NO_TRUMP

#: The discard families: a betli lays its high cards away, a no-trump durchmars its losers, a bid with
#: trumps its short side suits.
DISCARD_FAMILIES = ("betli", "nt-durchmars", "trumps")
#: The names of the features, cards' first, in the order of the coefficients (the intercept-free model).
FEATURE_NAMES = (
    "trump",
    "strength",
    "point card",
    "suit length",
    "singleton",
    "marriage",
    "lower held",
    "voids a doubleton",
    "same suit",
)


def discard_family(bid: Bid) -> str:
    """The discard model's family of the bid a discard was made with (``DISCARD_FAMILIES``)."""
    if bid.has_trumps:
        return "trumps"
    return "betli" if bid.has(Part.BETLI) else "nt-durchmars"


def intended_trump(bid: Bid, hand: CardSet) -> int:
    """The trump a bidder holding ``hand`` (12 cards) most likely means by ``bid``: hearts for a red bid,
    the suit the hand is strongest in for another bid with trumps, ``NO_TRUMP`` for one without."""
    if not bid.has_trumps:
        return NO_TRUMP
    return max(bid_trumps(bid), key=lambda t: (trump_strength(hand, t), t))


def card_features(hand: CardSet, card: Card, trump: int, betli: bool) -> list[float]:
    """The features of laying ``card`` away from the 12-card ``hand`` with ``trump`` in mind (``NO_TRUMP``:
    none; ``betli``: the betli order of ranks, where the 10 sits below the jack)."""
    suit, rank = card >> 3, card & 7
    mine = hand & SUIT_MASKS[suit]
    length = count(mine)
    partner = suit * 8 + (QUEEN if rank == KING else KING)
    lower = count(mine & ((1 << card) - 1)) if betli else 0
    return [
        float(suit == trump),
        (PLAIN_ORDER_STRENGTH if betli else TRUMP_ORDER_STRENGTH)[rank] / 7.0,
        float(bool(POINT_CARDS >> card & 1)),
        float(length),
        float(length == 1),
        float(rank in (KING, QUEEN) and bool(hand >> partner & 1)),
        float(lower),
    ]


def pair_features(hand: CardSet, a: Card, b: Card) -> list[float]:
    """The features of laying ``a`` and ``b`` away together: whether they are a whole two-card suit of the
    12-card ``hand`` (a void made), whether they share a suit otherwise."""
    same = a >> 3 == b >> 3
    whole = same and count(hand & SUIT_MASKS[a >> 3]) == 2
    return [float(whole), float(same and not whole)]


@dataclass(frozen=True)
class PairTable:
    """Every pair of a 12-card hand with its features (the fit's and the probability's common ground)."""

    pairs: tuple[tuple[Card, Card], ...]
    features: tuple[tuple[float, ...], ...]


def pair_table(hand: CardSet, bid: Bid) -> PairTable:
    """The 66 pairs of the 12-card ``hand`` of a seat bidding ``bid``, each with its features (the two cards'
    summed, then the pair's)."""
    trump = intended_trump(bid, hand)
    betli = discard_family(bid) == "betli"
    cards = list(iter_cards(hand))
    per_card = {c: card_features(hand, c, trump, betli) for c in cards}
    pairs = []
    features = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            pairs.append((a, b))
            summed = [x + y for x, y in zip(per_card[a], per_card[b], strict=True)]
            features.append(tuple(summed + pair_features(hand, a, b)))
    return PairTable(tuple(pairs), tuple(features))


def pair_scores(coefficients: Sequence[float], table: PairTable) -> list[float]:
    """Each pair's score (log odds up to a constant) under ``coefficients``."""
    return [sum(c * x for c, x in zip(coefficients, f, strict=True)) for f in table.features]


def discard_probability(coefficients: Sequence[float], hand: CardSet, bid: Bid, pair: CardSet) -> float:
    """The model's probability that a seat bidding ``bid`` with the 12-card ``hand`` lays ``pair`` away.

    Worked out in closed form (a pair's score is its cards' scores plus a term for a pair of one suit, so the
    sum over the 66 pairs comes from per-suit sums), as the samplers call it for every world they try; the
    same as normalising ``pair_scores`` over the pairs (the tests check it).

    >>> from ulti.engine.cards import mask_of, parse_card
    >>> from ulti.engine.contracts import BIDS_BY_CODE
    >>> hand = mask_of(parse_card(c) for c in "7H 8H 9H TH JH QH KH AH AS TS 7C 8C".split())
    >>> void = mask_of(parse_card(c) for c in ("7C", "8C"))
    >>> coefficients = (0.0,) * 7 + (2.0, 0.0)  # only a void made counts: e^2 / (2 e^2 + 64 others)
    >>> round(discard_probability(coefficients, hand, BIDS_BY_CODE["H-S"], void), 3)
    0.094
    """
    if hand & pair != pair or count(pair) != 2:
        raise ValueError("the pair laid away is not in the hand")
    return hand_terms(coefficients, hand, bid).probability(pair)


@dataclass(frozen=True)
class HandTerms:
    """What the probability of any pair laid away from one 12-card hand shares: each card's factor (the
    exponential of its score, by card), the factors of a pair of one suit that makes a void (``whole``) or
    not (``same``), and the sum over the 66 pairs (``total``); per suit, whether it is a doubleton."""

    factors: dict[Card, float]
    whole: float
    same: float
    doubleton: tuple[bool, bool, bool, bool]
    total: float

    def probability(self, pair: CardSet) -> float:
        """The probability of laying ``pair`` (two cards of the hand) away."""
        a, b = iter_cards(pair)
        chosen = 1.0
        chosen *= self.factors[a]
        chosen *= self.factors[b]
        if a >> 3 == b >> 3:
            chosen *= self.whole if self.doubleton[a >> 3] else self.same
        return chosen / self.total


def hand_terms(coefficients: Sequence[float], hand: CardSet, bid: Bid) -> HandTerms:
    """The terms every pair's probability from the 12-card ``hand`` of a seat bidding ``bid`` shares, in
    closed form (a pair's score is its cards' scores plus a term for a pair of one suit, so the sum over
    the 66 pairs comes from per-suit sums)."""
    trump = intended_trump(bid, hand)
    betli = discard_family(bid) == "betli"
    card_coefficients = coefficients[: len(FEATURE_NAMES) - 2]
    whole, same = math.exp(coefficients[-2]), math.exp(coefficients[-1])
    factors: dict[Card, float] = {}
    suit_sums, suit_squares = [0.0] * 4, [0.0] * 4
    for card in iter_cards(hand):
        features = card_features(hand, card, trump, betli)
        e = math.exp(sum(c * x for c, x in zip(card_coefficients, features, strict=True)))
        suit_sums[card >> 3] += e
        suit_squares[card >> 3] += e * e
        factors[card] = e
    everything = sum(suit_sums)
    total = (everything * everything - sum(suit_squares)) / 2
    doubleton = tuple(count(hand & SUIT_MASKS[suit]) == 2 for suit in range(4))
    for suit in range(4):
        within = (suit_sums[suit] ** 2 - suit_squares[suit]) / 2
        total += ((whole if doubleton[suit] else same) - 1) * within
    return HandTerms(factors, whole, same, (doubleton[0], doubleton[1], doubleton[2], doubleton[3]), total)


class ProbabilityCache:
    """``discard_probability`` with each hand's shared terms (``hand_terms``) remembered by hand and bid: a
    sampler's chain tries the same 12 cards again and again, with another pair laid away or the same
    (emptied past ``limit`` hands, to bound its memory)."""

    def __init__(self, limit: int = 100_000) -> None:
        """An empty cache of at most about ``limit`` hands."""
        self.limit = limit
        self.known: dict[tuple[CardSet, str], HandTerms] = {}

    def probability(self, hand: CardSet, bid: Bid, pair: CardSet) -> float:
        """The model's probability that a seat bidding ``bid`` with the 12-card ``hand`` lays ``pair`` away
        (the bid's family must have fitted coefficients; ``pair`` two cards of ``hand``)."""
        key = (hand, bid.code)
        terms = self.known.get(key)
        if terms is None:
            terms = hand_terms(COEFFICIENTS[discard_family(bid)], hand, bid)
            if len(self.known) > self.limit:
                self.known.clear()
            self.known[key] = terms
        return terms.probability(pair)


#: The probabilities every talon weight reads: a deal's decisions price the same hands and talons again. A
#: hand's terms take about a kilobyte: a few thousand hands (a few decisions' worth) bound the process's memory.
_PROBABILITIES = ProbabilityCache(limit=5_000)


def talon_weight(know: Knowledge) -> Callable[[World], float] | None:
    """The likelihood of each world by the talon a defender cannot see: the declarer laid it away with the
    contract's bid, so a world weighs the model's probability that the declarer, holding there its start
    hand plus that talon, laid the talon away (a talon of trumps or aces is unlikely, one that voids a short
    side suit likely); None for the declarer, before the contract, when the contract's family has no
    fitted model, or for a durchmars: the trumps model was fitted to the discards of every bid with trumps,
    and a durchmars declarer lays away otherwise (its talon so priced placed a defender's unseen cards worse
    than the worlds without it: ``ulti.lab.location``)."""
    contract = know.contract
    if contract is None or know.seat == know.declarer or not know.talon_size:
        return None
    if discard_family(contract) not in COEFFICIENTS or contract.has(Part.DURCHMARS):
        return None
    declarer = know.declarer
    cache = _PROBABILITIES

    def weight(world: World) -> float:
        return cache.probability(know.start_hand(world, declarer) | world.talon, contract, world.talon)

    return weight
