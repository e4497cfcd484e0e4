"""Readings of the auction the expert does not use, kept as the laboratory's instruments.

The expert weighs its worlds by the other seats' bids (the hand-written fit) and kontra, the declarer's
hand by the fitted model and a defender's by the unseen talon (``ulti.bots.expert``). Three more readings
were measured and not adopted (rows of docs/lab-journal.md); the research commands still measure them
(``ulti.lab.evidence``, ``ulti.lab.declarations``):

- **passes**: a seat that passed over a standing bid it could have raised is unlikely to hold a hand fit
  for a betli, a durchmars or an ulti above that bid;
- **fitted bids**: another seat's bid weighed by the declarer model of the bid's family instead of the
  hand-written fit;
- **discards picked up**: a seat that took the talon saw the two cards the bidder before it laid away,
  priced by the fitted discard model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ulti.bots.expert import AuctionEvidence, bid_weight, fit, kontra_weight, read_evidence
from ulti.bots.expert.declarer_model import fitted_weight, hand_features, model_family
from ulti.bots.expert.discard_fitted import COEFFICIENTS
from ulti.bots.expert.discard_model import ProbabilityCache, discard_family
from ulti.bots.expert.fitted import COEFFICIENTS as DECLARER_COEFFICIENTS
from ulti.bots.sampling import Knowledge, World, discarder_before
from ulti.bots.strong import bid_trumps
from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet
from ulti.engine.contracts import BIDS_BY_CODE, Bid
from ulti.engine.view import LogEntry

#: Bids a seat is taken to have wanted when its hand fits them (a pass over a lower bid counts against).
STRONG_BIDS = tuple(BIDS_BY_CODE[c] for c in ("N-B", "N-D", "M-SU", "H-SU") if c in BIDS_BY_CODE)
#: How much a pass weighs against a hand fit for one of those bids (1: excludes it).
PASS_WEIGHT = 0.6


def bid_model_weight(bid: Bid, hand: CardSet) -> float | None:
    """The fitted weight of a 10-card start ``hand`` for a seat that bid ``bid`` without declaring it (outbid
    or raised later): the model of the bid's family, with the trump that suits the hand best (a bid names no
    trump but hearts); None for a family the fit had too few hands of."""
    family = model_family(bid)
    coefficients = DECLARER_COEFFICIENTS.get(family)
    if coefficients is None:
        return None
    return max(fitted_weight(coefficients, hand_features(family, hand, t)) for t in bid_trumps(bid))


def fitted_bid_weight(bid: Bid, hand: CardSet) -> float:
    """A bid's weight by the fitted declarer model of its family (``bid_model_weight``), or the expert's
    hand-written one (``bid_weight``) for a family the fit had too few hands of."""
    weight = bid_model_weight(bid, hand)
    return bid_weight(bid, hand) if weight is None else weight


def reading_weight(
    evidence: AuctionEvidence, know: Knowledge, world: World, *, passes: bool = False, fitted_bids: bool = False
) -> float:
    """How likely the hands of ``world`` make the other seats' auction actions: their bids (by the fitted
    model with ``fitted_bids``), their passes (with ``passes``) and a defender's kontra."""
    w = 1.0
    weigh = fitted_bid_weight if fitted_bids else bid_weight
    for s, bid in evidence.bids.items():
        w *= weigh(bid, know.start_hand(world, s))
    if passes:
        for s, standings in evidence.passes.items():
            if s == know.declarer:
                continue  # the declarer's passes came before the hand it declared with
            hand = know.start_hand(world, s)
            low = min(standings, key=lambda b: b.key)
            fits = [fit(bid, hand) for bid in STRONG_BIDS if bid.key > low.key]
            if fits:
                w *= 1.0 - PASS_WEIGHT * max(fits)
    return w * kontra_weight(evidence, know, world)


def weighted_by_readings(
    base: Callable[[World], float] | None,
    log: Sequence[LogEntry],
    know: Knowledge,
    *,
    read_passes: bool = False,
    fitted_bids: bool = False,
) -> Callable[[World], float] | None:
    """The likelihood ``base`` (None: every world alike) times ``reading_weight`` of ``log``; ``base`` itself
    when the log holds nothing those readings weigh."""
    evidence = read_evidence(log, know.seat, know.declarer)
    if not read_passes:
        evidence = AuctionEvidence(evidence.bids, {}, evidence.kontra_against)
    if not evidence.bids and not evidence.passes and not evidence.kontra_against:
        return base

    def weight(world: World) -> float:
        w = reading_weight(evidence, know, world, passes=read_passes, fitted_bids=fitted_bids)
        return w * base(world) if base is not None else w

    return weight


@dataclass(frozen=True)
class SeenDiscard:
    """A discard the viewer saw (it took that talon): who laid it away, with which bid, and the cards."""

    seat: int
    bid: Bid
    pair: CardSet


def seen_discards(log: Sequence[LogEntry], viewer: int) -> list[SeenDiscard]:
    """The discards ``viewer`` picked up whose discarder's hand has not changed since (it took no talon
    after): their cards tell of the hand it holds now (with the cards it has played)."""
    out = []
    for i, entry in enumerate(log):
        if entry.action is not Kind.TAKE or entry.seat != viewer or entry.cards is None:
            continue
        k = discarder_before(log, i)
        if k < 0:
            continue
        bid_entry = log[k]
        seat = bid_entry.seat
        if seat == viewer or bid_entry.bid is None:
            continue
        if any(e.action is Kind.TAKE and e.seat == seat for e in log[k + 1 :]):
            continue  # it took a talon again: the hand the pair came from is gone
        out.append(SeenDiscard(seat, bid_entry.bid, entry.cards))
    return out


def discard_weight(log: Sequence[LogEntry], know: Knowledge) -> Callable[[World], float] | None:
    """The likelihood of each world by the discards the viewer (``know.seat``) saw: the product over them of
    the model's probability that the discarder, holding in that world the cards it holds now (and has
    played) plus the pair, laid that pair away; None when the viewer saw no discard of a fitted family."""
    seen = [d for d in seen_discards(log, know.seat) if discard_family(d.bid) in COEFFICIENTS]
    if not seen:
        return None
    cache = ProbabilityCache()

    def weight(world: World) -> float:
        w = 1.0
        for d in seen:
            w *= cache.probability(know.start_hand(world, d.seat) | d.pair, d.bid, d.pair)
        return w

    return weight
