"""The expert bot: the searching bot (``ulti.bots.strong.SearchBot``) made with the expert's parts
(``expert_parts``), which read the auction as evidence about the hidden hands; ``expert_bot`` makes it.

In its card play and kontra decisions the expert:

- weighs the declarer's hand by the **fitted declarer model** (``declarer_model``: a logistic regression
  per contract family, fitted by ``ulti.lab.declarer_fit`` to the hands the strong bot's auction
  declares with);
- as a defender, weighs each world by how likely the declarer was to lay that world's talon away
  (``discard_model.talon_weight``; not in a durchmars, whose declarer lays away otherwise);
- weighs each world by how likely its hands make the other seats' **bids** (a seat's start hand should fit
  the highest bid it made: the strong bot's ``declarer_likelihood`` softened by a square root, the bid
  having been made with 12 cards) and a defender's **kontra** on a no-trump contract (it holds cards that
  beat it): ``read_evidence``, ``evidence_weight``;
- draws its worlds by a **Metropolis chain** (``ulti.bots.sampling.MetropolisSampler``), which reaches the
  hands a sharp likelihood favours where rejection sampling cannot;
- solves three times the strong bot's worlds per card decision (``EXPERT_SAMPLES``).

It values every kontra step of either side by what such steps brought when the expert's own play settled
them, the opponents' answer in view (``step_values``: fitted lines from the plain double-dummy gain, less
the answers' cost); the data say a defender's szubkontra does not pay, so it does not answer a rekontra.
The laboratory keeps the expert before that (``expert-v1``: ``answered_gain``, a defender's step priced with
the declarer's answer in every world it wins, and a rekontra never answered).
Its auction is the strong bot's, but a declaration is valued by what its family's declarations bring when
played out (``played_values``), not by the double-dummy mean alone.

What each of these measured, and the ideas tried and dropped, are rows of ``docs/lab-journal.md``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ulti.bots.expert.declarer_model import declarer_model_weight
from ulti.bots.expert.discard_model import talon_weight
from ulti.bots.expert.played_values import played_value
from ulti.bots.expert.step_values import STEP_MARGIN, calibrated_gain
from ulti.bots.parts import Likelihood, SearchParts, StepGain, double_dummy_value, standing_gain
from ulti.bots.sampling import Knowledge, MetropolisSampler, Sampler, World
from ulti.bots.strong import SearchBot, Settings, bid_trumps, declarer_likelihood
from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet
from ulti.engine.contracts import Bid, Part
from ulti.engine.play import NO_TRUMP
from ulti.engine.view import LogEntry, SeatView

#: How much a defender's kontra on a no-trump contract weighs against a world where it looks lost.
KONTRA_WEIGHT = 0.5
#: What a defender's raise costs in a world the declarer wins, in stakes of the part before the raise:
#: the raise doubles the loss and the declarer answers it with the next step (1 + 2).
ANSWERED_RAISE_LOSS = 3.0
#: Worlds per card decision (the strong bot: 32). At 96 the expert leads the strong bot, mostly by the
#: worlds themselves (docs/lab-journal.md); the strong bot's lazy card decision keeps 96 worlds
#: within the expert's time targets. ``strong`` keeps 32: it is the fixed yardstick.
EXPERT_SAMPLES = 96


@dataclass(frozen=True)
class AuctionEvidence:
    """What the log says about the other seats' hands: per seat, its highest bid that is not the
    contract, and the standing bids it passed over when it could have bid."""

    bids: dict[int, Bid]
    passes: dict[int, list[Bid]]
    kontra_against: tuple[int, ...]


def read_evidence(log: Sequence[LogEntry], viewer: int, declarer: int) -> AuctionEvidence:
    """The evidence of the log about the seats other than ``viewer`` (``declarer`` -1 in the auction)."""
    bids: dict[int, Bid] = {}
    passes: dict[int, list[Bid]] = {}
    kontra: list[int] = []
    standing: Bid | None = None
    last_bid_entry = -1
    for i, entry in enumerate(log):
        if entry.action is Kind.BID and entry.bid is not None:
            standing = entry.bid
            last_bid_entry = i
    for i, entry in enumerate(log):
        s = entry.seat
        if entry.action is Kind.BID and entry.bid is not None:
            if s != viewer and not (s == declarer and i == last_bid_entry):
                bids[s] = entry.bid  # bids only rise: the last one is the highest
            standing = entry.bid
        elif entry.action is Kind.PASS and s != viewer and standing is not None:
            passes.setdefault(s, []).append(standing)
        elif entry.action is Kind.KONTRA and s != viewer and s != declarer and entry.parts:
            kontra.append(s)
    return AuctionEvidence(bids, passes, tuple(kontra))


def fit(bid: Bid, hand: CardSet) -> float:
    """How well a 10-card ``hand`` fits ``bid`` with its best trump (0..1)."""
    return max(declarer_likelihood(bid, t, hand) for t in bid_trumps(bid))


def bid_weight(bid: Bid, hand: CardSet) -> float:
    """How likely a seat that bid ``bid`` (and did not declare it) holds ``hand`` at the start of play: the
    strong bot's hand-written fit softened by a square root (the bid was made with 12 cards, two of them
    laid away)."""
    return math.sqrt(fit(bid, hand))


def kontra_weight(evidence: AuctionEvidence, know: Knowledge, world: World) -> float:
    """How likely the hands of ``world`` make a defender's kontra on a no-trump contract (1 without one): a
    defender raises a no-trump contract it expects to beat, so worlds where the declarer's hand fits the
    contract well are less likely."""
    contract = know.contract
    if contract is None or contract.has_trumps or not evidence.kontra_against:
        return 1.0
    return 1.0 - KONTRA_WEIGHT * declarer_likelihood(contract, NO_TRUMP, know.start_hand(world, know.declarer))


def evidence_weight(evidence: AuctionEvidence, know: Knowledge, world: World) -> float:
    """How likely the hands of ``world`` make the other seats' bids and kontra (0..1, unnormalised); passes
    are not read (they carry almost no information: docs/lab-journal.md)."""
    w = 1.0
    for s, bid in evidence.bids.items():
        w *= bid_weight(bid, know.start_hand(world, s))
    return w * kontra_weight(evidence, know, world)  # x * 1.0 is x exactly: no kontra changes nothing


def weighted_by_evidence(
    base: Likelihood | None, log: Sequence[LogEntry], know: Knowledge
) -> Likelihood | None:
    """The likelihood ``base`` (None: every world alike) times the evidence of ``log``'s bids and kontra
    about the hands of the seats other than ``know.seat`` (``evidence_weight``); ``base`` itself when the
    log holds no such evidence."""
    evidence = read_evidence(log, know.seat, know.declarer)
    if not evidence.bids and not evidence.kontra_against:
        return base

    def weight(world: World) -> float:
        w = evidence_weight(evidence, know, world)
        return w * base(world) if base is not None else w

    return weight


def _times(
    first: Likelihood | None, second: Likelihood | None
) -> Likelihood | None:
    """The product of two likelihoods (None: every world alike)."""
    if first is None or second is None:
        return first if second is None else second

    def weight(world: World) -> float:
        return first(world) * second(world)

    return weight


def answered(change: float, answer: float = ANSWERED_RAISE_LOSS) -> float:
    """A defender's change in one world from raising a part, the seat's side (``change`` as if the
    declarer let the raise stand), with the declarer's answer in view: where the raise loses, the declarer,
    who sees its own hand, says the next step, so it loses ``answer`` times as much (3: the doubled stake
    doubled again). The coach prices a defender's kontra step with it too.

    >>> answered(2.0), answered(-2.0)
    (2.0, -6.0)
    """
    return change if change >= 0 else answer * change


def chain_gain(base: Sequence[float], raised: Sequence[float]) -> float:
    """A defender's mean gain per world from raising a part one kontra step, with the declarer's answer in
    view (``answered``). ``base`` and ``raised`` hold each world's contract value (per_defender, the
    declarer's side) as it stands and with the part raised. Never more than the plain mean gain
    (``standing_gain``), which values a raise as if the declarer let it stand.

    >>> chain_gain([0.0, 0.0, 0.0], [-2.0, -2.0, 2.0])  # won twice by 2, lost once by 2 x 3
    -0.6666666666666666
    """
    return sum(answered(stands - doubled) for stands, doubled in zip(base, raised, strict=True)) / len(base)


@dataclass(frozen=True)
class AuctionEvidenceWeighting:
    """The expert's weighting (a ``Weighting`` part): the fitted declarer model (``declarer_model_weight``)
    times, for a defender with ``read_talon``, the unseen talon's (``talon_weight``) times the evidence of
    the other seats' bids and kontra in the view's log (``weighted_by_evidence``)."""

    read_talon: bool = True

    def __call__(self, view: SeatView, know: Knowledge) -> Likelihood | None:
        """The likelihood of a card or kontra decision from ``view`` (``know``: the view analysed)."""
        base = declarer_model_weight(know)
        if self.read_talon:
            base = _times(base, talon_weight(know))
        return weighted_by_evidence(base, view.log, know)


def chain_drawer(know: Knowledge, likelihood: Likelihood | None) -> Sampler:
    """Worlds drawn by a Metropolis chain (``MetropolisSampler``): it reaches the hands a sharp likelihood
    favours, which rejection sampling cannot."""
    return MetropolisSampler(know, likelihood)


def answered_gain(know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
    """The expert's ``StepGain`` part: a defender's gain with the declarer's answer in view (``chain_gain``),
    minus infinity for a part the declarer has raised (a defender never answers the declarer's rekontra:
    such answers won the part 7-10% of the time at szubkontra, though the raiser's worlds showed it
    winning); the declarer's as if its raise stands (``standing_gain``)."""
    if know.seat == know.declarer:
        return standing_gain(know, part, base, raised)
    if know.multipliers.get(part, 1) >= 4:  # x4: the declarer's rekontra
        return -math.inf
    return chain_gain(base, raised)


