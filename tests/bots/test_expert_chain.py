"""The expert's kontra chain: a defender's raise valued with the declarer's answer in view, and the
declarer's raises left unanswered."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ulti.analysis.coach import hint, hint_rng
from ulti.analysis.pricing import DECLINE, price_view
from ulti.bots.expert import (
    ANSWERED_RAISE_LOSS,
    EXPERT_SAMPLES,
    answered_gain,
    chain_gain,
    expert_bot,
    expert_parts,
    expert_weight,
    weighted_by_evidence,
)
from ulti.bots.expert.played_values import played_value
from ulti.bots.expert.step_values import calibrated_gain
from ulti.bots.parts import SearchParts, rejection_drawer, standing_gain
from ulti.bots.sampling import Knowledge, World, analyse
from ulti.bots.strong import SearchBot, Settings, declarer_weight, kontra_samples
from ulti.engine.actions import Kind
from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record
from ulti.engine.view import SeatView
from ulti.lab.configs import bot_for

#: An arena deal (expert against strong, seed 2026, set 1): seat 1 declares H-SU (hearts simple and ulti),
#: seat 2 says kontra on both, the declarer answers rekontra on both after trick 1, and seat 2 is to say
#: whether it raises again. The declarer made both parts; the expert of the arena raised the simple game to
#: szubkontra (x8) and, answered with hirskontra, on to x64.
REKONTRA_ANSWERED: dict[str, object] = {
    "format": "ulti-deal/1",
    "rules": "ulti-rules/1",
    "dealer": 2,
    "hands": [
        ["7C", "TC", "QC", "TS", "JS", "QS", "KS", "AS", "TD", "7H", "JH", "QH"],
        ["KC", "8S", "7D", "8D", "9D", "QD", "KD", "AD", "8H", "AH"],
        ["8C", "9C", "JC", "AC", "7S", "9S", "JD", "9H", "TH", "KH"],
    ],
    "actions": [
        {"seat": 0, "action": "bid", "bid": "M-S", "discard": ["7H", "JH"]},
        {"seat": 1, "action": "take"},
        {"seat": 1, "action": "bid", "bid": "H-SU", "discard": ["KC", "8S"]},
        {"seat": 2, "action": "pass"},
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "pass"},
        {"seat": 1, "action": "play", "card": "AH"},
        {"seat": 2, "action": "kontra", "parts": ["simple", "ulti"]},
        {"seat": 2, "action": "play", "card": "9H"},
        {"seat": 0, "action": "play", "card": "QH"},
        {"seat": 1, "action": "kontra", "parts": ["simple", "ulti"]},
    ],
}


def _rejection_evidence(view: SeatView, know: Knowledge) -> Callable[[World], float] | None:
    """The worlds the chain rule was measured on: the strong bot's hand-written likelihood times the other
    seats' bids and kontra (the talon not read)."""
    return weighted_by_evidence(declarer_weight(know), view.log, know)


def rejection_expert(rng: random.Random) -> SearchBot:
    """The expert on those worlds, drawn by rejection sampling, with its own chain."""
    parts = replace(expert_parts(), weighting=_rejection_evidence, drawer=rejection_drawer)
    return SearchBot(rng, parts, Settings(samples=EXPERT_SAMPLES))


def plain_chain_expert(rng: random.Random) -> SearchBot:
    """The same worlds with the strong bot's chain: a raise valued as if the opponents let it stand, and the
    declarer's raises answered like any other."""
    parts = SearchParts(_rejection_evidence, rejection_drawer, played_value, standing_gain)
    return SearchBot(rng, parts, Settings(samples=EXPERT_SAMPLES))


def plain_chain_model_expert(rng: random.Random) -> SearchBot:
    """The same plain chain on the expert's own worlds (the fitted declarer model, the Metropolis chain),
    the talon not read."""
    parts = replace(expert_parts(read_talon=False), step_gain=standing_gain)
    return SearchBot(rng, parts, Settings(samples=EXPERT_SAMPLES))

def _szubkontra_view() -> SeatView:
    deal: Deal = deal_from_record(REKONTRA_ANSWERED)
    assert deal.to_move == 2
    view = deal.seat_view(2)
    assert view.choices is not None and view.choices.kontra is not None
    assert view.choices.kontra.step == "szubkontra"
    return view


values = st.lists(st.integers(-64, 64).map(float), min_size=1, max_size=12)


@given(values, values)
def test_chain_gain_never_beats_the_plain_gain(base: list[float], raised: list[float]) -> None:
    """The declarer's answer only counts against a defender's raise."""
    raised = (raised * len(base))[: len(base)]
    plain = -(sum(raised) - sum(base)) / len(base)
    assert chain_gain(base, raised) <= plain + 1e-9


def test_chain_gain_counts_the_declarers_answer_in_the_worlds_it_wins() -> None:
    # two worlds the defenders win by 2 each, one the declarer wins by 2: plain (2 + 2 - 2) / 3
    base, raised = [0.0, 0.0, 0.0], [-2.0, -2.0, 2.0]
    assert chain_gain(base, raised) == (2 + 2 - ANSWERED_RAISE_LOSS * 2) / 3
    # a world where raising changes nothing counts as no gain
    assert chain_gain([1.0, 1.0], [1.0, -1.0]) == 1.0


