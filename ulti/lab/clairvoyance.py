"""The headroom of card play: how much a bot that sees every card beats a level by, in the card-play arena.

Every card-play gain a bot can make over another comes from playing better without seeing the hidden cards;
what seeing them is worth puts such a gain in scale. This benchmark plays the card-play arena (``ulti arena --mode
cards``: the same deals, contracts and discards, nobody saying kontra) with A = the strong bot whose only
world is the true deal (``clairvoyant_bot``: it solves the true cards double-dummy at every card decision,
so its defenders also see each other's hands) against B (``--b``, strong by default). A's lead per deal,
overall and per contract family, is what seeing the hidden cards is worth against B in that arena: the
yardstick for any bot's lead over B there. It is not a strict bound: where a side is all A's (A declaring
alone, or both defenders A's) A gets at least the deal's double-dummy value whatever B plays, but in the
arena's other seatings A defends beside a B partner whose play its minimax takes to be perfect (so A can
lose a set), and a bot could also gain by foreseeing B's mistakes, which no bot of ours tries.
With ``--sees declarer`` or ``--sees defence`` A sees every card only in that role and plays
as the strong bot in the other, so the headroom splits by role.

The figure puts a card-play target in scale: a bot's lead over B in the same arena on the same seed,
divided by this headroom, is the share of what seeing the cards is worth that it gets by playing well
without them. A reproduces exactly from the seed (fixed work, seeded streams), as the arena does.

The clairvoyant bot reads the deal itself, so it exists only here: the arena hands the deal to the bots'
maker (``arena.BotMaker``), no bot of ours reads it, and no table or arena level can seat this one.

    python -m ulti.lab.clairvoyance [--b strong] [--deals N] [--seed S] [--sees all|declarer|defence] [--level L]

``--level L`` also plays L against B on the same deals and prints L's lead, per family too, and its share of
the headroom with a paired bootstrap interval over the sets (both leads from this one run). With ``--sees``
a role, L too plays as itself only in that role and as B in the other (``RoleSplitBot``), so its share is of
that role's headroom.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from ulti.bots.interface import Bot
from ulti.bots.parts import Likelihood, rejection_drawer
from ulti.bots.sampling.knowledge import Knowledge, World
from ulti.bots.sampling.sampler import Sampler
from ulti.bots.strong import STRONG_PARTS, SearchBot, Settings
from ulti.engine.actions import Action
from ulti.engine.deal import Deal
from ulti.engine.view import SeatView
from ulti.lab.arena import ArenaReport, level_bot, print_progress, run_report

#: The name A goes by (never a level of ``LEVELS``: nothing else can seat it).
CLAIRVOYANT = "clairvoyant"

#: Where A sees every card: ``all`` of its seats, or only as the declarer or only as a defender.
SIGHTS = ("all", "declarer", "defence")

#: A card-play target, per deal over the strong bot, to put in scale.
CARD_PLAY_TARGET = 0.5


class TrueWorld(Sampler):
    """A sampler whose one draw is the true deal's world (the hands as they stand and the talon); then
    nothing: that one world is all there is to solve."""

    def __init__(self, deal: Deal) -> None:  # the base's analysis is not needed: nothing is drawn
        """The true world of ``deal``, read at the draw (the play moves on between decisions)."""
        self.deal = deal
        self.drawn = False

    def draw(self, rng: random.Random, max_tries: int = 200) -> World | None:
        """The true world now, the first time; None after."""
        if self.drawn:
            return None
        self.drawn = True
        return World(hands=list(self.deal.hands), talon=self.deal.talon)


def checked_sight(sees: str) -> str:
    """``sees`` if it is one of ``SIGHTS``; a ``ValueError`` naming it otherwise."""
    if sees not in SIGHTS:
        raise ValueError(f"unknown sight {sees!r} ({', '.join(SIGHTS)})")
    return sees


def in_role(sees: str, declaring: bool) -> bool:
    """Whether a decision of the declarer (``declaring``) or of a defender is in a role ``sees`` names."""
    return sees == "all" or declaring == (sees == "declarer")


@dataclass(frozen=True)
class ClairvoyantDrawer:
    """A ``Drawer`` part that sees every card of ``deal`` in the roles ``sees`` names: the true world
    there, the strong bot's worlds elsewhere."""

    deal: Deal
    sees: str = "all"

    def sees_now(self, know: Knowledge) -> bool:
        """Whether this decision is made seeing every card (its role is one the drawer sees in)."""
        return in_role(self.sees, know.seat == know.declarer)

    def __call__(self, know: Knowledge, likelihood: Likelihood | None) -> Sampler:
        """The worlds of a decision from ``know``."""
        return TrueWorld(self.deal) if self.sees_now(know) else rejection_drawer(know, likelihood)