#: The expert's ways of valuing a kontra step, by name (``expert_bot``'s ``step_value``): ``answered``
#: (``answered_gain``), ``standing`` (the strong bot's ``standing_gain``: the calibration's raw estimate),
#: ``calibrated`` (``step_values.calibrated_gain``: what such steps brought played out, answers in view).
STEP_VALUES: dict[str, StepGain] = {
    "answered": answered_gain,
    "standing": standing_gain,
    "calibrated": calibrated_gain,
}


def expert_parts(read_talon: bool = True, played_auction: bool = True, step_value: str = "calibrated") -> SearchParts:
    """The expert's parts: its evidence read by ``AuctionEvidenceWeighting`` and drawn by the chain, its
    kontra steps by the ``step_value`` of ``STEP_VALUES``, its declarations by what their family brings
    played out (``played_value``; with ``played_auction`` False, the double-dummy mean as the strong bot's)."""
    if step_value not in STEP_VALUES:
        raise ValueError(f"unknown step_value {step_value!r} ({' or '.join(STEP_VALUES)})")
    return SearchParts(
        weighting=AuctionEvidenceWeighting(read_talon),
        drawer=chain_drawer,
        declaration_value=played_value if played_auction else double_dummy_value,
        step_gain=STEP_VALUES[step_value],
    )


