"""Fit the expert's discard model (``ulti.bots.expert.discard_model``) to the bots' discards.

Every bid made with a discard in the deals (played by ``--level`` bots from ``--seed``, or the deal records
of arena runs, ``--records``) gives one example: the bidder's 12 cards, its bid, and the two cards it laid
away; repeated examples (the duplicate plays of an arena's records) count once. Per discard family, an
L2-regularised conditional logit over the 66 pairs of the 12 cards (Newton's method) is fitted on four fifths
of the deals and printed with, on the held-out fifth: the mean log-probability of the pair laid away
(uniform: log 1/66 = -4.19), how often the model's likeliest pair was it, and the information the
discard gives about the hand kept: the mean of log(probability of the pair from the true hand / mean
probability from hands of 10 random other cards), above 0 when the discard makes the true hand likelier.
Written to ``ulti/bots/expert/discard_fitted.py`` (``--write``, fitted on every example).

    python -m ulti.lab.discard_fit [--deals N] [--seed S] [--level L] [--records FILE ...] [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path

from ulti.bots.expert.discard_model import (
    DISCARD_FAMILIES,
    FEATURE_NAMES,
    PairTable,
    discard_family,
    discard_probability,
    pair_table,
)
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import FULL_DECK, CardSet, iter_cards
from ulti.engine.contracts import Bid
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_from_record, parse_action
from ulti.lab.configs import bot_for
from ulti.lab.declarer_fit import _solve, write_coefficient_module

FITTED = Path(__file__).resolve().parent.parent / "bots" / "expert" / "discard_fitted.py"
#: The L2 penalty of the fit.
PENALTY = 1.0
#: Families fitted on fewer examples keep no model (their discards weigh nothing).
MIN_EXAMPLES = 40

#: One example: the deal's number (for the held-out split), the 12 cards, the bid, the pair laid away.
Example = tuple[int, CardSet, Bid, CardSet]


def _discard_of(deal: Deal, action: Action, number: int) -> Example | None:
    """The example ``action`` makes in ``deal`` (before it is applied), if it is a bid with a discard."""
    if action.kind is not Kind.BID or action.discard is None or action.bid is None:
        return None
    a, b = action.discard
    return number, deal.hands[action.seat], action.bid, (1 << a) | (1 << b)


def from_level(level: str, deals: int, seed: int) -> Iterator[Example]:
    """The discards of ``deals`` auctions bid by ``level`` bots from ``seed``."""
    rng = random.Random(seed)
    for number in range(deals):
        dealer = number % 3
        deal = Deal(deal_hands(rng, dealer), dealer)
        bots = [bot_for(level, random.Random(f"{seed}:{number}:{s}")) for s in range(3)]
        while deal.phase is not Phase.PLAY and (seat := deal.to_move) is not None:  # None: the deal is over
            action = bots[seat].act(deal.seat_view(seat))
            example = _discard_of(deal, action, number)
            if example is not None:
                yield example
            deal.apply(action)


def from_records(paths: list[str]) -> Iterator[Example]:
    """The discards of the auctions in arena records (a duplicate set's six plays share a number)."""
    number = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for k, line in enumerate(f):
                record = json.loads(line)
                deal = deal_from_record({**record, "actions": []})
                for entry in record["actions"]:
                    if deal.phase is Phase.PLAY or deal.is_over:
                        break
                    action = parse_action(entry)
                    example = _discard_of(deal, action, number + k // 6)
                    if example is not None:
                        yield example
                    deal.apply(action)
        number += 1_000_000


def _objective(beta: list[float], tables: list[PairTable], chosen: list[int], penalty: float) -> float:
    """The penalised log-likelihood of the chosen pairs."""
    total = -0.5 * penalty * sum(b * b for b in beta)
    for table, k in zip(tables, chosen, strict=True):
        scores = [sum(b * x for b, x in zip(beta, f, strict=True)) for f in table.features]
        top = max(scores)
        total += scores[k] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total


def fit_conditional_logit(tables: list[PairTable], chosen: list[int], penalty: float = PENALTY) -> list[float]:
    """The coefficients maximising the penalised log-likelihood of the ``chosen`` pair of each table
    (Newton's method, each step halved until the likelihood rises: full steps overshoot from zero)."""
    d = len(tables[0].features[0])
    beta = [0.0] * d
    current = _objective(beta, tables, chosen, penalty)
    for _ in range(50):
        grad = [-penalty * b for b in beta]
        hess = [[penalty * (i == j) for j in range(d)] for i in range(d)]  # minus the Hessian
        for table, k in zip(tables, chosen, strict=True):
            scores = [sum(b * x for b, x in zip(beta, f, strict=True)) for f in table.features]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            probs = [e / total for e in exps]
            mean = [sum(p * f[i] for p, f in zip(probs, table.features, strict=True)) for i in range(d)]
            for i in range(d):
                grad[i] += table.features[k][i] - mean[i]
            for p, f in zip(probs, table.features, strict=True):
                centred = [f[i] - mean[i] for i in range(d)]
                for i in range(d):
                    if centred[i]:
                        row = hess[i]
                        pc = p * centred[i]
                        for j in range(d):
                            row[j] += pc * centred[j]
        step = _solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = [b + scale * s for b, s in zip(beta, step, strict=True)]
            value = _objective(trial, tables, chosen, penalty)
            if value >= current:
                break
            scale /= 2
        else:
            break
        beta, current = trial, value
        if max(abs(scale * s) for s in step) < 1e-6:
            break
    return beta


def _table_and_choice(example: Example) -> tuple[PairTable, int]:
    _, hand, bid, pair = example
    table = pair_table(hand, bid)
    chosen = next(k for k, (a, b) in enumerate(table.pairs) if (1 << a) | (1 << b) == pair)
    return table, chosen


def held_out_figures(
    beta: list[float], held: list[Example], rng: random.Random, randoms: int = 50
) -> tuple[float, float, float]:
    """On ``held``: the mean log-probability of the pair laid away, the share where it was the likeliest
    pair, and the information about the kept hand (the module docstring)."""
    logp, top, info = [], 0, []
    for example in held:
        _, hand, bid, pair = example
        table, chosen = _table_and_choice(example)
        scores = [sum(b * x for b, x in zip(beta, f, strict=True)) for f in table.features]
        top += scores.index(max(scores)) == chosen
        p = discard_probability(beta, hand, bid, pair)
        logp.append(math.log(p))
        others = list(iter_cards(FULL_DECK & ~pair))
        drawn = []
        for _ in range(randoms):
            kept = 0
            for card in rng.sample(others, 10):
                kept |= 1 << card
            drawn.append(discard_probability(beta, kept | pair, bid, pair))
        info.append(math.log(p / statistics.fmean(drawn)))
    return statistics.fmean(logp), top / len(held), statistics.fmean(info)


def write_fitted(coefficients: dict[str, list[float]], counts: dict[str, int], command: str) -> None:
    """Write ``ulti/bots/expert/discard_fitted.py`` with the coefficients."""
    head = [
        '"""The discard model\'s coefficients (``ulti.bots.expert.discard_model``), written by its fit:',
        "",
        f"    {command}",
        "",
        "Per family: the coefficients in ``FEATURE_NAMES`` order (a pair's score is the sum over its two cards",
        "plus the pair's own features; no intercept); the number of discards each was fitted on in ``DISCARDS``.",
        'Do not edit by hand: run the fit again."""',
    ]
    write_coefficient_module(FITTED, head, coefficients, "DISCARDS", counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="strong", help="the level whose bots bid the deals")
    parser.add_argument("--records", nargs="*", default=[], help="deal records of arena runs instead")
    parser.add_argument("--write", action="store_true", help="write ulti/bots/expert/discard_fitted.py")
    args = parser.parse_args()
    source = from_records(args.records) if args.records else from_level(args.level, args.deals, args.seed)
    seen: set[tuple[CardSet, str, CardSet]] = set()
    by_family: dict[str, list[Example]] = {f: [] for f in DISCARD_FAMILIES}
    for example in source:
        key = (example[1], example[2].code, example[3])
        if key not in seen:
            seen.add(key)
            by_family[discard_family(example[2])].append(example)
    named = ", ".join(args.records) or f"{args.deals} deals bid by {args.level} bots (seed {args.seed})"
    print(f"Discard model, the discards of {named}; held out: every 5th deal")
    header = f"{'family':<13} {'discards':>8} {'held':>5} {'log p':>7} {'top':>6} {'info':>6}"
    print(f"{header}  coefficients ({', '.join(FEATURE_NAMES)})")
    rng = random.Random(args.seed)
    fitted: dict[str, list[float]] = {}
    for family, examples in by_family.items():
        train = [e for e in examples if e[0] % 5 != 4]
        held = [e for e in examples if e[0] % 5 == 4]
        if len(train) < MIN_EXAMPLES or not held:
            print(f"{family:<13} {len(examples):>8}  too few to fit")
            continue
        pairs = [_table_and_choice(e) for e in train]
        beta = fit_conditional_logit([t for t, _ in pairs], [k for _, k in pairs])
        logp, top, info = held_out_figures(beta, held, rng)
        shown = " ".join(f"{b:+.2f}" for b in beta)
        print(f"{family:<13} {len(examples):>8} {len(held):>5} {logp:>7.2f} {top:>6.1%} {info:>+6.2f}  {shown}")
        if args.write:
            every = [_table_and_choice(e) for e in examples]
            fitted[family] = fit_conditional_logit([t for t, _ in every], [k for _, k in every])
    if args.write:
        counts = {f: len(by_family[f]) for f in fitted}
        write_fitted(fitted, counts, "python -m ulti.lab.discard_fit " + " ".join(sys.argv[1:]))
        print(f"written: {FITTED}")


if __name__ == "__main__":
    main()
