"""Reading the cards the other seats played: a world where a seat's card was a mistake is less likely.

Plain sampling keeps every world the rules allow after the play so far (a seat that did not follow suit
holds none of it, ``ulti.bots.sampling.inference``) and weighs them only by the auction. But a card says
more than what it rules out: a defender who did not cover, a declarer who did not draw trumps, a seat
that threw a ten, each chose that card over others, and the worlds where that choice was a blunder are
less likely than the worlds where it was right. A good player's card is seldom one that loses value
against the hands as they lie; so, as bridge programs have done since GIB (Ginsberg 2001: the idea, not
code), each world is weighed by whether the recent cards of the other seats were among their best cards
in that world, solved double-dummy (``play_weight``): a card that was not counts ``miss`` (below one).

Double-dummy best is a player's best only when it sees every card, and no bot nor player does, so a
second reading asks what the seat could find from what it saw (``policy_best``): its best card by the
mean over a few redeals of the cards hidden from it (``redealt``), as a sampling player finds its card.
Only the last few tricks are read: the cards of earlier tricks cost far more to solve, and the worlds
already agree with what those cards ruled out.

Measured (``python -m benchmarks.play_reading_bench --deals 100 --seed 1 --every 2 --worlds 16``, deals
played by strong bots, every other card decision, the cards of the last two tricks read in the true deal
and in 16 worlds drawn as the expert draws them): the read cards were double-dummy best in the true deal
90.6% of the time and in the drawn worlds 86.4%; weighing a miss by the ratio that fits best, the true
deal gained -0.006 in mean log weight over the drawn worlds (no information; the other seats' bids, at
the first card: +0.38, ``benchmarks.evidence_bench``). By the seat's own view (``--policy 8``): 79.3% against 68.9%, and
+0.001 (ulti +0.008, simple +0.007). A sampling player's card is chosen over worlds much like the
reader's own, so whether it was best says next to nothing about which of those worlds is true; the expert
does not weigh its worlds by the play (its cost: a solve per read card and world, or eight with
``policy_best``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ulti.bots.expert.lookahead import legal_in
from ulti.bots.sampling import Knowledge, World, forbidden_after
from ulti.bots.solver import Position, values_after
from ulti.bots.strong.play import position_of
from ulti.engine.cards import Card, CardSet, card_points, count, iter_cards
from ulti.engine.contracts import Part
from ulti.engine.play import seven_of, trick_winner_index
from ulti.engine.view import SeatView


@dataclass(frozen=True)
class PlayedCard:
    """A card another seat played, with what the table looked like just before it: the trick's leader
    and its cards so far, every seat's cards played before, the tricks won and the declarer's points."""

    seat: int
    card: Card
    leader: int
    trick: tuple[Card, ...]
    played_by: tuple[CardSet, CardSet, CardSet]
    won: tuple[int, int, int]
    declarer_points: int
    #: per seat, the cards the play before showed it does not hold (``forbidden_after``)
    forbidden: tuple[CardSet, CardSet, CardSet] = (0, 0, 0)


def read_play(view: SeatView, know: Knowledge, tricks: int) -> list[PlayedCard]:
    """The cards the seats other than ``view.seat`` played in the last ``tricks`` tricks of ``view`` (the
    trick in progress counts as one; ``know = analyse(view)``), each with the table before it, in play
    order."""
    declarer, trump = know.declarer, know.trump
    seven = seven_of(trump) if know.contract is not None and know.contract.has(Part.ULTI) else -1
    done = list(view.tricks)
    all_tricks: list[tuple[int, tuple[Card, ...], int]] = [(t.leader, t.cards, t.winner) for t in done]
    if view.trick is not None and view.trick.cards:
        all_tricks.append((view.trick.leader, tuple(view.trick.cards), -1))
    first_read = len(all_tricks) - tricks
    played_by = [0, 0, 0]
    won = [0, 0, 0]
    points = 0
    forbidden = [0, 0, 0]
    read: list[PlayedCard] = []
    for index, (leader, cards, winner) in enumerate(all_tricks):
        for i, card in enumerate(cards):
            seat = (leader + i) % 3
            if index >= first_read and seat != view.seat:
                read.append(
                    PlayedCard(
                        seat,
                        card,
                        leader,
                        tuple(cards[:i]),
                        (played_by[0], played_by[1], played_by[2]),
                        (won[0], won[1], won[2]),
                        points,
                        (forbidden[0], forbidden[1], forbidden[2]),
                    )
                )
            played_by[seat] |= 1 << card
            led = cards[0] >> 3 if i else -1
            top = cards[trick_winner_index(list(cards[:i]), trump)] if i else -1
            forbidden[seat] |= forbidden_after(card, led, top, trump, seven if seat == declarer else -1)
        if winner >= 0:
            won[winner] += 1
            if winner == declarer:
                points += card_points((1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]))
    return read


def position_before(played: PlayedCard, know: Knowledge, world: World) -> Position:
    """The solver position of ``world`` just before ``played`` was played."""
    now = position_of(know, world)
    start = now.start_hands
    return replace(
        now,
        hands=(start[0] & ~played.played_by[0], start[1] & ~played.played_by[1], start[2] & ~played.played_by[2]),
        leader=played.leader,
        trick=played.trick,
        won=played.won,
        declarer_points=played.declarer_points,
    )


def _best_over(played: PlayedCard, know: Knowledge, pos: Position, deals: Iterable[Position | None]) -> bool | None:
    """Whether ``played`` (its seat to move in ``pos``) has the best total over ``deals`` (positions alike to
    ``pos`` but for the hidden cards; None entries skipped), each solved double-dummy after every legal card
    (None: no choice, no deal, or every card worth the same)."""
    cards = list(iter_cards(legal_in(pos)))
    if len(cards) < 2:
        return None
    sign = 1 if played.seat == know.declarer else -1  # the declarer maximises per_defender
    totals = [0] * len(cards)
    found = 0
    for deal in deals:
        if deal is None:
            continue
        found += 1
        for k, v in enumerate(values_after(deal, cards)):
            totals[k] += sign * v
    if not found or min(totals) == max(totals):
        return None
    return totals[cards.index(played.card)] == max(totals)


def was_best(played: PlayedCard, know: Knowledge, world: World) -> bool | None:
    """Whether ``played`` was among its seat's best cards in ``world`` solved double-dummy (None: the
    seat had no choice, or only cards alike to it)."""
    pos = position_before(played, know, world)
    return _best_over(played, know, pos, [pos])


def redealt(
    pos: Position, seat: int, forbidden: tuple[CardSet, CardSet, CardSet], rng: random.Random
) -> Position | None:
    """``pos`` with the cards ``seat`` cannot see dealt again at random between the places it cannot see
    (the other two hands, and the talon unless ``seat`` declared), each keeping its size and each hand
    holding none of its ``forbidden`` cards; None when 100 tries found no such deal.

    The cards with the fewest places open go first, each to a random open place with room left: not
    exactly uniform over the deals allowed, but it finds the one deal left when the play has pinned every
    card, where dealing blindly and rejecting would need luck."""
    hidden = [s for s in range(3) if s != seat]
    with_talon = seat != pos.declarer
    places = [pos.hands[hidden[0]], pos.hands[hidden[1]], pos.talon if with_talon else 0]
    pool = list(iter_cards(places[0] | places[1] | places[2]))
    barred = [forbidden[hidden[0]], forbidden[hidden[1]], 0]
    for _ in range(100):
        rng.shuffle(pool)
        pool.sort(key=lambda c: sum(1 for k in range(3) if places[k] and not barred[k] >> c & 1))
        room = [count(p) for p in places]
        dealt = [0, 0, 0]
        for card in pool:
            open_places = [k for k in range(3) if room[k] and not barred[k] >> card & 1]
            if not open_places:
                break
            k = rng.choice(open_places)
            dealt[k] |= 1 << card
            room[k] -= 1
        else:
            hands = list(pos.hands)
            hands[hidden[0]], hands[hidden[1]] = dealt[0], dealt[1]
            start = [pos.start_hands[s] & ~pos.hands[s] | hands[s] for s in range(3)]
            return replace(
                pos,
                hands=(hands[0], hands[1], hands[2]),
                talon=dealt[2] if with_talon else pos.talon,
                start_hands=(start[0], start[1], start[2]),
            )
    return None


def policy_best(played: PlayedCard, know: Knowledge, world: World, redeals: int, rng: random.Random) -> bool | None:
    """Whether ``played`` was among the best cards its seat could find in ``world`` from what it saw: the
    best mean over ``redeals`` deals of the cards hidden from it (``redealt``), each solved double-dummy
    (None: the seat had no choice, no redeal was found, or every card had the same mean)."""
    pos = position_before(played, know, world)
    if count(legal_in(pos)) < 2:
        return None  # no redeal to draw: the card was forced
    return _best_over(played, know, pos, (redealt(pos, played.seat, played.forbidden, rng) for _ in range(redeals)))


def play_weight(
    reads: list[PlayedCard],
    know: Knowledge,
    world: World,
    miss: float,
    reading: Callable[[PlayedCard, Knowledge, World], bool | None] = was_best,
) -> float:
    """The weight of ``world`` from the cards of ``reads``: ``miss`` for each that ``reading`` finds was not
    its seat's card there (by default ``was_best``: not among its best cards double-dummy), 1 for the others."""
    weight = 1.0
    for played in reads:
        if reading(played, know, world) is False:
            weight *= miss
    return weight


__all__ = ["PlayedCard", "play_weight", "policy_best", "position_before", "read_play", "redealt", "was_best"]
