"""The auction by play-outs: would a declaration valued by playing sampled worlds out foretell what it
brings better than the auction's double-dummy values, within a decision's budget?

The expert's auction values a declaration by the mean ``per_defender`` of a few worlds drawn from the
bidder's view, each solved double-dummy, plus its family's correction for how such declarations are
really played (``ulti.bots.expert.played_values``). The alternative is to play each drawn world out with
a searching bot's own card play and take the mean of what the declarations brought. This benchmark sets
both, and the raw double-dummy mean, beside what the declaration brought when ``--play`` bots played the
true deal out, for deals bid by ``--level`` bots, at their first card:

- **dd**: the mean double-dummy value of the first *k* worlds drawn as the auction draws them (uniform,
  ``Sampler`` from the declarer's view): the strong bot's value;
- **dd+family**: the same with its family's correction (``played_value``): the expert's value;
- **playout:L**: the mean ``per_defender`` of the first *k* of those worlds, each rebuilt into a whole deal
  (``world_to_deal``) and played out by ``L`` bots (``--playout L=N``: N worlds), nobody saying kontra.

An estimate is judged by its squared error against the played result. The result's own spread (the hidden
cards) adds the same to every estimate's mean squared error, so the differences between estimates are the
differences of their errors against what the declaration is worth: printed per estimate and *k*, the mean
squared error, the bias (estimate minus played) and the difference of squared errors from the expert's
value at ``--reference-worlds`` worlds, each with its 95% interval (below zero: better than the expert's
value), with the CPU one world costs each way (milliseconds, median). Per contract family, the same
difference for each estimate at its largest *k*.

    python -m ulti.lab.playout_values [--deals N] [--seed S] [--level L] [--play L]
                                      [--playout L=N ...] [--worlds W] [--workers W]

Each deal is bid, drawn and played alone (every bot and draw seeded by the deal's number), so the figures
do not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ulti.bots.expert.played_values import played_value
from ulti.bots.families import family
from ulti.bots.sampling import Sampler, analyse, world_to_deal
from ulti.bots.strong.play import position_of, solve_value
from ulti.lab.arena import played_without_kontra, summarise
from ulti.lab.played_deals import mapped, to_first_card

#: the counts of worlds each estimate is formed from (those up to the worlds drawn)
WORLD_COUNTS = (1, 2, 4, 8, 16, 32)


@dataclass(frozen=True)
class Declaration:
    """One deal at its first card: the declaration's family, each way's value of every world drawn (in the
    order drawn) with the CPU seconds each world took, and what the declaration brought when played out."""

    family: str
    #: what the expert's auction adds to the family's double-dummy mean (``played_value``)
    correction: float
    values: dict[str, list[float]]
    seconds: dict[str, list[float]]
    played: int


def measure_deal(
    level: str, seed: int, number: int, play: str, playouts: Sequence[tuple[str, int]], worlds: int
) -> Declaration | None:
    """Deal ``number`` of the run bid by ``level`` bots, at its first card, valued each way (the module
    docstring); None for a deal given up before its first card."""
    deal = to_first_card(level, seed, number)
    if deal is None:
        return None
    declarer = deal.declarer
    assert declarer is not None and deal.contract is not None
    view = deal.seat_view(declarer)
    know = analyse(view)
    drawn = Sampler(know).draw_many(random.Random(f"{seed}:{number}:worlds"), worlds)
    values: dict[str, list[float]] = defaultdict(list)
    seconds: dict[str, list[float]] = defaultdict(list)
    for world in drawn:
        start = time.process_time()
        solved = float(solve_value(position_of(know, world)))
        seconds["dd"].append(time.process_time() - start)
        values["dd"].append(solved)
    rebuild_rng = random.Random(f"{seed}:{number}:rebuild")
    for playout_level, count in playouts:
        name = f"playout:{playout_level}"
        for w, world in enumerate(drawn[:count]):
            start = time.process_time()
            imagined = world_to_deal(view, world, rebuild_rng)
            values[name].append(float(played_without_kontra(imagined, playout_level, f"{seed}:{number}:{w}")))
            seconds[name].append(time.process_time() - start)
    played = played_without_kontra(deal.copy(), play, f"{seed}:{number}:played")
    correction = played_value(deal.contract, 0.0)
    return Declaration(family(deal.contract), correction, dict(values), dict(seconds), played)


def estimate(declaration: Declaration, way: str, k: int) -> float:
    """``way``'s value of ``declaration`` from its first ``k`` worlds (``dd+family``: the mean double-dummy
    value plus its family's correction)."""
    if way == "dd+family":
        return statistics.fmean(declaration.values["dd"][:k]) + declaration.correction
    return statistics.fmean(declaration.values[way][:k])


