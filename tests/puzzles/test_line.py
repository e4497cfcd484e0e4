"""Playing a puzzle's line on its deal (``ulti.puzzles.line``)."""

from __future__ import annotations

import random

import pytest

from ulti.bots.random_bot import random_legal_action
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import IllegalAction
from ulti.puzzles.line import play


def test_a_card_played_after_the_end_is_refused_as_the_engine_refuses_any_action_then() -> None:
    rng = random.Random(11)
    deal = Deal(deal_hands(rng, 1), 1)
    while not deal.is_over:
        deal.apply(random_legal_action(deal, rng))
    with pytest.raises(IllegalAction) as refused:
        play(deal, 0)
    assert refused.value.rule == "deal_over"
