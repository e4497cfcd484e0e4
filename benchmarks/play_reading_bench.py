"""How much do the other seats' cards say about the hidden hands? (``ulti.bots.expert.play_reading``)

Deals are played by bots of one level (``--level``, default strong; or replayed from the records of an
arena run, ``--records``). At card decisions along each deal (every ``--every``-th card, from trick
``--from-trick`` on), the seat to move reads the cards the other seats played in the last ``--tricks``
tricks and asks, for each, whether it was among its seat's best cards double-dummy: in the true deal,
and in ``--worlds`` worlds drawn as the expert draws them (its Metropolis chain over the auction's
evidence). Printed, per contract family and in all:

- ``best in true``: the share of read cards that were best in the true deal (p);
- ``best in drawn``: the share over the drawn worlds (q);
- ``miss``: the weight a world should give a card that was not best there, (1 - p) / (1 - q): below one,
  a miss is evidence against the world;
- ``info``: with that miss, the mean log(weight of the true deal / mean weight of the drawn worlds) over
  the decisions (0: no information; above 0: the reading makes the true deal likelier).

With ``--heuristic`` a read card is asked instead whether it was the heuristic bot's card for the hand its
seat holds (``ulti.bots.expert.heuristic_reading``, no solve): "best" then means "the heuristic's card".

    python -m benchmarks.play_reading_bench [--heuristic] [--deals N] [--seed S] [--level L] [--records FILE]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from benchmarks.played_deals import add_deal_options, chosen_deals
from ulti.bots.expert import expert_weight
from ulti.bots.expert.heuristic_reading import was_heuristic
from ulti.bots.expert.play_reading import PlayedCard, policy_best, read_play, was_best
from ulti.bots.families import family as family_of
from ulti.bots.sampling import Knowledge, MetropolisSampler, World, analyse
from ulti.engine.deal import Deal, Phase


@dataclass
class Tally:
    """What the reads of one family gave."""

    reads: int = 0
    best_true: int = 0
    drawn: int = 0
    best_drawn: int = 0
    #: per decision: (misses in the true deal, per drawn world its misses)
    decisions: list[tuple[int, list[int]]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Count ``other``'s reads and decisions in this tally too."""
        self.reads += other.reads
        self.best_true += other.best_true
        self.drawn += other.drawn
        self.best_drawn += other.best_drawn
        self.decisions += other.decisions

    def miss(self) -> float:
        """(1 - p) / (1 - q): the weight of a card that was not best in a world."""
        p = self.best_true / max(self.reads, 1)
        q = self.best_drawn / max(self.drawn, 1)
        # a family too small to show a miss gets a floor, so that its information stays finite
        return min(1.0, max(0.01, (1 - p) / (1 - q))) if q < 1 else 1.0

    def information(self, miss: float) -> float:
        """The mean log(true weight / mean drawn weight) with ``miss`` per card not best."""
        logs = []
        for true_misses, drawn_misses in self.decisions:
            mean = statistics.fmean(miss**m for m in drawn_misses)
            logs.append(true_misses * math.log(miss) - math.log(mean))
        return statistics.fmean(logs) if logs else 0.0


def true_world(deal: Deal, know: Knowledge) -> World:
    """The true hidden cards as a world of ``know``'s seat."""
    return World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon if know.talon_size else 0)


def best_in(
    played: PlayedCard, know: Knowledge, world: World, policy: int, rng: random.Random, heuristic: bool = False
) -> bool | None:
    """``was_best``, or with ``policy`` redeals ``policy_best``, or with ``heuristic`` ``was_heuristic``."""
    if heuristic:
        return was_heuristic(played, know, world)
    if policy:
        return policy_best(played, know, world, policy, rng)
    return was_best(played, know, world)


def measure(deals: Iterator[Deal], args: argparse.Namespace) -> dict[str, Tally]:
    """Per family and in all, the tally of the reads at the sampled card decisions."""
    rng = random.Random(args.seed)
    tallies: dict[str, Tally] = defaultdict(Tally)
    cards_seen = 0
    for deal in deals:
        if deal.phase is not Phase.PLAY or deal.contract is None or len(deal.tricks) < args.from_trick:
            continue
        view = deal.seat_view(deal.to_move)
        if view.choices is None or not view.choices.cards:
            continue  # the kontra chain, not a card
        cards_seen += 1
        if cards_seen % args.every:
            continue
        know = analyse(view)
        reads: list[PlayedCard] = read_play(view, know, args.tricks)
        if not reads:
            continue
        worlds = MetropolisSampler(know, expert_weight(view, know)).draw_many(rng, args.worlds)
        if not worlds:
            continue
        tally = Tally()
        true = true_world(deal, know)
        true_misses = 0
        drawn_misses = [0] * len(worlds)
        for played in reads:
            best = best_in(played, know, true, args.policy, rng, args.heuristic)
            if best is None:
                continue
            tally.reads += 1
            tally.best_true += best
            true_misses += not best
            for i, world in enumerate(worlds):
                in_world = best_in(played, know, world, args.policy, rng, args.heuristic)
                if in_world is None:
                    continue
                tally.drawn += 1
                tally.best_drawn += in_world
                drawn_misses[i] += not in_world
        tally.decisions.append((true_misses, drawn_misses))
        for key in (family_of(deal.contract), "all"):
            tallies[key].add(tally)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deal_options(parser, deals=20, level="strong")
    parser.add_argument("--worlds", type=int, default=16, help="worlds drawn per decision")
    parser.add_argument("--tricks", type=int, default=2, help="tricks read back (the current one counts)")
    parser.add_argument("--every", type=int, default=3, help="read at every n-th card decision")
    parser.add_argument("--from-trick", type=int, default=1, help="read from this many tricks done on")
    parser.add_argument(
        "--policy",
        type=int,
        default=0,
        help="read by the seat's own view instead: best mean over this many redeals of what it could not see",
    )
    parser.add_argument(
        "--heuristic",
        action="store_true",
        help="read by the heuristic's card instead: was the card the heuristic's for the seat's hand (no solve)",
    )
    parser.add_argument("--miss", type=float, default=0.0, help="also the information at this miss weight")
    args = parser.parse_args()
    deals, source = chosen_deals(args, every_set=False)
    print(f"Cards read back {args.tricks} tricks, {source}, {args.worlds} worlds per decision:")
    tallies = measure(deals, args)
    for family in sorted(tallies, key=lambda k: (k == "all", k)):
        t = tallies[family]
        miss = t.miss()
        line = (
            f"  {family:12s} decisions {len(t.decisions):4d}  reads {t.reads:5d}"
            f"  best in true {t.best_true / max(t.reads, 1):.3f}"
            f"  best in drawn {t.best_drawn / max(t.drawn, 1):.3f}  miss {miss:.3f}  info {t.information(miss):+.3f}"
        )
        if args.miss:
            line += f"  info at miss {args.miss}: {t.information(args.miss):+.3f}"
        print(line)


if __name__ == "__main__":
    main()