def clairvoyant_bot(rng: random.Random, deal: Deal, sees: str = "all") -> SearchBot:
    """The strong bot whose only world, where it sees (``sees``), is the true deal: one world solved
    double-dummy per card decision; elsewhere it plays exactly as the strong bot."""
    return SearchBot(rng, replace(STRONG_PARTS, drawer=ClairvoyantDrawer(deal, checked_sight(sees))), Settings())


def seat_bot(level: str, rng: random.Random, deal: Deal, sees: str = "all") -> Bot:
    """The arena's bot maker: the clairvoyant bot for A (``CLAIRVOYANT``), the level's own bot otherwise."""
    return clairvoyant_bot(rng, deal, sees) if level == CLAIRVOYANT else level_bot(level, rng, deal)


class RoleSplitBot:
    """A level that plays its card decisions as ``inside`` in the roles ``sees`` names and as ``outside`` in
    the others (the card-play arena offers it nothing else: the auction is fixed, kontra declined)."""

    def __init__(self, inside: Bot, outside: Bot, sees: str) -> None:
        """``inside`` decides in the roles of ``sees`` (one of ``SIGHTS``), ``outside`` elsewhere."""
        self.inside = inside
        self.outside = outside
        self.sees = checked_sight(sees)

    def act(self, view: SeatView) -> Action:
        """``inside``'s action in a role of ``sees``, ``outside``'s otherwise."""
        declaring = view.contract is not None and view.seat == view.contract.declarer
        return (self.inside if in_role(self.sees, declaring) else self.outside).act(view)

    @property
    def safety_stops(self) -> int:
        """Both bots' safety stops."""
        return sum(int(getattr(bot, "safety_stops", 0)) for bot in (self.inside, self.outside))


def level_seat_bot(level: str, rng: random.Random, deal: Deal, measured: str, b: str, sees: str = "all") -> Bot:
    """The arena's bot maker for the measured level's run: ``measured`` plays itself in the roles ``sees``
    names and as ``b`` in the others (``RoleSplitBot``, its second bot drawing from a generator split off
    ``rng``); B's seats, and every seat with ``sees`` all, get their level's own bot."""
    if level != measured or sees == "all":
        return level_bot(level, rng, deal)
    outside = level_bot(b, random.Random(rng.getrandbits(64)), deal)
    return RoleSplitBot(level_bot(level, rng, deal), outside, sees)


@dataclass(frozen=True)
class Share:
    """A level's share of the headroom on one run's sets: its lead over B divided by the clairvoyant's, the
    95% interval of that ratio by a paired bootstrap (sets resampled together for both), and each lead."""

    share: float
    low: float
    high: float
    level_lead: float
    headroom: float


