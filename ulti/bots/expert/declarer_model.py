"""The declarer model: how likely the bots' auction declares a contract with a given hand, fitted to data.

The strong bot weighs a defender's sampled world by a hand-written guess at how well the declarer's start
hand fits the bid (``declarer_likelihood``). The expert weighs it by this model instead: per contract
family (``model_family``), a logistic regression over a few features of the declarer's 10-card start hand
(``hand_features``), fitted by ``ulti.lab.declarer_fit`` to tell the hands the strong bot's auction
actually declared each family with from random hands. Its odds are then proportional to the density ratio
P(hand | the family was declared) / P(hand), which is what a uniformly drawn world must be weighed by
(probabilistic classification as density-ratio estimation). ``declarer_fit`` divides them by the odds of a
strong declarer (the 90th percentile of the family's declared hands) so that the weight lies in 0..1.

The coefficients live in ``ulti.bots.expert.fitted`` (written by the fit; its docstring holds the command).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ulti.bots.expert.fitted import COEFFICIENTS
from ulti.bots.families import family
from ulti.bots.heuristic import betli_risk, has_card
from ulti.bots.memo import Memo
from ulti.bots.sampling import Knowledge, World
from ulti.bots.strong import declarer_weight
from ulti.bots.strong.hand import durchmars_losers
from ulti.engine.cards import ACE, JACK, KING, QUEEN, SUIT_MASKS, TEN, CardSet, count
from ulti.engine.contracts import Bid, Part
from ulti.engine.play import NO_TRUMP, seven_of

#: The model's contract families: the arena's (``ulti.bots.families.family``), the durchmars split into
#: no-trump durchmars and durchmars with trumps (their hands differ).
MODEL_FAMILIES = ("betli", "nt-durchmars", "durchmars", "ulti", "100", "simple")
#: The families without trumps (their features ignore the trump).
NO_TRUMP_FAMILIES = ("betli", "nt-durchmars")


def model_family(bid: Bid) -> str:
    """The declarer model's family of ``bid`` (``MODEL_FAMILIES``)."""
    if not bid.has_trumps and bid.has(Part.DURCHMARS):
        return "nt-durchmars"
    return family(bid)


def _no_trump_features(hand: CardSet) -> list[float]:
    """Features of a hand for a no-trump contract (betli or durchmars)."""
    risk = betli_risk(hand)
    losers = durchmars_losers(hand, NO_TRUMP)
    lengths = [count(hand & SUIT_MASKS[s]) for s in range(4)]
    high = [sum(has_card(hand, s, rank) for s in range(4)) for rank in (ACE, KING, QUEEN, JACK, TEN)]
    return [
        *(float(risk == k) for k in (0, 1, 2, 3)),
        float(min(risk, 8)),
        *(float(losers == k) for k in (0, 1, 2)),
        float(min(losers, 8)),
        *(float(h) for h in high),
        float(max(lengths)),
        float(lengths.count(0)),
    ]


def _trump_features(hand: CardSet, trump: int) -> list[float]:
    """Features of a hand for a contract with ``trump`` as trumps."""
    trumps = count(hand & SUIT_MASKS[trump])
    sides = [s for s in range(4) if s != trump]
    side_aces = sum(has_card(hand, s, ACE) for s in sides)
    side_tens = sum(has_card(hand, s, TEN) for s in sides)
    guarded_tens = sum(has_card(hand, s, TEN) and count(hand & SUIT_MASKS[s]) >= 2 for s in sides)
    side_kings = sum(has_card(hand, s, KING) for s in sides)
    voids = sum(not hand & SUIT_MASKS[s] for s in sides)
    return [
        *(float(trumps == k) for k in (4, 5, 6)),
        float(trumps >= 7),
        float(trumps),
        *(float(has_card(hand, trump, rank)) for rank in (ACE, TEN, KING, QUEEN, JACK)),
        float(hand >> seven_of(trump) & 1),
        float(side_aces),
        float(side_tens),
        float(guarded_tens),
        float(side_kings),
        float(voids),
        float(min(durchmars_losers(hand, trump), 8)),
    ]


def hand_features(family: str, hand: CardSet, trump: int) -> list[float]:
    """The model's features of a 10-card start ``hand`` for a contract of ``family`` with ``trump``
    (``NO_TRUMP`` for the no-trump families)."""
    if family in NO_TRUMP_FAMILIES:
        return _no_trump_features(hand)
    return _trump_features(hand, trump)


def fitted_weight(coefficients: Sequence[float], features: Sequence[float]) -> float:
    """The weight (0..1) of a hand with ``features`` under a fitted family's ``coefficients`` (the
    intercept last, already lowered by the strong declarer's log odds): exp(score) capped at 1."""
    score = coefficients[-1] + sum(c * x for c, x in zip(coefficients[:-1], features, strict=True))
    return math.exp(min(0.0, score))


#: The fitted weight by family, trump and start hand: a chain's worlds share the declarer's hand again and
#: again, within a decision and from one decision of a deal to the next.
_WEIGHTS: Memo[tuple[str, int, CardSet], float] = Memo()


def declarer_model_weight(know: Knowledge) -> Callable[[World], float] | None:
    """The declarer model's likelihood of each sampled world, for a defender (``know``): the fitted weight of
    the declarer's start hand in the world for the contract's family; the strong bot's ``declarer_weight``
    for a family the fit had too few hands of; None for the declarer and before a contract."""
    contract = know.contract
    if contract is None or know.declarer == know.seat or know.declarer < 0:
        return None
    family = model_family(contract)
    coefficients = COEFFICIENTS.get(family)
    if coefficients is None:
        return declarer_weight(know)
    declarer, trump = know.declarer, know.trump

    def weight(world: World) -> float:
        hand = know.start_hand(world, declarer)
        key = (family, trump, hand)
        known = _WEIGHTS.find(key)
        if known is not None:
            return known
        return _WEIGHTS.keep(key, fitted_weight(coefficients, hand_features(family, hand, trump)))

    return weight
