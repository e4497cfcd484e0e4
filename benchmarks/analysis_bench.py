"""Deal analysis and hint speed (``make bench``), one core: a whole deal's analysis at the default number
of worlds, and a learner's hint, against a baseline measured in the same run on the same positions.

Deals: the finished example records that reach the play (tests/data/examples: ulti, betli, durchmars,
kontra chains) and deals played out by heuristic bots from fixed seeds. The baseline prices every legal
card on its own (one ``value_after`` solve per card per world: no classes of equal cards, no shared
search over a world's cards) on the same worlds, the way a first version would; the figures are medians
(the machine is shared and noisy: compare the ratio, measured in one run). Each hint is timed from an
empty transposition table of the solver (``clear_table``), so no hint profits from one timed before.

Targets: a whole deal's analysis (every card, kontra and trump decision of all three seats, and the
declarer's last discard) at most 5 s median; a hint at most 0.5 s median and 1 s at the 95th percentile
(it answers while the player waits). The hint is the coach's (the expert bot's worlds and weighting,
``HINT_WORLDS`` worlds), measured beside the hint as the coach gave it before the expert level (the
strong bot's weighting, 32 worlds for a card or kontra decision, the best mean named) on the same views.

    python -m benchmarks.analysis_bench [--deals N] [--hints N] [--worlds W] [--hint-worlds W] [--hints-only]
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
from benchmarks.cores import pin_to_one_core
from ulti.analysis.coach import HINT_WORLDS, hint, hint_rng, kontra_first
from ulti.analysis.pricing import DEFAULT_WORLDS, Priced, Weighting, draw_worlds, price_view, strong_weight
from ulti.analysis.review import analyse_deal, decision_indices
from ulti.bots.sampling import analyse
from ulti.bots.selfplay import play_deal
from ulti.bots.solver import clear_table
from ulti.bots.strong import position_of, value_after
from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, card_str, iter_cards
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_from_record
from ulti.engine.view import SeatView
from ulti.lab.configs import bot_for

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples"
TARGET_DEAL_S = 5.0
TARGET_HINT_S = 0.5
TARGET_HINT_P95_S = 1.0
#: Worlds of the coach's card hint before the expert level (the strong bot's own).
STRONG_HINT_WORLDS = 32


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
        play_deal(deal, [bot_for("heuristic", random.Random(f"{seed}:{s}")) for s in range(3)])
        seed += 1
        if deal.tricks:
            deals.append(deal)
    return deals[:n]


def _baseline_price_cards(
    view: SeatView,
    legal: CardSet,
    n: int,
    rng: random.Random,
    weighting: Weighting = strong_weight,
    chain: bool = False,
) -> Priced | None:
    """``pricing.price_cards`` without its shortcuts: one solve per legal card per world (the same worlds,
    drawn with ``weighting``: the expert's evidence makes drawing them a good part of a hint's time)."""
    know = analyse(view)
    sign = 1 if know.seat == know.declarer else -1
    worlds = draw_worlds(view, know, n, rng, weighting, chain)
    if not worlds:
        return None
    samples: dict[str, list[float]] = {card_str(c): [] for c in iter_cards(legal)}
    for world in worlds:
        pos = position_of(know, world)
        for card in iter_cards(legal):
            samples[card_str(card)].append(float(sign * value_after(pos, card)))
    return Priced("play", samples, len(worlds))


def strong_hint(view: SeatView, worlds: int = STRONG_HINT_WORLDS, seed: int = 1) -> str | None:
    """The best alternative as the coach named it before the expert level: priced the strong bot's way
    (its weighting, ``worlds`` worlds for a card or a kontra step alike), the best mean named."""
    kind = Kind.KONTRA if kontra_first(view) else Kind.PLAY
    priced = price_view(view, worlds, hint_rng(seed), kind=kind)
    return priced.best() if priced is not None else None


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def timed_cold(fn: Callable[[], object]) -> float:
    """``timed`` with the solver's transposition table emptied first: a hint's figure must not depend on
    which hints were timed before it on the same views."""
    clear_table()
    return timed(fn)


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
    parser.add_argument("--hint-worlds", type=int, default=HINT_WORLDS, help="worlds of a card hint")
    parser.add_argument("--hints-only", action="store_true", help="time the hints only, not the deal analysis")
    args = parser.parse_args()
    pin_to_one_core()
    deals = bench_deals(args.deals)
    real = pricing.price_cards
    if not args.hints_only:
        decisions = [len(decision_indices(d)) for d in deals]
        print(f"deal analysis: {len(deals)} deals ({statistics.median(decisions):.0f} decisions median), "
              f"{args.worlds} worlds per decision, one core; the machine is shared: medians, and the ratio of one run")

        new_times = [timed(lambda d=d: analyse_deal(d, worlds=args.worlds)) for d in deals]  # type: ignore[misc]
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
    hint_times = [timed_cold(lambda v=v: hint(v, args.hint_worlds, 1)) for v in views]  # type: ignore[misc]
    strong_times = [timed_cold(lambda v=v: strong_hint(v)) for v in views]  # type: ignore[misc]
    pricing.price_cards = _baseline_price_cards
    try:
        base_hint = [timed_cold(lambda v=v: hint(v, args.hint_worlds, 1)) for v in views]  # type: ignore[misc]
    finally:
        pricing.price_cards = real
    h_med, hb_med = statistics.median(hint_times), statistics.median(base_hint)
    h_p95, s_med, s_p95 = percentile(hint_times, 0.95), statistics.median(strong_times), percentile(strong_times, 0.95)
    met = h_med <= TARGET_HINT_S and h_p95 <= TARGET_HINT_P95_S
    print(f"hint: {len(views)} card decisions (kontra steps among them), {args.hint_worlds} worlds, one core,"
          " each from an empty transposition table")
    print(f"  baseline (a solve per card):  median {hb_med * 1000:6.1f} ms")
    print(f"  strong, {STRONG_HINT_WORLDS} worlds (before):  median {s_med * 1000:6.1f} ms   p95 {s_p95 * 1000:6.1f} ms"
          f"   max {max(strong_times) * 1000:6.1f} ms")
    print(f"  hint (expert):                median {h_med * 1000:6.1f} ms   p95 {h_p95 * 1000:6.1f} ms"
          f"   max {max(hint_times) * 1000:6.1f} ms   ratio baseline/new {hb_med / h_med:4.1f}x"
          f"   target median <= {TARGET_HINT_S * 1000:.0f} ms, p95 <= {TARGET_HINT_P95_S * 1000:.0f} ms:"
          f" {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