def share_of_headroom(
    level_sets: Sequence[float], clairvoyant_sets: Sequence[float], rounds: int = 2000, seed: int = 0
) -> Share:
    """The share of the clairvoyant's lead a level's lead over the same B is, set by set on the same deals
    (``level_sets[i]`` and ``clairvoyant_sets[i]``: set ``i``'s mean score of each against B).

    >>> share_of_headroom([0.5, 0.5, 0.5, 0.5], [1.0, 1.0, 1.0, 1.0]).share
    0.5
    """
    if len(level_sets) != len(clairvoyant_sets) or not level_sets:
        raise ValueError("the level's and the clairvoyant's sets must be the same, non-empty run")
    n = len(level_sets)
    rng = random.Random(seed)
    ratios: list[float] = []
    for _ in range(rounds):
        picks = [rng.randrange(n) for _ in range(n)]
        headroom = sum(clairvoyant_sets[i] for i in picks)
        if headroom > 0:  # a resample whose headroom is not positive has no share: left out (counted below)
            ratios.append(sum(level_sets[i] for i in picks) / headroom)
    lead, headroom = statistics.fmean(level_sets), statistics.fmean(clairvoyant_sets)
    if not ratios or headroom <= 0:
        return Share(math.nan, math.nan, math.nan, lead, headroom)
    # a resample left out counts as the lowest share: the interval's low end is never flattered by it
    ordered = [-math.inf] * (rounds - len(ratios)) + sorted(ratios)
    return Share(lead / headroom, ordered[int(0.025 * rounds)], ordered[int(0.975 * rounds) - 1], lead, headroom)


def print_families(report: ArenaReport) -> None:
    """A's lead per contract family, a line each (a family under 50 deals marked so)."""
    for name, fam in report.families.items():
        small = "" if fam.sets >= 50 else "  (under 50 deals)"
        print(f"  {name:10s} {fam.sets:5d} deals  {fam.mean:+.3f} [{fam.low:+.3f}, {fam.high:+.3f}]{small}")


def main() -> None:
    """Run the card-play arena of the clairvoyant bot against ``--b`` and print its lead, in scale."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--b", default="strong", help="the level measured against, which also bids")
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals (sets of six plays)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sees", choices=SIGHTS, default="all", help="the roles A sees every card in")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--level", default="", help="also play this level against B on the same deals: its share")
    args = parser.parse_args()
    maker = partial(seat_bot, sees=args.sees)  # picklable: the workers receive it
    clairvoyant_sets: list[float] = []
    report = run_report(
        CLAIRVOYANT, args.b, args.deals, args.seed, args.workers, None, print_progress, "cards", args.b, None, maker,
        clairvoyant_sets.append,
    )
    sys.stderr.write("\n")
    overall = report.overall
    print(f"{args.deals} duplicate deals, card play (auction by {args.b}), seed {args.seed}: A = the strong bot"
          f" seeing every card ({args.sees}), B = {args.b}")
    print(f"A: {overall.mean:+.3f} per deal, 95% interval [{overall.low:+.3f}, {overall.high:+.3f}]")
    if overall.mean > 0 and args.sees == "all":  # a target for the whole card play, both roles
        share = CARD_PLAY_TARGET / overall.mean
        print(f"a lead of {CARD_PLAY_TARGET:+.1f} per deal over {args.b} is {share:.0%} of this headroom")
    print_families(report)
    print(f"safety stops: {report.safety_stops}")
    if args.level:
        level_sets: list[float] = []
        level = run_report(
            args.level, args.b, args.deals, args.seed, args.workers, None, print_progress, "cards", args.b, None,
            partial(level_seat_bot, measured=args.level, b=args.b, sees=args.sees), level_sets.append,
        )
        sys.stderr.write("\n")
        part = share_of_headroom(level_sets, clairvoyant_sets)
        lead = level.overall
        role = "" if args.sees == "all" else f" ({args.level} as {args.sees}, {args.b} in the other role)"
        print(f"{args.level}{role} against {args.b} on the same deals: {lead.mean:+.3f} per deal [{lead.low:+.3f},"
              f" {lead.high:+.3f}]; share of the headroom {part.share:.0%}, paired 95% [{part.low:.0%},"
              f" {part.high:.0%}]")
        print_families(level)


if __name__ == "__main__":
    main()
