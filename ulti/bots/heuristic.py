"""A fast rule-of-thumb bot: hand evaluation for bids, talon and kontra; plain sound card play.

It reads only its seat's view. It is the "instant" level; the strong (sampling + solver) bot is
separate work.
"""

from __future__ import annotations

import random

from ulti.bots.interface import seat_and_choices
from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import (
    ACE,
    KING,
    PLAIN_ORDER_STRENGTH,
    POINT_CARDS,
    QUEEN,
    SEVEN,
    SUIT_LETTERS,
    SUIT_MASKS,
    TEN,
    TRUMP_ORDER_STRENGTH,
    Card,
    CardSet,
    count,
    iter_cards,
)
from ulti.engine.contracts import BIDS_BY_CODE, Bid, Part
from ulti.engine.deal import Phase
from ulti.engine.play import beats, trick_winner_index
from ulti.engine.view import SeatChoices, SeatView


def _strength(card: Card, trumps: bool) -> int:
    # the card's place inside its suit in the engine's rank order; used to sort and to judge winners
    return (TRUMP_ORDER_STRENGTH if trumps else PLAIN_ORDER_STRENGTH)[card & 7]


def has_card(hand: CardSet, suit: int, rank: int) -> bool:
    """Whether ``hand`` holds the card of ``rank`` in ``suit``."""
    return bool(hand >> (suit * 8 + rank) & 1)


def trump_strength(hand: CardSet, suit: int) -> float:
    """A rough count of tricks and points ``hand`` makes with ``suit`` as trumps."""
    trumps = hand & SUIT_MASKS[suit]
    length = count(trumps)
    score = 1.2 * length
    score += 1.5 * has_card(hand, suit, ACE) + 1.0 * has_card(hand, suit, TEN) + 0.5 * has_card(hand, suit, KING)
    for side in range(4):
        if side == suit:
            continue
        score += 1.3 * has_card(hand, side, ACE)
        if has_card(hand, side, TEN) and count(hand & SUIT_MASKS[side]) >= 2:
            score += 0.6
        if not hand & SUIT_MASKS[side] and length >= 4:
            score += 0.5  # a void to ruff in
    return score


def betli_risk(hand: CardSet) -> int:
    """How many cards of ``hand`` are likely to win a trick in a no-trump contract."""
    risk = 0
    for suit in range(4):
        cards = sorted(c & 7 for c in iter_cards(hand & SUIT_MASKS[suit]))
        for i, rank in enumerate(cards):
            # the i-th lowest card is safe if at least i+1 lower cards are out, roughly rank > 2*i
            if rank > 2 * i + 1:
                risk += 1
    return risk


def choose_discard(hand: CardSet, trump: int) -> tuple[Card, Card]:
    """Two cards to lay away: low, short side-suit cards, never aces or tens if avoidable."""

    def cost(card: Card) -> float:
        suit = card >> 3
        value = 0.0
        if suit == trump:
            value += 20
        if (1 << card) & POINT_CARDS:
            value += 10  # talon points go to the defenders
        value += _strength(card, True)
        value += 0.8 * count(hand & SUIT_MASKS[suit])
        if card & 7 in (KING, QUEEN) and has_card(hand, suit, QUEEN if card & 7 == KING else KING):
            value += 6  # keep marriages
        return value

    ranked = sorted(iter_cards(hand), key=cost)
    return ranked[0], ranked[1]