def test_the_expert_values_a_first_kontra_with_the_declarers_answer_in_view() -> None:
    """At the first kontra the declarer has raised nothing: the answer in view is the whole difference.
    After the declarer's rekontra the expert does not raise the part at any value."""
    first: Deal = deal_from_record({**REKONTRA_ANSWERED, "actions": REKONTRA_ANSWERED["actions"][:7]})  # type: ignore[index]
    view = first.seat_view(2)
    assert view.choices is not None and view.choices.kontra is not None and view.choices.kontra.step == "kontra"
    know = analyse(view)
    base, raised = [0.0, 0.0, 0.0, 0.0], [-2.0, -2.0, -2.0, 2.0]
    expert = answered_gain(know, Part.SIMPLE, base, raised)
    strong = standing_gain(know, Part.SIMPLE, base, raised)
    assert strong == 1.0 and expert == 0.0
    rekontra = analyse(_szubkontra_view())
    assert answered_gain(rekontra, Part.SIMPLE, base, raised) == -math.inf


def test_an_expert_defender_does_not_answer_a_rekontra() -> None:
    """The arena deal above: valued as if the declarer let the raise stand, and with its answer in view
    but allowed to answer, the expert raises the simple game again; it does not answer the rekontra."""
    view = _szubkontra_view()
    for seed in range(3):
        plain = plain_chain_expert(random.Random(seed)).act(view)
        expert = expert_bot(random.Random(seed)).act(view)
        rejection = rejection_expert(random.Random(seed)).act(view)
        assert plain.kind is Kind.KONTRA and Part.SIMPLE in (plain.parts or ()), (seed, plain)
        assert expert.kind is Kind.KONTRA and expert.parts == (), (seed, expert)
        assert rejection.kind is Kind.KONTRA and rejection.parts == (), (seed, rejection)


def test_on_the_experts_worlds_even_the_plain_chain_declines_the_rekontra() -> None:
    """The declarer made the simple game in this deal. On the worlds of the fitted declarer model drawn by
    the Metropolis chain, the raise no longer looks winning: even the plain valuation declines it."""
    view = _szubkontra_view()
    for seed in range(3):
        plain = plain_chain_model_expert(random.Random(seed)).act(view)
        assert plain.kind is Kind.KONTRA and plain.parts == (), (seed, plain)


def test_the_declarers_raise_is_valued_as_the_strong_bot_values_it() -> None:
    """The declarer's raises won their part 91-98% of the time in the arena: the expert keeps their rule."""
    deal: Deal = deal_from_record({**REKONTRA_ANSWERED, "actions": REKONTRA_ANSWERED["actions"][:-1]})  # type: ignore[index]
    assert deal.to_move == 1
    know = analyse(deal.seat_view(1))
    base, raised = [0.0, 0.0, 0.0], [-3.0, 2.0, 2.0]
    expert = answered_gain(know, Part.SIMPLE, base, raised)
    strong = standing_gain(know, Part.SIMPLE, base, raised)
    assert expert == strong == 1 / 3


def test_the_coachs_kontra_values_are_the_experts_calibrated_step_values() -> None:
    """The hint at the szubkontra step above: the expert's choice (decline), and each raise's value on the
    same worlds: declining's plus what the step brings by the expert's calibrated values
    (``step_values.calibrated_gain``), which say a szubkontra does not pay."""
    view = _szubkontra_view()
    answer = hint(view, worlds=16, seed=5)
    assert answer is not None and answer["kind"] == "kontra" and answer["best"] == DECLINE
    raw = price_view(view, kontra_samples(16), hint_rng(5), kind=Kind.KONTRA, weighting=expert_weight, chain=True)
    assert raw is not None
    know = analyse(view)
    assert know.seat != know.declarer  # a defender: the values are the declarer's side negated
    base = [-v for v in raw.samples[DECLINE]]
    decline = sum(raw.samples[DECLINE]) / raw.worlds
    raises = [key for key in raw.samples if key != DECLINE]
    assert raises
    for key in raises:
        gain = sum(calibrated_gain(know, Part(name), base, [-v for v in raw.samples[Part(name).value]])
                   for name in key.split("+"))
        assert answer["values"][key] == pytest.approx(decline + gain, abs=1e-3)
        assert answer["values"][key] < answer["values"][DECLINE]


def test_expert_v1_is_the_expert_with_the_answered_step_value() -> None:
    """The laboratory keeps the expert whose defenders price the declarer's answer and never answer a
    rekontra, to measure the calibrated steps against."""
    v1 = bot_for("expert-v1", random.Random(0))
    assert isinstance(v1, SearchBot) and v1.play.parts.step_gain is answered_gain
    assert expert_bot(random.Random(0), step_value="answered").play.parts.step_gain is answered_gain
    judge = bot_for("expert-standing", random.Random(0))
    assert isinstance(judge, SearchBot) and judge.play.parts.step_gain is standing_gain


def test_an_unknown_step_value_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown step_value 'hopeful'"):
        expert_bot(random.Random(0), step_value="hopeful")