def expert_weight(view: SeatView, know: Knowledge) -> Likelihood | None:
    """The likelihood the expert bot weighs each world of its card play and kontra by, for the seat of
    ``view`` (``know = analyse(view)``): its weighting part with its default settings, so the coach, which
    prices its hints on worlds drawn so (``ulti.analysis.coach``), cannot drift from the bot."""
    return AuctionEvidenceWeighting()(view, know)


def expert_settings(samples: int = EXPERT_SAMPLES, step_value: str = "calibrated", **settings: Any) -> Settings:
    """The expert's settings: ``samples`` worlds per card decision and, valuing its kontra steps by
    ``step_value``, their margins: a calibrated value is what the step brings, so one margin at every step
    (``STEP_MARGIN``); the other valuations keep the strong bot's. Every other setting is the strong bot's
    unless given."""
    if step_value == "calibrated":
        for margin in ("kontra_margin", "chain_margin", "late_chain_margin"):
            settings.setdefault(margin, STEP_MARGIN)
    return Settings(samples=samples, **settings)


def expert_bot(
    rng: random.Random,
    samples: int = EXPERT_SAMPLES,
    *,
    read_talon: bool = True,
    played_auction: bool = True,
    step_value: str = "calibrated",
    **settings: Any,
) -> SearchBot:
    """The expert bot drawing from ``rng``: the searching bot with the expert's parts (``expert_parts``) and
    settings (``expert_settings``: ``samples`` worlds per card decision, ``EXPERT_SAMPLES``, three times the
    strong bot's). ``read_talon``: a defender weighs its worlds by the talon it cannot see;
    ``played_auction``: the auction values a declaration by what its family's declarations bring played out,
    else by the double-dummy mean; ``step_value``: how it values a kontra step (``STEP_VALUES``). Every other
    setting is the strong bot's (``Settings``)."""
    parts = expert_parts(read_talon, played_auction, step_value)
    return SearchBot(rng, parts, expert_settings(samples, step_value, **settings))


__all__ = [
    "ANSWERED_RAISE_LOSS",
    "EXPERT_SAMPLES",
    "STEP_VALUES",
    "AuctionEvidence",
    "AuctionEvidenceWeighting",
    "answered",
    "answered_gain",
    "bid_weight",
    "chain_drawer",
    "chain_gain",
    "evidence_weight",
    "expert_bot",
    "expert_parts",
    "expert_settings",
    "expert_weight",
    "fit",
    "kontra_weight",
    "read_evidence",
    "weighted_by_evidence",
]
