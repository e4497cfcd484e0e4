"""Fit the expert's declarer model (``ulti.bots.expert.declarer_model``) to the strong bot's auctions.

Deals are dealt from ``--seed`` and bid by three strong bots; each deal that reaches the play gives one
declared hand (the declarer's 10-card start hand) in its contract's model family. Per family, an
L2-regularised logistic regression (Newton's method) tells those hands from random 10-card hands
(``--negatives`` per declared hand); its log odds, lowered by their 90th percentile over the family's
declared hands, are the weights' logarithm. Written to ``ulti/bots/expert/fitted.py`` (``--write``), and
printed: per family, the number of declared hands, and on the held-out fifth of the deals the mean log
weight of the true declarer's hand minus that of random hands (the information a weight adds: above 0
makes the true hand likelier), for the fitted model and the strong bot's ``declarer_likelihood``.

    python -m ulti.lab.declarer_fit [--deals N] [--seed S] [--workers W] [--data FILE] [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ulti.bots.expert.declarer_model import (
    MODEL_FAMILIES,
    NO_TRUMP_FAMILIES,
    fitted_weight,
    hand_features,
    model_family,
)
from ulti.bots.strong import declarer_likelihood
from ulti.engine.cards import FULL_DECK, CardSet, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE, Bid
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.play import NO_TRUMP
from ulti.lab.configs import bot_for

FITTED = Path(__file__).resolve().parent.parent / "bots" / "expert" / "fitted.py"
#: The L2 penalty of the regression (on coefficients of features that are small counts).
PENALTY = 1.0
#: The declared hands' percentile whose odds become weight 1.
TOP_PERCENTILE = 0.9


def declared(args: tuple[int, int]) -> dict[str, Any] | None:
    """The contract, trump and declarer's start hand of deal ``number`` bid by strong bots (None: none)."""
    seed, number = args
    rng = random.Random(f"fit:{seed}:{number}")
    dealer = number % 3
    deal = Deal(deal_hands(rng, dealer), dealer)
    bots = [bot_for("strong", random.Random(f"{seed}:{number}:{s}")) for s in range(3)]
    while deal.phase is not Phase.PLAY and (seat := deal.to_move) is not None:  # None: the deal is over
        deal.apply(bots[seat].act(deal.seat_view(seat)))
    if deal.is_over or deal.contract is None or deal.declarer is None:
        return None
    return {"n": number, "bid": deal.contract.code, "trump": deal.trump, "hand": deal.hands[deal.declarer]}


