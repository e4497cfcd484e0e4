"""What a declaration is worth when it is played out, against what the auction expected of it.

The strong bot's auction (``ulti.bots.strong.auction``, the expert's too) values a bid by solving sampled
worlds double-dummy from the bidder's view: the other hands drawn with no regard to the auction, every
seat then playing as if it saw every card. This benchmark asks how far that estimate is from what the
declaration brings when the bots play it out. For deals whose auction was played by ``--level`` bots (or
the records of an arena run, ``--records``), at the first card:

- **estimate**: the declarer's view, ``--worlds`` worlds drawn as the auction draws them (``Sampler``
  without a likelihood), each solved double-dummy: the mean ``per_defender`` (the auction's value of the
  contract it declared, its talon known); and the same on worlds weighed by what the other seats' bids
  say of their hands (**bids**, the expert's card-play reading, ``weighted_by_evidence``; **fitted**, the
  bids weighed by the fitted declarer model), by their bids and passes (**passes**), by the discards the
  declarer picked up (**discards**, the fitted discard model, ``discard_weight``) and by the fitted bids
  and the discards together (**both**), drawn by the expert's Metropolis chain;
- **true DD**: the true deal solved double-dummy;
- **played**: the cards played out by ``--play`` bots from there, nobody saying kontra (the arena's card
  mode: the contract's own stakes, as the auction values them), and the deal's ``per_defender``.

Printed per contract family and in all: deals, the means, and each estimate minus played and true DD
minus played with their 95% intervals (above zero: the declarer is worth less than the estimate said, the
first from the sampling and the play together, the second from the play alone), with the share of deals
the declarer won (per_defender above zero) by each measure.

    python -m ulti.lab.declarations [--deals N] [--seed S] [--level L] [--play L] [--worlds W]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from ulti.bots.families import family
from ulti.bots.sampling import Knowledge, MetropolisSampler, Sampler, World, analyse
from ulti.bots.solver import Position
from ulti.bots.strong.play import position_of, solve_value
from ulti.engine.deal import Deal
from ulti.lab.arena import played_without_kontra, summarise
from ulti.lab.played_deals import add_deal_options, chosen_deals
from ulti.lab.readings import discard_weight, weighted_by_readings

#: The estimates compared: the auction's (uniform worlds), and on worlds weighed by the other seats' bids
#: (by the hand-written fit, and by the fitted declarer model), by their bids and passes, by the discards
#: the declarer picked up, and by the fitted bids and the discards.
ESTIMATES = ("estimate", "bids", "fitted", "passes", "discards", "both")


@dataclass
class Declarations:
    """One group of played declarations: per deal each estimate (``ESTIMATES``), the true deal's
    double-dummy value and the played result (all ``per_defender``, the declarer's side)."""

    estimates: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in ESTIMATES})
    true_dd: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def add(self, estimates: dict[str, float], true_dd: int, played: int) -> None:
        """Enter one deal."""
        for name in ESTIMATES:
            self.estimates[name].append(estimates[name])
        self.true_dd.append(true_dd)
        self.played.append(played)

    def line(self, name: str) -> str:
        """The group's printed lines: the means and shares won, then the differences with the played result."""
        n = len(self.played)
        means = "  ".join(f"{e} {statistics.fmean(v):+6.2f}" for e, v in self.estimates.items())
        text = (
            f"  {name:10s} deals {n:4d}  {means}  true DD {statistics.fmean(self.true_dd):+6.2f}"
            f"  played {statistics.fmean(self.played):+6.2f}  won: estimate {_share(self.estimates['estimate']):4.0%}"
            f" DD {_share(self.true_dd):4.0%} played {_share(self.played):4.0%}"
        )
        if n > 1:
            columns = [(f"{e}-played", v) for e, v in self.estimates.items()]
            columns.append(("DD-played", [float(d) for d in self.true_dd]))
            for label, values in columns:
                s = summarise([v - p for v, p in zip(values, self.played, strict=True)])
                text += f"\n  {'':10s} {label:16s} {s.mean:+6.2f} [{s.low:+6.2f}, {s.high:+6.2f}]"
        return text


def _share(values: list[float] | list[int]) -> float:
    return sum(1 for v in values if v > 0) / len(values)


def _mean_value(know: Knowledge, drawn: list[World]) -> float:
    return statistics.fmean(solve_value(position_of(know, world)) for world in drawn)


def declarer_estimates(deal: Deal, worlds: int, rng: random.Random) -> dict[str, float]:
    """The declarer's value of its contract at the first card of ``deal`` (``ESTIMATES``): the mean
    double-dummy ``per_defender`` over ``worlds`` worlds drawn from its view with no likelihood (as the
    auction draws them), and over worlds weighed by the other seats' bids (hand-written, fitted), by
    their bids and passes, by the discards the declarer picked up, and by those and the fitted bids."""
    assert deal.declarer is not None
    view = deal.seat_view(deal.declarer)
    know = analyse(view)
    out = {"estimate": _mean_value(know, Sampler(know).draw_many(rng, worlds))}
    for name, passes, fitted in (("bids", False, False), ("fitted", False, True), ("passes", True, False)):
        likelihood = weighted_by_readings(None, view.log, know, read_passes=passes, fitted_bids=fitted)
        sampler = MetropolisSampler(know, likelihood)
        out[name] = _mean_value(know, sampler.draw_many(rng, worlds))
    discards = discard_weight(view.log, know)
    out["discards"] = _mean_value(know, MetropolisSampler(know, discards).draw_many(rng, worlds))
    both = weighted_by_readings(discards, view.log, know, fitted_bids=True)
    out["both"] = _mean_value(know, MetropolisSampler(know, both).draw_many(rng, worlds))
    return out


def measure(deals: Iterator[Deal], args: argparse.Namespace) -> dict[str, Declarations]:
    """Per group (all, and per contract family), the declarations of ``deals`` (each at its first card)."""
    groups: dict[str, Declarations] = defaultdict(Declarations)
    rng = random.Random(args.seed)
    for number, deal in enumerate(deals):
        assert deal.contract is not None
        estimates = declarer_estimates(deal, args.worlds, rng)
        true_dd = solve_value(Position.from_deal(deal))
        played = played_without_kontra(deal, args.play, f"{args.seed}:{number}")
        for key in ("all", family(deal.contract)):
            groups[key].add(estimates, true_dd, played)
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deal_options(parser, deals=200, level="strong")
    parser.add_argument("--play", default="strong", help="the level whose bots play the cards out")
    parser.add_argument("--worlds", type=int, default=16, help="worlds of the declarer's estimate")
    args = parser.parse_args()
    deals, named = chosen_deals(args, every_set=True, to_first_card=True)
    groups = measure(deals, args)
    print(f"Declarations of {named}, played out by {args.play} bots (no kontra), estimate over {args.worlds} worlds:")
    print("  per_defender, the declarer's side; differences per deal with their 95% intervals")
    for name in ("all", *sorted(k for k in groups if k != "all")):
        print(groups[name].line(name))


if __name__ == "__main__":
    main()
