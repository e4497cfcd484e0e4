"""Pricing one decision from what the deciding seat knew: every legal alternative valued over sampled worlds.

The method is the strong bot's (``ulti.bots.strong``): the seat's view is read into ``Knowledge``
(``ulti.bots.sampling.analyse``), worlds consistent with it are drawn (the bid weighs a defender's worlds by
how plausible the declarer's hand is, as the bot does), each world is solved exactly (``ulti.bots.solver``)
once per alternative, and the values are averaged. The worlds of a card or kontra decision may be weighted
another bot's way instead (``Weighting``: the coach weighs them the expert bot's way,
``ulti.bots.expert.expert_weight``, and draws them by its Metropolis chain); the trump and the discard,
decided before any card, are drawn unweighted, as every bot draws them. Every value is in the seat's **own
points per defender**: the declarer's ``per_defender`` for the declarer, its negation for a defender (a
defender's own score is exactly ``-per_defender``; the declarer's is twice it, counted here per defender so
that the seats' costs are on one scale).

Alternatives are keyed by short stable strings: a card code for a card (``"AH"``); for a kontra step the
parts raised joined by ``+`` (``"simple+ulti"``), ``"none"`` for declining; for the trump the suit
letter (``"C"``, ``"S"``, ``"D"``) and ``"give_up"``; for the declarer's discard the two cards' codes
joined by ``+`` in the engine's card order (``"7C+8C"``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ulti.bots.sampling import Knowledge, MetropolisSampler, Sampler, World, analyse
from ulti.bots.solver import Position, values_after
from ulti.bots.strong import GIVE_UP, declarer_weight, equal_groups, position_of, solve_value
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import (
    FULL_DECK,
    KING,
    QUEEN,
    SUIT_LETTERS,
    Card,
    CardSet,
    card_str,
    iter_cards,
)
from ulti.engine.contracts import Bid, Part
from ulti.engine.phase import Phase
from ulti.engine.view import SeatView

#: Worlds sampled per decision by default: enough for a cost's sampling error to be a fraction of a
#: point on most decisions, and a whole deal's analysis within seconds on one core (benchmarks/analysis_bench.py).
DEFAULT_WORLDS = 64

#: How the worlds of a card or kontra decision are weighted: from the deciding seat's view and what it
#: knows (``analyse(view)``), the likelihood each drawn world is accepted with (None: every world alike).
Weighting = Callable[[SeatView, Knowledge], Callable[[World], float] | None]


def strong_weight(view: SeatView, know: Knowledge) -> Callable[[World], float] | None:
    """The strong bot's weighting (the default): a defender weighs each world by how well the declarer's
    hand fits the contract (``declarer_weight``); the declarer takes every world alike."""
    return declarer_weight(know)


#: The key of declining a kontra step.
DECLINE = "none"
#: The key of giving up a plain minor Simple game.
GIVE_UP_KEY = "give_up"


@dataclass(frozen=True)
class Priced:
    """The alternatives of one decision and their per-world values (seat's own points per defender).

    ``kind`` is ``"play"``, ``"kontra"``, ``"trump"`` or ``"discard"``; ``samples[key]`` holds one value per world,
    in the same world order for every key (costs are paired differences); ``worlds`` is how many.
    """

    kind: str
    samples: dict[str, list[float]]
    worlds: int

    def mean(self, key: str) -> float:
        """The mean value of alternative ``key``."""
        values = self.samples[key]
        return sum(values) / len(values) if values else 0.0

    def means(self) -> dict[str, float]:
        """Every alternative's mean value, in the alternatives' order."""
        return {key: self.mean(key) for key in self.samples}

    def best(self, prefer: str | None = None) -> str:
        """The alternative with the highest mean; ``prefer`` wins a tie (a chosen action that is as good)."""
        means = self.means()
        top = max(means.values())
        if prefer is not None and prefer in means and means[prefer] >= top - 1e-9:
            return prefer
        return next(key for key, value in means.items() if value >= top - 1e-9)

    def cost(self, chosen: str) -> tuple[float, float]:
        """(cost, standard error) of ``chosen``: the best mean minus its mean (never below zero), and the
        sampling error of that paired difference over the worlds."""
        best = self.best(prefer=chosen)
        diffs = [b - c for b, c in zip(self.samples[best], self.samples[chosen], strict=True)]
        n = len(diffs)
        mean = max(0.0, sum(diffs) / n) if n else 0.0
        if n < 2:
            return mean, 0.0
        avg = sum(diffs) / n
        var = sum((d - avg) ** 2 for d in diffs) / (n - 1)
        return mean, (var / n) ** 0.5


def action_key(action: Action) -> str:
    """The alternative key of a recorded action (see the module docstring); "" for auction actions."""
    if action.kind is Kind.PLAY and action.card is not None:
        return card_str(action.card)
    if action.kind is Kind.KONTRA:
        return kontra_key(action.parts or ())
    if action.kind is Kind.TRUMP and action.suit is not None:
        return SUIT_LETTERS[action.suit]
    if action.kind is Kind.GIVE_UP:
        return GIVE_UP_KEY
    return ""


def kontra_key(parts: tuple[Part, ...] | list[Part]) -> str:
    """The key of raising ``parts`` (in the contract's order) one kontra step."""
    return "+".join(p.value for p in parts) if parts else DECLINE


def card_groups(legal: CardSet, know: Knowledge) -> list[list[Card]]:
    """The legal cards split into classes that are equal in every world the seat can imagine.

    Two cards of one suit are equal when no card that may still be in another hand lies between them,
    both or neither are point cards (aces and tens), and neither is the trump 7 (the ulti's card):
    whichever is played, the rest of the deal goes the same way. One solve per class is enough.
    """
    return equal_groups(legal, know.trump, FULL_DECK & ~know.hand & ~know.played)


def draw_worlds(
    view: SeatView, know: Knowledge, n: int, rng: random.Random, weighting: Weighting, chain: bool = False
) -> list[World]:
    """Up to ``n`` worlds of ``view`` weighted by ``weighting``: by rejection sampling (``Sampler``, as the
    strong bot draws them), or with ``chain`` by a Metropolis chain (``MetropolisSampler``, as the expert)."""
    likelihood = weighting(view, know)
    sampler = MetropolisSampler(know, likelihood) if chain else Sampler(know, likelihood)
    return sampler.draw_many(rng, n)


def price_cards(
    view: SeatView,
    legal: CardSet,
    n: int,
    rng: random.Random,
    weighting: Weighting = strong_weight,
    chain: bool = False,
) -> Priced | None:
    """Every legal card of the seat on turn valued over ``n`` worlds drawn with ``weighting`` (``chain``:
    by ``draw_worlds``' Metropolis chain; None if no world fits its view)."""
    know = analyse(view)
    sign = 1 if know.seat == know.declarer else -1
    groups = card_groups(legal, know)
    worlds = draw_worlds(view, know, n, rng, weighting, chain)
    if not worlds:
        return None
    per_group: list[list[float]] = [[] for _ in groups]
    leads = [group[0] for group in groups]
    for world in worlds:
        pos = position_of(know, world)
        for k, value in enumerate(values_after(pos, leads)):
            per_group[k].append(float(sign * value))
    samples: dict[str, list[float]] = {}
    for card in iter_cards(legal):  # every card, in the engine's order, with its class's values
        k = next(i for i, group in enumerate(groups) if card in group)
        samples[card_str(card)] = per_group[k]
    return Priced("play", samples, len(worlds))


def price_kontra(
    view: SeatView,
    parts: tuple[Part, ...],
    n: int,
    rng: random.Random,
    weighting: Weighting = strong_weight,
    chain: bool = False,
) -> Priced | None:
    """Declining and every non-empty subset of ``parts`` raised one step, valued over ``n`` worlds drawn
    with ``weighting`` (``chain``: by ``draw_worlds``' Metropolis chain).

    The raise is priced as the multipliers it leaves standing: the solver cannot foresee a later step
    of the chain, so a raise is valued as if the opponents let it stand.
    """
    know = analyse(view)
    sign = 1 if know.seat == know.declarer else -1
    worlds = draw_worlds(view, know, n, rng, weighting, chain)
    if not worlds:
        return None
    subsets: list[tuple[Part, ...]] = [()]
    for size in range(1, len(parts) + 1):
        subsets.extend(itertools.combinations(parts, size))
    samples: dict[str, list[float]] = {kontra_key(s): [] for s in subsets}
    for world in worlds:
        pos = position_of(know, world)
        for subset in subsets:
            mult = dict(know.multipliers)
            for part in subset:
                mult[part] = mult.get(part, 1) * 2
            value = solve_value(replace(pos, multipliers=mult))
            samples[kontra_key(subset)].append(float(sign * value))
    return Priced("kontra", samples, len(worlds))


def price_trump(
    view: SeatView, trumps: tuple[int, ...], may_give_up: bool, n: int, rng: random.Random
) -> Priced | None:
    """Each trump suit the declarer may name (and the give-up when allowed), valued over ``n`` worlds,
    drawn unweighted as the bots draw them (the declarer has nothing to weigh them by: ``declarer_weight``)."""
    know = analyse(view)
    assert know.contract is not None
    worlds = Sampler(know).draw_many(rng, n)
    if not worlds:
        return None
    samples: dict[str, list[float]] = {SUIT_LETTERS[t]: [] for t in trumps}
    if may_give_up:
        samples[GIVE_UP_KEY] = []
    for world in worlds:
        hands = list(world.hands)
        hands[know.seat] = know.hand
        for t in trumps:
            pos = Position.start(hands, know.seat, know.contract, t, world.talon)
            samples[SUIT_LETTERS[t]].append(float(solve_value(pos)))
        if may_give_up:
            samples[GIVE_UP_KEY].append(float(GIVE_UP))
    return Priced("trump", samples, len(worlds))


#: Worlds on which every distinct discard is valued first (the screening), before the best few are valued
#: on all the worlds: valuing all 66 discards on 64 worlds takes up to 5 s for one trump contract, the
#: screening and the candidates a tenth of that (benchmarks/analysis_bench.py).
DISCARD_SCREEN_WORLDS = 4
#: Discards valued on all the worlds besides the one laid: the best of the screening.
DISCARD_CANDIDATES = 5


def discard_key(cards: tuple[Card, Card] | list[Card]) -> str:
    """The key of laying ``cards`` away: their codes in the engine's card order joined by ``+`` ("7C+8C")."""
    return "+".join(card_str(c) for c in sorted(cards))


def _card_classes(hand: CardSet, trump: int) -> dict[Card, int]:
    """Each card of the 12-card ``hand`` → its class of equal cards for a discard (see ``discard_classes``)."""
    kings_queens = 0
    for suit in range(4):
        kings_queens |= (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
    groups = equal_groups(hand, trump, FULL_DECK & ~hand, alone=kings_queens)
    return {card: k for k, group in enumerate(groups) for card in group}


def _pair_class(klass: dict[Card, int], pair: tuple[Card, Card]) -> tuple[int, int]:
    a, b = klass[pair[0]], klass[pair[1]]
    return (min(a, b), max(a, b))


def discard_classes(hand: CardSet, trump: int) -> dict[tuple[int, int], tuple[Card, Card]]:
    """One discard per class of equal discards of the 12-card ``hand``, keyed by the pair of card classes.

    Laying away either of two equal cards (``equal_groups``, every card outside the hand outstanding)
    leaves hands that play the same. Kings and queens are never equal to another card here: which of
    them is kept decides a marriage. The first discard of each class in the engine's order represents it.
    """
    klass = _card_classes(hand, trump)
    out: dict[tuple[int, int], tuple[Card, Card]] = {}
    for a, b in itertools.combinations(iter_cards(hand), 2):
        out.setdefault(_pair_class(klass, (a, b)), (a, b))
    return out


def price_discards(
    view: SeatView, bid: Bid, trump: int, chosen: tuple[Card, Card], n: int, rng: random.Random
) -> Priced | None:
    """The declarer's discard from 12 cards valued for the contract it played (``bid`` with ``trump``).

    The other hands are drawn from the declarer's view at the moment of the discard; each world is
    solved at the start of play for each discard (without kontra: nobody has said one yet). Every
    distinct discard (``discard_classes``) is valued on the first ``DISCARD_SCREEN_WORLDS`` worlds; the
    laid one and the ``DISCARD_CANDIDATES`` best of that screening are valued on all ``n`` worlds and
    reported (a discard the screening ranked lower is not priced). None if no world fits the view.
    """
    know = analyse(view)
    seat, hand = know.seat, know.hand
    worlds = Sampler(know).draw_many(rng, n)
    if not worlds:
        return None

    def value(world: World, pair: tuple[Card, Card]) -> float:
        talon = (1 << pair[0]) | (1 << pair[1])
        hands = list(world.hands)
        hands[seat] = hand & ~talon
        return float(solve_value(Position.start(hands, seat, bid, trump, talon)))

    classes = discard_classes(hand, trump)
    laid = (min(chosen), max(chosen))
    laid_class = _pair_class(_card_classes(hand, trump), laid)
    classes[laid_class] = laid  # the laid discard stands for its class: its own cards are named
    screen = worlds[:DISCARD_SCREEN_WORLDS]
    first = {k: [value(w, pair) for w in screen] for k, pair in classes.items()}
    ranked = sorted((k for k in classes if k != laid_class), key=lambda k: -sum(first[k]))
    kept = sorted([laid_class, *ranked[:DISCARD_CANDIDATES]], key=lambda k: classes[k])
    samples: dict[str, list[float]] = {}
    for k in kept:
        pair = classes[k]
        samples[discard_key(pair)] = first[k] + [value(w, pair) for w in worlds[len(screen) :]]
    return Priced("discard", samples, len(worlds))


def price_view(
    view: SeatView,
    n: int,
    rng: random.Random,
    *,
    kind: Kind | None = None,
    legal_cards: CardSet | None = None,
    weighting: Weighting = strong_weight,
    chain: bool = False,
) -> Priced | None:
    """Price what the viewer may do now (its ``choices``): its trump, a kontra step, or its cards.

    ``kind`` picks the decision when a defender at trick 1 may both say kontra and play (default: the
    kontra step while one is offered, as the bots decide it first). ``legal_cards`` overrides the view's
    cards (a record may close the kontra chain with the trick-2 lead, when a live view offers only the
    chain's steps). ``weighting`` weighs the worlds of a card or kontra decision (default: the strong
    bot's; the trump's are unweighted), drawn with ``chain`` by a Metropolis chain (``draw_worlds``).
    None in the auction and when the seat has nothing to decide.
    """
    ch = view.choices
    if view.phase is Phase.TRUMP and ch is not None and ch.trumps:
        return price_trump(view, ch.trumps, ch.may_give_up, n, rng)
    if view.phase is not Phase.PLAY:
        return None
    if kind is not Kind.PLAY and ch is not None and ch.kontra is not None:
        return price_kontra(view, ch.kontra.parts, n, rng, weighting, chain)
    cards = legal_cards if legal_cards is not None else (ch.cards if ch is not None else 0)
    if cards and kind is not Kind.KONTRA:
        return price_cards(view, cards, n, rng, weighting, chain)
    return None
