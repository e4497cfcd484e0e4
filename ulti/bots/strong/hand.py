"""Hand evaluation: the features of a hand the strong bot bids, discards and weighs worlds by."""

from __future__ import annotations

import math

from ulti.bots.heuristic import betli_risk, trump_strength
from ulti.bots.memo import Memo
from ulti.engine.cards import KING, POINT_CARDS, QUEEN, SUIT_MASKS, TEN, Card, CardSet, count, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE, Bid, Part
from ulti.engine.play import NO_TRUMP, higher_table, seven_of


def _pair(suit: int) -> CardSet:
    return (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))


def _has_twenty(hand: CardSet, trump: int) -> bool:
    return any(hand & _pair(s) == _pair(s) for s in range(4) if s != trump)


def durchmars_losers(hand: CardSet, trump: int) -> int:
    """A rough count of tricks ``hand`` may lose when trying to take them all."""
    lanes = _LOSER_LANES.get(trump)
    if lanes is None:
        lanes = _LOSER_LANES[trump] = [
            [_suit_losers(byte << (suit * 8), suit, trump) for byte in range(256)] for suit in range(4)
        ]
    low = lanes[0][hand & 0xFF] + lanes[1][hand >> 8 & 0xFF]
    return low + lanes[2][hand >> 16 & 0xFF] + lanes[3][hand >> 24 & 0xFF]


#: Per trump, per suit, the losers of each holding of that suit (``_suit_losers``): a suit's losers depend on
#: its own cards only, and the samplers weigh many hands a second.
_LOSER_LANES: dict[int, list[list[int]]] = {}


def _suit_losers(hand: CardSet, suit: int, trump: int) -> int:
    """The cards of ``suit`` in ``hand`` that may lose a trick when the hand tries to take them all."""
    table = higher_table(trump)
    mine = hand & SUIT_MASKS[suit]
    outside = SUIT_MASKS[suit] & ~hand
    losers = 0
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


def discard_cost(hand: CardSet, card: Card, trump: int) -> float:
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
    ranked = sorted(cards, key=lambda c: discard_cost(hand, c, trump))
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


def bid_trumps(bid: Bid) -> tuple[int, ...]:
    """The trumps a contract of ``bid`` may be played with: none (``NO_TRUMP``) without trumps, hearts for
    a red bid, else each of the other three suits (its declarer names one)."""
    if not bid.has_trumps:
        return (NO_TRUMP,)
    return (3,) if bid.is_hearts else (0, 1, 2)


#: ``declarer_likelihood`` by bid code, trump and hand: the samplers weigh the same hands again and again.
_LIKELIHOODS: Memo[tuple[str, int, CardSet], float] = Memo()


def declarer_likelihood(bid: Bid, trump: int, hand: CardSet) -> float:
    """How plausible a 10-card start ``hand`` is for a declarer who bid ``bid`` (soft evidence, 0..1)."""
    key = (bid.code, trump, hand)
    known = _LIKELIHOODS.find(key)
    return known if known is not None else _LIKELIHOODS.keep(key, _declarer_likelihood(bid, trump, hand))


def _declarer_likelihood(bid: Bid, trump: int, hand: CardSet) -> float:
    """``declarer_likelihood`` computed."""
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