def ways(declarations: Sequence[Declaration]) -> list[tuple[str, int]]:
    """Every way and count of worlds the declarations hold values for (the ``WORLD_COUNTS`` up to the
    worlds each way drew, and its largest)."""
    first = declarations[0]
    out: list[tuple[str, int]] = []
    for way in ("dd", "dd+family", *(w for w in first.values if w != "dd")):
        drawn = len(first.values["dd" if way == "dd+family" else way])
        counts = sorted({k for k in WORLD_COUNTS if k <= drawn} | {drawn})
        out.extend((way, k) for k in counts)
    return out


def report(declarations: Sequence[Declaration], reference_worlds: int) -> list[str]:
    """The printed lines (the module docstring)."""
    reference_k = min(reference_worlds, len(declarations[0].values["dd"]))
    played = [float(d.played) for d in declarations]

    def errors(group: Sequence[Declaration], way: str, k: int) -> list[float]:
        return [(estimate(d, way, k) - d.played) ** 2 for d in group]

    reference = errors(declarations, "dd+family", reference_k)
    every_way = ways(declarations)
    lines = [
        f"{len(declarations)} declarations; played result: mean {statistics.fmean(played):+.2f}, "
        f"spread (sd) {statistics.pstdev(played):.2f}; reference: dd+family over {reference_k} worlds",
        f"  {'estimate':24s} {'worlds':>6s} {'ms/world':>9s} {'MSE':>8s} {'bias [95%]':>22s}"
        f" {'MSE - reference [95%]':>26s}",
    ]
    for way, k in every_way:
        timed = "dd" if way == "dd+family" else way
        ms = 1000 * statistics.median(s for d in declarations for s in d.seconds[timed])
        squared = errors(declarations, way, k)
        bias = summarise([estimate(d, way, k) - d.played for d in declarations])
        gap = summarise([e - r for e, r in zip(squared, reference, strict=True)])
        lines.append(
            f"  {way:24s} {k:6d} {ms:9.1f} {statistics.fmean(squared):8.1f} "
            f"{bias.mean:+6.2f} [{bias.low:+6.2f}, {bias.high:+6.2f}]"
            f" {gap.mean:+8.1f} [{gap.low:+7.1f}, {gap.high:+7.1f}]"
        )
    lines.append("  per family, each estimate at its most worlds: MSE - reference [95%]")
    by_family: dict[str, list[Declaration]] = defaultdict(list)
    for d in declarations:
        by_family[d.family].append(d)
    largest = dict(every_way)  # each way's last count is its largest
    for name in sorted(by_family):
        group = by_family[name]
        base = errors(group, "dd+family", reference_k)
        cells = []
        for way, k in largest.items():
            gap = summarise([e - r for e, r in zip(errors(group, way, k), base, strict=True)])
            cells.append(f"{way} {gap.mean:+.1f} [{gap.low:+.1f}, {gap.high:+.1f}]")
        lines.append(f"  {name:10s} {len(group):4d}  " + "  ".join(cells))
    return lines


def _playout_option(text: str) -> tuple[str, int]:
    level, _, count = text.partition("=")
    return level, int(count or 8)


def main() -> None:
    """Measure and print (the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="expert", help="the level whose bots bid the deals")
    parser.add_argument("--play", default="expert", help="the level whose bots play the true deal out")
    parser.add_argument(
        "--playout",
        type=_playout_option,
        action="append",
        default=None,
        help="LEVEL=N: N worlds each played out by LEVEL bots (repeatable; default strong-fast=16)",
    )
    parser.add_argument("--worlds", type=int, default=16, help="worlds drawn and solved double-dummy per deal")
    parser.add_argument(
        "--reference-worlds",
        type=int,
        default=8,
        help="the expert's worlds per valued declaration (its auction_samples)",
    )
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    playouts = args.playout or [("strong-fast", 16)]
    n = args.deals
    measured = mapped(
        args.workers,
        measure_deal,
        [args.level] * n,
        [args.seed] * n,
        range(n),
        [args.play] * n,
        [playouts] * n,
        [args.worlds] * n,
    )
    declarations = [d for d in measured if d is not None]
    print(
        f"Declarations of {n} deals bid by {args.level} bots (seed {args.seed}), played out by {args.play} bots "
        f"(no kontra), valued at their first card; per_defender, the declarer's side"
    )
    for line in report(declarations, args.reference_worlds):
        print(line)


if __name__ == "__main__":
    main()
