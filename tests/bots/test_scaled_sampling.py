"""Rejection sampling with a scaled likelihood (``Sampler(..., scaled=True)``, the ``expert-scaled`` level):
the same distribution of worlds as the plain likelihood where that works, and still that distribution
where the likelihood is tiny everywhere and the plain sampler falls back to unweighted worlds."""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.analysis.test_coach import example_deal, first_card_view
from ulti.bots.expert import expert_weight
from ulti.bots.sampling import Knowledge, Sampler, World, analyse
from ulti.engine.cards import iter_cards
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.view import SeatView

DRAWS = 3000


def _opening_lead_view() -> SeatView:
    """A fresh deal's view of the seat about to bid first: 20 cards unknown to it."""
    deal = Deal(deal_hands(random.Random(21), 0), 0)
    return deal.seat_view(deal.to_move)


def _share_holding(know: Knowledge, card: int, seat: int, likelihood: Callable[[World], float] | None,
                   scaled: bool) -> float:
    sampler = Sampler(know, likelihood, scaled=scaled)
    worlds = sampler.draw_many(random.Random(5), DRAWS)
    assert len(worlds) == DRAWS
    return sum(1 for w in worlds if w.hands[seat] >> card & 1) / DRAWS


def test_scaling_keeps_the_distribution_and_rescues_a_tiny_likelihood() -> None:
    view = _opening_lead_view()
    know = analyse(view)
    other = know.others[0]
    card = next(iter(iter_cards(~know.hand & ((1 << 32) - 1))))
    prior = _share_holding(know, card, other, None, False)

    def liking(scale: float) -> Callable[[World], float]:
        # worlds where ``other`` holds ``card`` are 10 times as likely
        return lambda world: scale * (10.0 if world.hands[other] >> card & 1 else 1.0)

    expected = 10 * prior / (10 * prior + (1 - prior))
    plain = _share_holding(know, card, other, liking(0.09), False)
    scaled = _share_holding(know, card, other, liking(0.09), True)
    assert abs(plain - expected) < 0.035 and abs(scaled - expected) < 0.035
    # ten thousand times smaller: the plain sampler keeps almost none and falls back to unweighted worlds
    tiny_plain = _share_holding(know, card, other, liking(0.000009), False)
    tiny_scaled = _share_holding(know, card, other, liking(0.000009), True)
    assert abs(tiny_plain - prior) < abs(tiny_plain - expected)
    assert abs(tiny_scaled - expected) < 0.035


def test_the_scaled_expert_keeps_the_evidence_where_the_plain_one_loses_it() -> None:
    # the declarer's first card of example 09: the defenders' bids fit few of their possible hands
    view = first_card_view(example_deal("09-ulti-lost-without-7.json"))
    know = analyse(view)
    likelihood = expert_weight(view, know)
    assert likelihood is not None
    results: dict[bool, tuple[int, float]] = {}
    for scaled in (False, True):
        sampler = Sampler(know, likelihood, scaled=scaled)
        rng = random.Random(3)
        fallbacks = 0
        weights = []
        for _ in range(96):
            before = sampler.tries
            world = sampler.draw(rng)
            assert world is not None
            fallbacks += sampler.tries - before >= 200
            weights.append(likelihood(world))
        results[scaled] = (fallbacks, sum(weights) / len(weights))
    (plain_fallbacks, plain_mean), (scaled_fallbacks, scaled_mean) = results[False], results[True]
    assert plain_fallbacks > 48 and scaled_fallbacks < 10
    assert scaled_mean > 1.5 * plain_mean  # the worlds kept fit the evidence better (about twice here)
