"""The location benchmark: how well a bot's worlds place the cards its seat cannot see."""

from __future__ import annotations

import math

from ulti.bots.sampling import World
from ulti.bots.sampling.knowledge import TALON
from ulti.engine.cards import iter_cards
from ulti.engine.deal import Deal
from ulti.lab.location import decisions, location_score, measure, true_places
from ulti.lab.played_deals import played_by_level


def _first_card_decision() -> Deal:
    return next(decisions(played_by_level("heuristic", 1, 3), 1))


def test_worlds_that_hold_every_card_where_it_lies_score_near_certainty_and_above_worlds_that_do_not() -> None:
    deal = _first_card_decision()
    viewer = deal.to_move
    assert viewer is not None  # the deal is not over
    truth = true_places(deal, viewer)
    assert set(truth.values()) <= {s for s in range(3) if s != viewer} | {TALON}
    true_world = World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon)
    # the two other seats' hands exchanged: every card they hold is placed wrong
    a, b = (s for s in range(3) if s != viewer)
    hands = [deal.hands[0], deal.hands[1], deal.hands[2]]
    hands[a], hands[b] = hands[b], hands[a]
    wrong_world = World(hands, deal.talon)
    right = location_score([true_world] * 50, truth, viewer)
    wrong = location_score([wrong_world] * 50, truth, viewer)
    half = location_score([true_world, wrong_world] * 25, truth, viewer)
    assert -0.05 < right < 0
    assert wrong < half < right
    # every card of the other seats is wrong in the swapped worlds; only the talon's are right there
    moved = sum(1 for place in truth.values() if place != TALON)
    assert moved == sum(len(list(iter_cards(deal.hands[s]))) for s in (a, b))


def test_each_level_is_scored_on_the_same_decisions_and_the_expert_places_cards_no_worse_than_at_random() -> None:
    groups = measure(played_by_level("strong", 3, 11), ["strong", "expert"], [1.0, 0.0], every=4, worlds=40, seed=2)
    everything = groups["all"]
    counts = {key: len(scores) for key, scores in everything.items()}
    assert len(set(counts.values())) == 1 and min(counts.values()) >= 5
    assert all(score < 0 for scores in everything.values() for score in scores)
    # the roles split the decisions
    roles = [groups[r][("expert", 1.0)] for r in ("declarer", "defender") if r in groups]
    assert sum(len(r) for r in roles) == counts[("expert", 1.0)]
    # power 0 flattens the likelihood away: every world alike, worse than the evidence's worlds on average
    mean = {key: sum(scores) / len(scores) for key, scores in everything.items()}
    assert mean[("expert", 1.0)] > mean[("expert", 0.0)]
    assert all(math.isfinite(v) for v in mean.values())
