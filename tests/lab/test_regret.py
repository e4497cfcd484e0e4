"""The double-dummy regret benchmark: each card priced against the true deal, A and B on the same view."""

from __future__ import annotations

import argparse
import statistics

from ulti.lab.played_deals import played_by_level
from ulti.lab.regret import measure


def _args(a: str, b: str) -> argparse.Namespace:
    return argparse.Namespace(a=a, b=b, seed=5, every=1)


def test_a_random_card_gives_away_more_than_the_strong_bots_and_never_less_than_nothing() -> None:
    groups = measure(played_by_level("heuristic", 6, 5), _args("strong", "random"))
    everything = groups["all"]
    assert len(everything.a) >= 20
    assert all(r >= 0 for r in everything.a + everything.b)
    assert statistics.fmean(everything.b) > statistics.fmean(everything.a)
    # each decision also counts in its family, its role and its stage of the play
    families = [k for k in groups if k != "all" and " " not in k]
    assert sum(len(groups[f].a) for f in families) == len(everything.a)
    for f in families:
        roles = [groups[k] for k in (f"{f} declarer", f"{f} defence") if k in groups]
        assert sum(len(r.a) for r in roles) == len(groups[f].a)


def test_a_level_against_itself_gives_away_the_same_at_every_decision() -> None:
    groups = measure(played_by_level("heuristic", 3, 7), _args("heuristic", "heuristic"))
    assert groups["all"].a == groups["all"].b
    assert all(diff == 0 for diff in groups["all"].by_deal.values())
