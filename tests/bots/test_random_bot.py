"""The random bot's whole-deal helper (``ulti.bots.random_bot.random_legal_action``)."""

from __future__ import annotations

import random

import pytest

from ulti.bots.random_bot import random_legal_action
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands


def test_a_random_legal_action_is_refused_once_nobody_is_on_turn() -> None:
    rng = random.Random(5)
    deal = Deal(deal_hands(rng, 0), 0)
    while not deal.is_over:
        deal.apply(random_legal_action(deal, rng))
    with pytest.raises(ValueError, match="the deal is over: nobody is on turn"):
        random_legal_action(deal, rng)