class HeuristicBot:
    """Rule-of-thumb bidding, talon handling, kontra and card play."""

    def __init__(self, rng: random.Random, boldness: float = 0.0) -> None:
        """A heuristic bot; ``rng`` breaks ties, ``boldness`` shifts its bidding thresholds."""
        self.rng = rng
        self.boldness = boldness

    # ---------------------------------------------------------------- entry point

    def act(self, view: SeatView) -> Action:
        """The bot's action for its seat, given its view."""
        seat, ch = seat_and_choices(view)
        if view.phase is Phase.AUCTION:
            return self._auction(view, seat, ch)
        if view.phase is Phase.TRUMP:
            hand = view.hand
            best = max(ch.trumps, key=lambda s: trump_strength(hand, s))
            if ch.may_give_up and trump_strength(hand, best) < 7.5:
                return act.give_up(seat)
            return act.trump(seat, best)
        if ch.kontra is not None:
            chosen = self._kontra(view, ch)
            if chosen is not None or not ch.cards:
                return act.kontra(seat, chosen or ())
        return act.play(seat, self.choose_card(view, ch))

    # ---------------------------------------------------------------- auction

    def _best_bid(self, hand: CardSet) -> tuple[Bid, float]:
        """The highest bid this 10-card hand can sensibly declare, and a confidence margin."""
        best_suit = max(range(3), key=lambda s: trump_strength(hand, s))
        minor = trump_strength(hand, best_suit)
        hearts = trump_strength(hand, 3)
        b = self.boldness
        options: list[tuple[Bid, float]] = []
        if betli_risk(hand) == 0:
            options.append((BIDS_BY_CODE["N-B"], 1.0))
        for kind, suit, strength in (("M", best_suit, minor), ("H", 3, hearts)):
            trumps = hand & SUIT_MASKS[suit]
            margin = strength - 9.0 + b
            if margin >= 0:
                options.append((BIDS_BY_CODE[f"{kind}-S"], margin))
            if has_card(hand, suit, SEVEN) and count(trumps) >= 5 and has_card(hand, suit, ACE) and strength >= 11 - b:
                options.append((BIDS_BY_CODE[f"{kind}-SU"], strength - 11 + b))
            if has_card(hand, suit, KING) and has_card(hand, suit, QUEEN) and strength >= 12 - b:
                options.append((BIDS_BY_CODE[f"{kind}-40"], strength - 12 + b))
        if not options:
            return BIDS_BY_CODE["M-S"], minor - 9.0
        return max(options, key=lambda o: (o[0].key, o[1]))

    def _auction(self, view: SeatView, seat: int, ch: SeatChoices) -> Action:
        hand = view.hand
        allowed = set(ch.bids)
        if ch.must_discard:
            # 12 cards: try each plausible trump suit's discard and bid the best legal option
            candidates = []
            for suit in range(4):
                a, b = choose_discard(hand, suit)
                kept = hand & ~((1 << a) | (1 << b))
                bid, margin = self._best_bid(kept)
                candidates.append((bid in allowed, bid.key, margin, (a, b), bid))
            candidates.sort(key=lambda c: (c[0], c[1], c[2]), reverse=True)
            ok, _, _, discard, bid = candidates[0]
            if not ok:
                bid = min(ch.bids, key=lambda x: x.key)  # ties to the table's order, not a set's (hash order)
            return act.bid(seat, bid, discard)
        bid, margin = self._best_bid(hand)
        if bid in allowed and margin >= 0:
            return act.bid(seat, bid)
        if ch.may_take and bid in allowed and margin >= -1.0 and view.auction.bidder != seat:
            return act.take(seat)
        return act.pass_(seat)

    # ---------------------------------------------------------------- kontra

    def _kontra(self, view: SeatView, ch: SeatChoices) -> tuple[Part, ...] | None:
        hand = view.hand
        contract = view.contract
        kontra = ch.kontra
        assert contract is not None and kontra is not None
        if view.seat == contract.declarer or kontra.step != "kontra":
            return None  # the chain is left to the strong bot's simulations
        trump = contract.trump
        strong = count(hand & POINT_CARDS) >= 4
        if trump is not None:
            strong = strong and count(hand & SUIT_MASKS[trump]) >= 3
        chosen = tuple(p for p in kontra.parts if p is Part.SIMPLE and strong)
        return chosen or None

    # ---------------------------------------------------------------- card play

    def choose_card(self, view: SeatView, ch: SeatChoices) -> Card:
        """The card this bot plays from ``ch.cards`` (the strong bot breaks its ties with it)."""
        contract = view.contract
        current = view.trick
        assert contract is not None and current is not None and view.seat is not None
        trump = contract.trump if contract.trump is not None else -1
        betli = contract.bid.part_value(Part.BETLI) > 0
        trick = tuple(current.cards)
        return heuristic_card(ch.cards, trick, current.leader, view.seat, contract.declarer, trump, betli)


def heuristic_card(
    legal: CardSet, trick: tuple[Card, ...], leader: int, seat: int, declarer: int, trump: int, betli: bool
) -> Card:
    """The heuristic bot's card from ``legal`` for ``seat``, the trick so far ``trick`` led by ``leader``
    (``trump`` -1 for none; ``betli``: a betli contract). A function of those alone."""
    has_trumps = trump >= 0
    cards = sorted(iter_cards(legal), key=lambda c: (_strength(c, has_trumps), c))
    low, high = cards[0], cards[-1]
    if not trick:
        if betli:
            return low if seat == declarer else high
        aces = [c for c in cards if c & 7 == ACE and c >> 3 != trump]
        if aces:
            return aces[0]
        if seat == declarer and has_trumps and count(legal & SUIT_MASKS[trump]) >= 3:
            return max((c for c in cards if c >> 3 == trump), key=lambda c: _strength(c, True))
        return low
    # who is winning so far
    top_i = trick_winner_index(list(trick), trump)
    top = trick[top_i]
    top_seat = (leader + top_i) % 3
    winners = [c for c in cards if beats(c, top, trump)]
    if betli:
        if seat == declarer:
            losers = [c for c in cards if c not in winners]
            return losers[-1] if losers else low
        return low
    partner_winning = seat != declarer and top_seat != declarer
    last = len(trick) == 2
    if partner_winning and last:
        points = [c for c in cards if (1 << c) & POINT_CARDS and c >> 3 != trump]
        return points[-1] if points else low
    if winners and (last or top_seat == declarer or seat == declarer):
        return winners[0]
    non_points = [c for c in cards if not (1 << c) & POINT_CARDS]
    return non_points[0] if non_points else low


def parse_suit_letter(letter: str) -> int:
    """Suit index of a suit letter."""
    return SUIT_LETTERS.index(letter)