def random_hand(rng: random.Random) -> CardSet:
    """A uniformly random 10-card hand."""
    hand = 0
    for card in rng.sample(list(iter_cards(FULL_DECK)), 10):
        hand |= 1 << card
    return hand


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """The solution of a small dense linear system (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_logistic(rows: list[list[float]], labels: list[int], penalty: float = PENALTY) -> list[float]:
    """L2-regularised logistic regression by Newton's method: coefficients, the intercept last (unpenalised)."""
    d = len(rows[0]) + 1
    beta = [0.0] * d
    data = [[*row, 1.0] for row in rows]
    for _ in range(30):
        grad = [penalty * b for b in beta[:-1]] + [0.0]
        hess = [[0.0] * d for _ in range(d)]
        for i in range(d - 1):
            hess[i][i] = penalty
        for x, y in zip(data, labels, strict=True):
            z = sum(b * v for b, v in zip(beta, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            w = p * (1 - p)
            for i, xi in enumerate(x):
                if xi:
                    grad[i] += (p - y) * xi
                    row = hess[i]
                    wx = w * xi
                    for j, xj in enumerate(x):
                        if xj:
                            row[j] += wx * xj
        step = _solve(hess, grad)
        beta = [b - s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return beta


def _trump_for(family: str, rng: random.Random) -> int:
    return NO_TRUMP if family in NO_TRUMP_FAMILIES else rng.randrange(4)


def fit_family(
    family: str, hands: list[tuple[CardSet, int]], negatives: int, rng: random.Random
) -> list[float]:
    """The fitted coefficients of ``family`` from its declared ``(hand, trump)`` pairs, the intercept
    lowered so that the declared hands' ``TOP_PERCENTILE`` has weight 1."""
    rows = [hand_features(family, h, t) for h, t in hands]
    labels = [1] * len(rows)
    for _ in range(negatives * len(hands)):
        rows.append(hand_features(family, random_hand(rng), _trump_for(family, rng)))
        labels.append(0)
    beta = fit_logistic(rows, labels)
    scores = sorted(
        sum(b * v for b, v in zip(beta, row, strict=False)) + beta[-1] for row in rows[: len(hands)]
    )
    top = scores[min(len(scores) - 1, int(TOP_PERCENTILE * len(scores)))]
    beta[-1] -= top
    return beta


def information(weight: Any, held: list[tuple[CardSet, int, Bid]], rng: random.Random, randoms: int = 200) -> float:
    """Mean over the declared ``held`` hands of log(weight of the hand / mean weight of random hands);
    ``weight(hand, trump, bid)``."""
    out = []
    for hand, trump, bid in held:
        mean = statistics.fmean(weight(random_hand(rng), trump, bid) for _ in range(randoms))
        out.append(math.log(max(weight(hand, trump, bid), 1e-9) / max(mean, 1e-9)))
    return statistics.fmean(out)


def write_coefficient_module(
    path: Path, head: list[str], coefficients: dict[str, list[float]], counts_name: str, counts: dict[str, int]
) -> None:
    """Write a module of fitted coefficients: the docstring ``head`` (its lines, quotes included), then
    ``COEFFICIENTS`` (per family, rounded to six places) and ``counts_name`` (per family, its examples)."""
    lines = [*head, "", "COEFFICIENTS: dict[str, tuple[float, ...]] = {"]
    for family, beta in coefficients.items():
        lines.append(f'    "{family}": (')
        lines += [f"        {b!r}," for b in (round(v, 6) for v in beta)]
        lines.append("    ),")
    lines.append("}")
    lines.append(f"{counts_name}: dict[str, int] = {{")
    lines += [f'    "{family}": {n},' for family, n in counts.items()]
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_fitted(coefficients: dict[str, list[float]], counts: dict[str, int], command: str) -> None:
    """Write ``ulti/bots/expert/fitted.py`` with the coefficients."""
    head = [
        '"""The declarer model\'s coefficients (``ulti.bots.expert.declarer_model``), written by its fit:',
        "",
        f"    {command}",
        "",
        "Per family: the features' coefficients in ``hand_features`` order, the intercept last; the number",
        'of declared hands each was fitted on in ``DECLARED``. Do not edit by hand: run the fit again."""',
    ]
    write_coefficient_module(FITTED, head, coefficients, "DECLARED", counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--negatives", type=int, default=8, help="random hands per declared hand")
    parser.add_argument("--data", default="", help="read (or, if missing, write) the declared hands here")
    parser.add_argument("--write", action="store_true", help="write ulti/bots/expert/fitted.py")
    args = parser.parse_args()
    records: list[dict[str, Any]]
    if args.data and Path(args.data).exists():
        records = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8").splitlines()]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            got = pool.map(declared, [(args.seed, n) for n in range(args.deals)], chunksize=8)
            records = [r for r in got if r is not None]
        if args.data:
            Path(args.data).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    rng = random.Random(args.seed)
    by_family: dict[str, list[tuple[CardSet, int]]] = {f: [] for f in MODEL_FAMILIES}
    held: dict[str, list[tuple[CardSet, int, Bid]]] = {f: [] for f in MODEL_FAMILIES}
    for r in records:
        bid = BIDS_BY_CODE[r["bid"]]
        family = model_family(bid)
        if r["n"] % 5 == 4:
            held[family].append((r["hand"], r["trump"], bid))
        else:
            by_family[family].append((r["hand"], r["trump"]))
    print(f"Declarer model, {len(records)} deals bid by strong bots (seed {args.seed}); held out: every 5th")
    coefficients: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    for family in MODEL_FAMILIES:
        train = by_family[family]
        if len(train) < 20:
            print(f"  {family:15s} {len(train):5d} declared hands: too few to fit")
            continue
        beta = fit_family(family, train, args.negatives, rng)
        coefficients[family] = beta
        counts[family] = len(train) + len(held[family])
        if held[family]:
            fitted = information(
                lambda h, t, _b, beta=beta, family=family: fitted_weight(beta, hand_features(family, h, t)),
                held[family],
                rng,
            )
            old = information(lambda h, t, b: declarer_likelihood(b, t, h), held[family], rng)
            print(f"  {family:15s} {len(train):5d} fitted, {len(held[family]):4d} held out:"
                  f" information fitted {fitted:+.3f}, the strong bot's likelihood {old:+.3f}")
    if args.write:
        command = "python -m ulti.lab.declarer_fit " + " ".join(
            f"--{k} {v}" for k, v in (("deals", args.deals), ("seed", args.seed), ("negatives", args.negatives))
        ) + " --write"
        write_fitted(coefficients, counts, command)
        print(f"written: {FITTED}")


if __name__ == "__main__":
    main()
