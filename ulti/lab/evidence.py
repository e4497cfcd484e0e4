"""How informative is the expert bot's auction evidence? (``ulti.bots.expert``)

For deals whose auction was played by bots of one level (``--level``, default heuristic; or the deal
records of an arena run, ``--records``), at the first card every seat that has evidence to read
weighs the true hidden cards and ``--worlds`` worlds drawn as the strong bot draws them. Printed, for
the whole evidence, for bids (by the hand-written fit the expert uses, and by the fitted declarer model:
``bids fitted``), for passes alone, and for the discards the viewer picked up (``discards``: the fitted
discard model, ``ulti.bots.expert.discard_model``), and for a defender the talon the declarer laid away
unseen (``talon``: the same model, ``talon_weight``): the mean of log(weight of the true world / mean weight
of the drawn worlds), the information the evidence adds about the true deal (0: none; above 0: the
true deal is made likelier), and the share of viewers for whom it is above 0.

    python -m ulti.lab.evidence [--deals N] [--seed S] [--level L] [--records FILE]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Iterator

from ulti.bots.expert import AuctionEvidence, read_evidence
from ulti.bots.expert.discard_model import talon_weight
from ulti.bots.sampling import Sampler, World, analyse
from ulti.bots.strong import declarer_weight
from ulti.engine.deal import Deal
from ulti.lab.played_deals import add_deal_options, chosen_deals
from ulti.lab.readings import discard_weight, reading_weight


def information(deals: Iterator[Deal], worlds: int, seed: int) -> dict[str, list[float]]:
    """Per kind of evidence, the log ratios of every viewer with some evidence of that kind."""
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"all": [], "bids": [], "bids fitted": [], "passes": [], "discards": [], "talon": []}
    for deal in deals:
        for viewer in range(3):
            view = deal.seat_view(viewer)
            know = analyse(view)
            evidence = read_evidence(view.log, viewer, know.declarer)
            sampler = Sampler(know, declarer_weight(know))  # the strong bot's worlds
            drawn = sampler.draw_many(rng, worlds)
            true = World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon if know.talon_size else 0)
            bids = AuctionEvidence(evidence.bids, {}, evidence.kontra_against)
            kinds = {
                "all": (evidence, False),
                "bids": (bids, False),
                "bids fitted": (bids, True),  # the bids weighed by the fitted declarer model
                "passes": (AuctionEvidence({}, evidence.passes, ()), False),
            }
            for name, (ev, fitted) in kinds.items():
                if (not ev.bids and not ev.passes) or not drawn:
                    continue
                mean = statistics.fmean(reading_weight(ev, know, w, passes=True, fitted_bids=fitted) for w in drawn)
                true_weight = reading_weight(ev, know, true, passes=True, fitted_bids=fitted)
                out[name].append(math.log(max(true_weight, 1e-9) / max(mean, 1e-9)))
            discards = discard_weight(view.log, know)
            if discards is not None and drawn:
                mean = statistics.fmean(discards(w) for w in drawn)
                out["discards"].append(math.log(max(discards(true), 1e-9) / max(mean, 1e-9)))
            talon = talon_weight(know)
            if talon is not None and drawn:
                mean = statistics.fmean(talon(w) for w in drawn)
                out["talon"].append(math.log(max(talon(true), 1e-9) / max(mean, 1e-9)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deal_options(parser, deals=300, level="heuristic")
    parser.add_argument("--worlds", type=int, default=100, help="worlds drawn per viewer")
    args = parser.parse_args()
    deals, source = chosen_deals(args, every_set=True, to_first_card=True)
    print(f"Expert evidence at the first card, {source}, {args.worlds} worlds per viewer:")
    for name, ratios in information(deals, args.worlds, args.seed).items():
        if not ratios:
            print(f"  {name:11s} (no viewer had such evidence)")
            continue
        share = sum(1 for r in ratios if r > 0) / len(ratios)
        print(f"  {name:11s} viewers {len(ratios):4d}  mean log(true / drawn) {statistics.fmean(ratios):+.3f}"
              f"  true deal made likelier for {share:.0%}")


if __name__ == "__main__":
    main()
