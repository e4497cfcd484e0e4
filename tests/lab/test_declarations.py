"""The declaration benchmark: the auction's estimate of each declaration beside its played-out result."""

from __future__ import annotations

import argparse
import random
import statistics

from ulti.bots.sampling import Sampler, analyse
from ulti.bots.strong.play import position_of, solve_value
from ulti.lab.declarations import ESTIMATES, declarer_estimates, measure
from ulti.lab.played_deals import played_by_level


def test_every_declaration_counts_in_its_family_with_each_estimate_and_its_result() -> None:
    args = argparse.Namespace(seed=3, worlds=4, play="heuristic")
    groups = measure(played_by_level("heuristic", 8, 3, to_first_card=True), args)
    everything = groups["all"]
    assert len(everything.played) >= 4  # deals given up before the first card are not declarations
    families = [k for k in groups if k != "all"]
    assert sum(len(groups[f].played) for f in families) == len(everything.played)
    for name in ESTIMATES:
        assert len(everything.estimates[name]) == len(everything.played)
    assert "estimate" in everything.line("all") and "DD-played" in everything.line("all")


def test_the_auctions_estimate_is_the_mean_of_its_worlds_solved_from_the_declarers_view() -> None:
    deal = next(played_by_level("heuristic", 5, 7, to_first_card=True))
    assert deal.declarer is not None
    estimates = declarer_estimates(deal, 6, random.Random(2))
    # the same stream draws the same uniform worlds first: the estimate is their double-dummy mean
    know = analyse(deal.seat_view(deal.declarer))
    worlds = Sampler(know).draw_many(random.Random(2), 6)
    assert estimates["estimate"] == statistics.fmean(solve_value(position_of(know, w)) for w in worlds)
    for world in worlds:  # worlds the declarer's view allows: its own hand as it holds it
        assert world.hands[deal.declarer] == know.hand
