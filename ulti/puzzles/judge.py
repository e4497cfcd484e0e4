"""Whether one card decision is a puzzle move: the only good card, from the player's view and open.

A card decision of the deal (the seat on turn in the play, no kontra step open to it) is a **puzzle
move** when all of these hold (values in the seat's own points per defender, as
``ulti.analysis.pricing`` prices them):

1. **Not forced**: the legal cards fall into at least two classes of equal cards
   (``pricing.card_groups``: cards that play alike in every world the seat can imagine).
2. **Only good one with all hands open**: in the true deal, solved exactly, one class ``B`` is best and
   every other class is worth at least ``MIN_GAP`` less.
3. **Only good one from the player's view**: over ``WORLDS`` worlds consistent with the seat's view,
   drawn and weighted as the strong bot draws them and each solved exactly (``pricing.price_cards``),
   ``B`` has the best mean, the second-best class's mean is at least ``MIN_GAP`` lower, and ``B`` is
   worth at least as much as every other class in at least ``MIN_SHARE`` of the worlds.
4. **Not obvious**: the heuristic bot's card (``HeuristicBot.choose_card``) is not in ``B``, and ``B``
   is not a **master winning at once**: the highest card still out in its suit that takes the trick as
   it lies (a card completing the trick, or a lead of the master trump).

``MIN_GAP`` is 2: every other card would be a "mistake" in the analysis's words (``review.LABELS``: a
Simple game turned from won to lost swings 2). The worlds of a decision come from a generator seeded
with the puzzle's seed string and the move's number, so a verdict is reproducible exactly
(``ulti puzzles check``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ulti.analysis.pricing import card_groups, price_cards
from ulti.analysis.review import LABELS
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.sampling import analyse
from ulti.bots.solver import Position, values_after
from ulti.engine.cards import SUIT_MASKS, Card, CardSet, card_str
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase
from ulti.engine.play import beats, higher_table, trick_winner_index

#: How much less every other class is worth (points per defender), open and over the worlds: the
#: analysis's "mistake" threshold.
MIN_GAP = dict(LABELS)["mistake"]
#: The share of the worlds in which the answer must be worth at least as much as every other class.
MIN_SHARE = 0.8
#: Worlds sampled per puzzle move (the analysis prices a decision on 64; fewer keep the cut cheaper, and
#: the answer must also win in ``MIN_SHARE`` of them, so a lucky few worlds cannot make a puzzle).
WORLDS = 48

#: Why a decision is not a puzzle move (the generator counts them).
FORCED = "forced"
NOT_CARD = "not a card decision"
OPEN_NOT_UNIQUE = "not the only good card with all hands open"
VIEW_NOT_UNIQUE = "not the only good card from the player's view"
OBVIOUS_HEURISTIC = "obvious: the heuristic bot's card"
OBVIOUS_MASTER = "obvious: a master that wins at once"
NO_WORLD = "no world fits the view"


@dataclass(frozen=True)
class Verdict:
    """A decision judged. ``reason`` is "" for a puzzle move, else why not (the constants above).

    ``classes`` are the legal cards in classes (card codes), ``best`` the answer's class index;
    ``values`` each legal card's mean over the worlds, ``open_values`` its exact value in the true deal,
    ``share`` the share of worlds where the answer is as good as every other class, ``gap`` the smaller
    of the two gaps (open, worlds) to the second-best class.
    """

    reason: str
    seat: int = -1
    classes: tuple[tuple[str, ...], ...] = ()
    best: int = -1
    values: dict[str, float] | None = None
    open_values: dict[str, int] | None = None
    share: float = 0.0
    gap: float = 0.0
    worlds: int = 0

    @property
    def ok(self) -> bool:
        """Whether the decision is a puzzle move."""
        return not self.reason

    @property
    def answer(self) -> tuple[str, ...]:
        """The codes of the answer's class (every one of them is right)."""
        return self.classes[self.best]


def world_rng(seed: str, move: int) -> random.Random:
    """The generator of the worlds of move ``move`` of the puzzle seeded ``seed``."""
    return random.Random(f"ulti-puzzle:{seed}:{move}")


def _master_wins_now(deal: Deal, card: Card) -> bool:
    """Whether ``card`` is the highest card still out in its suit and takes the trick as it lies."""
    trump = deal.trump
    outstanding = 0
    for hand in deal.hands:
        outstanding |= hand
    suit = card >> 3
    higher = higher_table(trump)[card] & SUIT_MASKS[suit] & outstanding & ~(1 << card)
    if higher:
        return False
    trick = list(deal.trick)
    if not trick:
        return suit == trump  # a lead of the master trump cannot be beaten
    if len(trick) < 2:
        return False  # the third seat may still ruff or overtake
    top = trick[trick_winner_index(trick, trump)]
    return beats(card, top, trump)


def judge(deal: Deal, seed: str, move: int, worlds: int = WORLDS) -> Verdict:
    """Judge the card decision of the seat on turn in ``deal`` (left unchanged); see the module docstring."""
    if deal.phase is not Phase.PLAY or deal.chain_level:
        return Verdict(NOT_CARD)
    seat = deal.to_move
    assert seat is not None  # the play always has a seat on turn
    view = deal.seat_view(seat)
    ch = view.choices
    if ch is None or not ch.cards or ch.kontra is not None:
        return Verdict(NOT_CARD)
    legal: CardSet = ch.cards
    know = analyse(view)
    groups = card_groups(legal, know)
    classes = tuple(tuple(card_str(c) for c in group) for group in groups)
    if len(groups) < 2:
        return Verdict(FORCED, seat, classes)
    sign = 1 if seat == deal.declarer else -1
    leads = [group[0] for group in groups]
    exact = [sign * v for v in values_after(Position.from_deal(deal), leads)]
    best = max(range(len(exact)), key=lambda k: exact[k])
    open_gap = exact[best] - max(v for k, v in enumerate(exact) if k != best)
    open_values = {code: exact[k] for k, group in enumerate(classes) for code in group}
    if open_gap < MIN_GAP:
        return Verdict(OPEN_NOT_UNIQUE, seat, classes, best, open_values=open_values)
    priced = price_cards(view, legal, worlds, world_rng(seed, move))
    if priced is None:
        return Verdict(NO_WORLD, seat, classes, best, open_values=open_values)
    per_class = [priced.samples[card_str(lead)] for lead in leads]
    means = [sum(v) / len(v) for v in per_class]
    values = {code: round(means[k], 3) + 0.0 for k, group in enumerate(classes) for code in group}
    view_gap = means[best] - max(m for k, m in enumerate(means) if k != best)
    n = priced.worlds
    as_good = sum(
        1 for w in range(n) if all(per_class[best][w] >= per_class[k][w] for k in range(len(groups)) if k != best)
    )
    share = as_good / n
    fields = dict(
        seat=seat,
        classes=classes,
        best=best,
        values=values,
        open_values=open_values,
        share=round(share, 4),
        gap=round(min(open_gap, view_gap), 3) + 0.0,
        worlds=n,
    )
    if view_gap < MIN_GAP or share < MIN_SHARE:
        return Verdict(VIEW_NOT_UNIQUE, **fields)  # type: ignore[arg-type]
    heuristic = HeuristicBot(random.Random(0)).choose_card(view, ch)
    if heuristic in groups[best]:
        return Verdict(OBVIOUS_HEURISTIC, **fields)  # type: ignore[arg-type]
    if any(_master_wins_now(deal, card) for card in groups[best]):
        return Verdict(OBVIOUS_MASTER, **fields)  # type: ignore[arg-type]
    return Verdict("", **fields)  # type: ignore[arg-type]
