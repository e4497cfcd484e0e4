"""The Metropolis sampler (``ulti.bots.sampling.metropolis``): worlds consistent with the view, distributed
as the likelihood says whatever its scale, and reaching hands the evidence favours where rejection
sampling from uniform worlds cannot."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.analysis.test_coach import decision_views, example_deal, first_card_view, heuristic_deal
from ulti.bots.expert import expert_bot, expert_weight
from ulti.bots.sampling import TALON, Knowledge, MetropolisSampler, Sampler, World, analyse
from ulti.bots.sampling.metropolis import BURN_IN, THIN
from ulti.bots.strong import strong_bot
from ulti.engine.cards import SUIT_MASKS, count, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.scoring import marriages_of
from ulti.engine.view import SeatView

DRAWS = 3000
#: How many times likelier each target card held makes a world (the reach test).
BASE = 30.0


def _opening_view() -> SeatView:
    """A fresh deal's view of the seat about to bid first: 20 cards unknown to it."""
    deal = Deal(deal_hands(random.Random(21), 0), 0)
    return deal.seat_view(deal.to_move)


def _share(worlds: list[World], seat: int, card: int) -> float:
    return sum(1 for w in worlds if w.hands[seat] >> card & 1) / len(worlds)


def _consistent(know: Knowledge, world: World) -> bool:
    """Every unseen card where the knowledge allows it, every location of its size, marriages as announced."""
    for loc, held in [(s, world.hands[s]) for s in know.others] + [(TALON, world.talon)]:
        if held & ~know.allowed[loc]:
            return False
        size = know.talon_size if loc == TALON else know.sizes[loc]
        if count(held) != size:
            return False
    if world.hands[know.seat] != know.hand:
        return False
    return all(marriages_of(know.start_hand(world, s), know.trump) == m for s, m in know.marriages.items())


def test_the_chain_draws_the_likelihoods_distribution_at_any_scale() -> None:
    view = _opening_view()
    know = analyse(view)
    other = know.others[0]
    card = next(iter(iter_cards(~know.hand & ((1 << 32) - 1))))
    prior = _share(Sampler(know).draw_many(random.Random(5), DRAWS), other, card)
    expected = 10 * prior / (10 * prior + (1 - prior))

    def liking(scale: float) -> Callable[[World], float]:
        # worlds where ``other`` holds ``card`` are 10 times as likely
        return lambda world: scale * (10.0 if world.hands[other] >> card & 1 else 1.0)

    for scale in (0.09, 0.000009):
        worlds = MetropolisSampler(know, liking(scale)).draw_many(random.Random(5), DRAWS)
        assert len(worlds) == DRAWS
        assert abs(_share(worlds, other, card) - expected) < 0.04, scale
    # the plain sampler, at the tiny scale, falls back to unweighted worlds
    plain = Sampler(know, liking(0.000009)).draw_many(random.Random(5), DRAWS)
    assert abs(_share(plain, other, card) - prior) < abs(_share(plain, other, card) - expected)


def test_the_chain_reaches_hands_that_rejection_sampling_misses() -> None:
    # evidence that one seat holds seven given cards, each held one making a world 30 times as likely:
    # the seat holds all seven in about 1 uniform world of 650 but in 59% of the likelihood's worlds
    view = _opening_view()
    know = analyse(view)
    other = know.others[1]
    unseen = [c for c in iter_cards(((1 << 32) - 1) & ~know.hand)]
    target = sum(1 << c for c in unseen[:7])

    def held(world: World) -> int:
        return count(world.hands[other] & target)

    def liking(world: World) -> float:
        return BASE ** held(world) / BASE**7

    # the exact distribution of the number held: 7 of the 20 unseen cards, 10 of them in the seat's hand
    weights = {k: math.comb(7, k) * math.comb(13, 10 - k) * BASE**k for k in range(8)}
    exact = sum(k * w for k, w in weights.items()) / sum(weights.values())
    exact_all = weights[7] / sum(weights.values())  # all seven held: 0.59
    sampler = MetropolisSampler(know, liking)
    chain = sampler.draw_many(random.Random(2), 400)
    assert 0 < sampler.moves < sampler.steps == BURN_IN + THIN * 399
    assert abs(statistics.fmean(held(w) for w in chain) - exact) < 0.25
    chain_all = sum(held(w) == 7 for w in chain) / len(chain)
    assert abs(chain_all - exact_all) < 0.1, (chain_all, exact_all)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 400), pick=st.integers(0, 10**6))
def test_every_world_of_the_chain_is_consistent_with_the_view(seed: int, pick: int) -> None:
    deal = heuristic_deal(seed)
    views = [v for v in decision_views(deal) if v.seat is not None]
    view = views[pick % len(views)]
    know = analyse(view)
    likelihood = expert_weight(view, know)
    # a likelihood that favours long suits in the first other seat, so that the chain moves
    other = know.others[0]

    def lumpy(world: World) -> float:
        base = likelihood(world) if likelihood is not None else 1.0
        return base * (1.0 + max(count(world.hands[other] & SUIT_MASKS[s]) for s in range(4)))

    sampler = MetropolisSampler(know, lumpy, burn_in=20, thin=5)
    worlds = sampler.draw_many(random.Random(seed), 30)
    assert worlds
    assert all(_consistent(know, w) for w in worlds)
    assert sampler.steps == 20 + 5 * (len(worlds) - 1)


def test_the_expert_draws_from_the_chain_and_the_strong_bot_does_not() -> None:
    view = first_card_view(example_deal("09-ulti-lost-without-7.json"))
    defender_view = next(v for v in decision_views(example_deal("09-ulti-lost-without-7.json"))
                         if v.seat is not None and v.seat != view.seat and v.contract is not None)
    know = analyse(defender_view)
    expert = expert_bot(random.Random(1))
    assert isinstance(expert.play.sampler(defender_view, know), MetropolisSampler)
    assert type(strong_bot(random.Random(1)).play.sampler(defender_view, know)) is Sampler
