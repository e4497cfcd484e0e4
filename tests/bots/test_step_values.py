"""The expert's calibrated kontra steps (``ulti.bots.expert.step_values``): each step valued by what such
steps brought played out, the opponents' answer in view, against the rule it replaces (``answered_gain``,
kept as the ``expert-v1`` configuration)."""

from __future__ import annotations

import random

import pytest

from tests.bots.test_expert_chain import REKONTRA_ANSWERED
from ulti.bots.expert import expert_bot
from ulti.bots.expert.step_values import (
    ANSWER_COSTS,
    FITTED,
    POOLED,
    STEP_LINES,
    STEP_MARGIN,
    calibrated_gain,
    step_of,
)
from ulti.bots.levels import bot_for_level
from ulti.bots.sampling import Knowledge, analyse
from ulti.bots.strong import SearchBot
from ulti.engine.contracts import KONTRA_STEP_NAMES, Part
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record
from ulti.engine.view import SeatChoices


def _decision(actions: int) -> tuple[Knowledge, SeatChoices]:
    """The kontra decision after the first ``actions`` actions of the arena deal (H-SU, seat 1 declares)."""
    deal: Deal = deal_from_record({**REKONTRA_ANSWERED, "actions": REKONTRA_ANSWERED["actions"][:actions]})  # type: ignore[index]
    assert deal.to_move is not None
    view = deal.seat_view(deal.to_move)
    assert view.choices is not None and view.choices.kontra is not None
    return analyse(view), view.choices


def _bots() -> tuple[SearchBot, SearchBot]:
    return expert_bot(random.Random(1), step_value="answered"), expert_bot(random.Random(1), step_value="calibrated")


def _worlds(won: int, lost: int, stake: int, declarer: bool) -> tuple[list[float], list[float]]:
    """Hand-made worlds (per_defender, the declarer's side) of a part at ``stake``: the seat's side wins it in
    ``won`` worlds and loses it in ``lost``, raised the stake doubles."""
    sign = 1 if declarer else -1
    base = [float(sign * stake)] * won + [float(-sign * stake)] * lost
    return base, [2 * v for v in base]


def test_the_first_kontra_is_said_where_its_calibrated_value_pays_though_the_answered_rule_declines() -> None:
    """Seven worlds of ten won: the answered rule prices each lost world three times (the declarer's answer
    in every world it wins) and declines; played out, such kontras brought more than the answers took."""
    know, ch = _decision(7)  # seat 2 before its first card: kontra on the simple game or the ulti
    assert ch.kontra is not None and ch.kontra.step == "kontra" and ch.kontra.parts == (Part.SIMPLE, Part.ULTI)
    stake = know.contract.part_value(Part.SIMPLE) if know.contract else 0
    base, raised = _worlds(7, 3, stake, declarer=False)
    unchanged = list(base)  # the ulti raised changes nothing in these worlds: no gain
    old, new = _bots()
    assert old.play.raises(know, ch, base, [raised, unchanged]) == ()
    assert new.play.raises(know, ch, base, [raised, unchanged]) == (Part.SIMPLE,)
    assert FITTED.value("kontra", "ulti", 0.4) > STEP_MARGIN  # the fitted line less the answer cost


def test_a_rekontra_the_plain_gain_says_is_declined_where_such_rekontras_lost_played_out() -> None:
    """The declarer's rekontra on the simple game of an ulti contract with eight worlds of ten won: its
    plain gain (0.6 stakes) beats today's margin (0.5); the ulti family's rekontras realised less."""
    know, ch = _decision(10)
    assert ch.kontra is not None and ch.kontra.step == "rekontra" and know.seat == know.declarer
    stake = (know.contract.part_value(Part.SIMPLE) if know.contract else 0) * know.multipliers[Part.SIMPLE]
    base, raised = _worlds(8, 2, stake, declarer=True)
    old, new = _bots()
    assert old.play.raises(know, ch, base, [raised, list(base)]) == (Part.SIMPLE,)
    assert new.play.raises(know, ch, base, [raised, list(base)]) == ()
    assert FITTED.value("rekontra", "ulti", 0.6) <= STEP_MARGIN


def test_a_defender_may_answer_a_rekontra_by_its_value_and_the_data_say_it_does_not_pay() -> None:
    """The old rule refused to answer a rekontra outright; the calibrated value prices the szubkontra like
    any step, and even a szubkontra that every world wins brought less than nothing played out."""
    know, ch = _decision(11)
    assert ch.kontra is not None and ch.kontra.step == "szubkontra"
    stake = (know.contract.part_value(Part.SIMPLE) if know.contract else 0) * know.multipliers[Part.SIMPLE]
    base, raised = _worlds(10, 0, stake, declarer=False)
    gain = calibrated_gain(know, Part.SIMPLE, base, raised)
    assert gain == pytest.approx(FITTED.value("szubkontra", "ulti", 1.0) * stake)
    assert gain > -float("inf") and gain < 0  # valued, not refused: and it does not pay
    _, new = _bots()
    assert new.play.raises(know, ch, base, [raised, list(base)]) == ()


def test_the_fitted_values_cover_the_first_steps_and_every_step_has_an_answer_cost() -> None:
    assert {"kontra", "rekontra"} <= set(STEP_LINES) and all(POOLED in lines for lines in STEP_LINES.values())
    assert set(ANSWER_COSTS) == set(KONTRA_STEP_NAMES[1:])
    # a step the data hardly offered takes its side's step before it: the declarer's hirskontra the rekontra's
    assert FITTED.line("hirskontra", "ulti") == FITTED.line("rekontra", "ulti")
    assert step_of(1) == "kontra" and step_of(2) == "rekontra" and step_of(32) == "fedáksári"


def test_the_calibrated_expert_decides_reproducibly_from_a_seed() -> None:
    deal: Deal = deal_from_record({**REKONTRA_ANSWERED, "actions": REKONTRA_ANSWERED["actions"][:7]})  # type: ignore[index]
    assert deal.to_move is not None
    view = deal.seat_view(deal.to_move)
    actions = {expert_bot(random.Random(3), samples=8, step_value="calibrated").act(view) for _ in range(2)}
    assert len(actions) == 1  # the same seed, the same choice
    bot = expert_bot(random.Random(3), step_value="calibrated")
    assert bot.settings.kontra_margin == bot.settings.chain_margin == bot.settings.late_chain_margin == STEP_MARGIN


def test_the_expert_at_tables_values_its_steps_calibrated() -> None:
    """Adopted (docs/lab-journal.md): the table level is the calibrated expert; ``expert-v1`` the one before."""
    tabled = bot_for_level("expert", random.Random(0))
    assert isinstance(tabled, SearchBot) and tabled.parts.step_gain is calibrated_gain
    assert tabled.settings.kontra_margin == STEP_MARGIN
