"""Deal analysis and hint speed (``make bench``), one core: a whole deal's analysis at the default number
of worlds, and a learner's hint, against a baseline measured in the same run on the same positions.

Deals: the finished example records that reach the play (tests/data/examples: ulti, betli, durchmars,
kontra chains) and deals played out by heuristic bots from fixed seeds. The baseline prices every legal
card on its own (one ``value_after`` solve per card per world: no classes of equal cards, no shared
search over a world's cards), the way a first version would; the figures are medians (the machine is
shared and noisy: compare the ratio, measured in one run).

Targets: a whole deal's analysis (every card, kontra and trump decision of all three seats, and the
declarer's last discard) at most 5 s median; a hint at most 0.5 s median.

    python -m benchmarks.analysis_bench [--deals N] [--hints N] [--worlds W]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import ulti.analysis.pricing as pricing
from benchmarks.baseline import pin_to_one_core
from ulti.analysis.coach import HINT_WORLDS, hint
from ulti.analysis.pricing import DEFAULT_WORLDS, Priced
from ulti.analysis.review import analyse_deal, decision_indices
from ulti.bots.arena import play_deal
from ulti.bots.base import bot_for_level
from ulti.bots.sampling import Sampler, analyse
from ulti.bots.strong import position_of, value_after
from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, card_str, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_from_record
from ulti.engine.view import SeatView

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples"
TARGET_DEAL_S = 5.0
TARGET_HINT_S = 0.5


def bench_deals(n: int) -> list[Deal]:
    """The example deals that reach the play, then heuristic-bot deals from seeds 0, 1, … up to ``n`` in all."""
    deals: list[Deal] = []
    for path in sorted(EXAMPLES.glob("[01]*.json")):
        if path.name.endswith(".result.json"):
            continue
        deal = deal_from_record(json.loads(path.read_text()))
        if deal.is_over and deal.tricks:
            deals.append(deal)
    seed = 0
    while len(deals) < n:
        rng = random.Random(seed)
        deal = Deal(deal_hands(rng, seed % 3), seed % 3)
        play_deal(deal, [bot_for_level("heuristic", random.Random(f"{seed}:{s}")) for s in range(3)])
        seed += 1
        if deal.tricks:
            deals.append(deal)
    return deals[:n]


def _baseline_price_cards(view: SeatView, legal: CardSet, n: int, rng: random.Random) -> Priced | None:
    """``pricing.price_cards`` without its shortcuts: one solve per legal card per world (and no likelihood)."""
    know = analyse(view)
    sign = 1 if know.seat == know.declarer else -1
    worlds = Sampler(know).draw_many(rng, n)
    if not worlds:
        return None
    samples: dict[str, list[float]] = {card_str(c): [] for c in iter_cards(legal)}
    for world in worlds:
        pos = position_of(know, world)
        for card in iter_cards(legal):
            samples[card_str(card)].append(float(sign * value_after(pos, card)))
    return Priced("play", samples, len(worlds))


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def hint_views(deals: list[Deal], n: int) -> list[SeatView]:
    """Up to ``n`` card decisions with a choice, spread over the deals, as the deciding seat's view."""
    views = []
    for deal in deals:
        replay = Deal(deal.dealt, deal.dealer)
        for action in deal.history:
            if action.kind is Kind.PLAY and replay.legal_card_mask().bit_count() > 1 and not replay.in_chain:
                views.append(replay.seat_view(action.seat))
            replay.apply(action)
    rng = random.Random(7)
    rng.shuffle(views)
    return views[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--hints", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    args = parser.parse_args()
    pin_to_one_core()
    deals = bench_deals(args.deals)
    decisions = [len(decision_indices(d)) for d in deals]
    print(f"deal analysis: {len(deals)} deals ({statistics.median(decisions):.0f} decisions median), "
          f"{args.worlds} worlds per decision, one core; the machine is shared: medians, and the ratio of one run")

    new_times = [timed(lambda d=d: analyse_deal(d, worlds=args.worlds)) for d in deals]  # type: ignore[misc]
    real = pricing.price_cards
    pricing.price_cards = _baseline_price_cards
    try:
        old_times = [timed(lambda d=d: analyse_deal(d, worlds=args.worlds)) for d in deals]  # type: ignore[misc]
    finally:
        pricing.price_cards = real
    new_med, old_med = statistics.median(new_times), statistics.median(old_times)
    print(f"  baseline (a solve per card):  median {old_med:6.2f} s   max {max(old_times):6.2f} s")
    print(f"  analysis:                     median {new_med:6.2f} s   max {max(new_times):6.2f} s"
          f"   ratio baseline/new {old_med / new_med:4.1f}x   target <= {TARGET_DEAL_S} s:"
          f" {'met' if new_med <= TARGET_DEAL_S else 'NOT met'}")

    views = hint_views(deals, args.hints)
    hint_times = [timed(lambda v=v: hint(v, HINT_WORLDS, 1)) for v in views]  # type: ignore[misc]
    pricing.price_cards = _baseline_price_cards
    try:
        base_hint = [timed(lambda v=v: hint(v, HINT_WORLDS, 1)) for v in views]  # type: ignore[misc]
    finally:
        pricing.price_cards = real
    h_med, hb_med = statistics.median(hint_times), statistics.median(base_hint)
    p90 = sorted(hint_times)[int(0.9 * (len(hint_times) - 1))]
    print(f"hint: {len(views)} card decisions, {HINT_WORLDS} worlds")
    print(f"  baseline (a solve per card):  median {hb_med * 1000:6.1f} ms")
    print(f"  hint:                         median {h_med * 1000:6.1f} ms   p90 {p90 * 1000:6.1f} ms"
          f"   ratio baseline/new {hb_med / h_med:4.1f}x   target <= {TARGET_HINT_S * 1000:.0f} ms:"
          f" {'met' if h_med <= TARGET_HINT_S else 'NOT met'}")


if __name__ == "__main__":
    main()
