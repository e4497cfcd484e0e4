"""How well does a bot's sampler place the cards it cannot see?

At card decisions along played deals (every ``--every``-th card of each deal: played by ``--level`` bots,
or the first play of each set of an arena's ``--records``), the seat to move draws ``--worlds`` worlds the
way each bot of ``--levels`` draws them for a card decision (its likelihood, its sampler). For every card
that seat cannot see, the worlds give a probability of each place it may lie (another seat's hand, or the
talon); the score is the log of the probability of the place it truly lies (a proper scoring rule: the
mean over the unseen cards, then over decisions; 0 would be certainty, higher is better; each place's
share is smoothed by half a world so that a place no world drew is not minus infinity). Printed per level,
for all decisions, by role (declarer, defender) and by the contract's family, with each level's difference
from the first level's on the same decisions.

``--powers`` raises each level's likelihood to a power before a Metropolis chain draws from it
(tempering: below 1 flattens the evidence, above 1 sharpens it), to see whether the evidence is
over- or under-counted.

    python -m ulti.lab.location [--deals N] [--seed S] [--level L | --records FILE]
        [--levels strong expert ...] [--every K] [--worlds W] [--powers 1 0.5 ...]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence

from ulti.bots.families import family
from ulti.bots.sampling import MetropolisSampler, Sampler, World, analyse
from ulti.bots.sampling.knowledge import TALON, Knowledge
from ulti.bots.strong import SearchBot
from ulti.engine.cards import Card, iter_cards
from ulti.engine.deal import Deal, Phase
from ulti.lab.configs import bot_for
from ulti.lab.played_deals import add_deal_options, chosen_deals

#: Half a world of every place, so that a place no drawn world chose keeps a finite log.
SMOOTHING = 0.5


def true_places(deal: Deal, viewer: int) -> dict[Card, int]:
    """Where each card ``viewer`` cannot see lies in ``deal``: a seat, or ``TALON``."""
    places = {card: seat for seat in range(3) if seat != viewer for card in iter_cards(deal.hands[seat])}
    if deal.seat_view(viewer).talon is None:
        places.update({card: TALON for card in iter_cards(deal.talon)})
    return places


def location_score(worlds: Sequence[World], truth: dict[Card, int], viewer: int) -> float:
    """The mean over the cards of ``truth`` of the log of the share of ``worlds`` (smoothed by
    ``SMOOTHING`` per place) that put the card where ``truth`` says it lies."""
    seen: Counter[tuple[Card, int]] = Counter()
    for world in worlds:
        for seat in range(3):
            if seat != viewer:
                seen.update((card, seat) for card in iter_cards(world.hands[seat]))
        seen.update((card, TALON) for card in iter_cards(world.talon))
    places = len({*truth.values(), *(seat for seat in range(3) if seat != viewer)})  # the talon when hidden
    total = len(worlds) + SMOOTHING * places
    return statistics.fmean(math.log((seen[(card, place)] + SMOOTHING) / total) for card, place in truth.items())


def level_sampler(level: str, deal: Deal, viewer: int, know: Knowledge, power: float) -> Sampler:
    """The sampler ``level``'s bot draws a card decision's worlds with from ``viewer``'s seat (``power``
    1), or a Metropolis chain on its likelihood raised to ``power``."""
    bot = bot_for(level, random.Random(0))
    assert isinstance(bot, SearchBot), f"{level} does not sample worlds"
    view = deal.seat_view(viewer)
    if power == 1:
        return bot.play.sampler(view, know)
    likelihood = bot.play.likelihood(view, know)
    if likelihood is None:
        return MetropolisSampler(know)
    return MetropolisSampler(know, lambda world: likelihood(world) ** power)


def decisions(deals: Iterator[Deal], every: int) -> Iterator[Deal]:
    """Every ``every``-th card decision of each deal (counted along the deal, from its first card)."""
    current: Deal | None = None
    cards = 0
    for deal in deals:
        if deal is not current:
            current, cards = deal, 0
        if deal.phase is not Phase.PLAY or deal.contract is None:
            continue
        if deal.seat_view(deal.to_move).choices is None:
            continue
        if cards % every == 0:
            yield deal
        cards += 1


def measure(
    deals: Iterator[Deal], levels: Sequence[str], powers: Sequence[float], every: int, worlds: int, seed: int
) -> dict[str, dict[tuple[str, float], list[float]]]:
    """Per group (all, the role, the role and family), per (level, power), the location score of every
    ``every``-th card decision (the same decisions and the same random draws for every level)."""
    out: dict[str, dict[tuple[str, float], list[float]]] = defaultdict(lambda: defaultdict(list))
    for number, deal in enumerate(decisions(deals, every)):
        viewer = deal.to_move
        assert viewer is not None  # decisions() yields deals in their play
        know = analyse(deal.seat_view(viewer))
        truth = true_places(deal, viewer)
        if not truth:
            continue  # nothing left hidden from this seat (the declarer at the last trick)
        assert deal.contract is not None
        role = "declarer" if viewer == deal.declarer else "defender"
        groups = ("all", role, f"{role} {family(deal.contract)}")
        for level in levels:
            for power in powers:
                rng = random.Random(f"{seed}:{number}")
                sampler = level_sampler(level, deal, viewer, know, power)
                drawn = [w for w in (sampler.draw(rng) for _ in range(worlds)) if w is not None]
                if not drawn:
                    continue
                score = location_score(drawn, truth, viewer)
                for group in groups:
                    out[group][(level, power)].append(score)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deal_options(parser, deals=60, level="strong")
    parser.add_argument("--levels", nargs="+", default=["strong", "expert"], help="the bots whose worlds are scored")
    parser.add_argument("--powers", nargs="+", type=float, default=[1.0], help="powers of each likelihood")
    parser.add_argument("--every", type=int, default=3, help="score every K-th card decision of a deal")
    parser.add_argument("--worlds", type=int, default=96, help="worlds drawn per decision")
    args = parser.parse_args()
    deals, source = chosen_deals(args, every_set=True)
    print(
        f"Where the worlds place the unseen cards: {source}, one card decision in {args.every},"
        f" {args.worlds} worlds; mean log probability of each card's true place (higher is better)"
    )
    groups = measure(deals, args.levels, args.powers, args.every, args.worlds, args.seed)
    first = (args.levels[0], args.powers[0])
    for group in sorted(groups, key=lambda g: (g != "all", g)):
        scores = groups[group]
        base = scores[first]
        cells = []
        for key, values in scores.items():
            name = key[0] if len(args.powers) == 1 else f"{key[0]}^{key[1]:g}"
            diff = "" if key == first else f" ({statistics.fmean(values) - statistics.fmean(base):+.4f})"
            cells.append(f"{name} {statistics.fmean(values):+.4f}{diff}")
        print(f"  {group:20s} decisions {len(base):5d}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
