"""The one searching bot: ``strong`` and ``expert`` are ``SearchBot`` made with named parts and settings,
and each part is handed what it reads (the view, its analysis, the values) rather than the bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from ulti.bots.expert import EXPERT_SAMPLES, expert_bot, expert_parts, expert_settings
from ulti.bots.levels import bot_for_level
from ulti.bots.parts import Likelihood, SearchParts, rejection_drawer, standing_gain
from ulti.bots.sampling import Knowledge, Sampler, World
from ulti.bots.strong import STRONG_PARTS, SearchBot, Settings, strong_bot
from ulti.engine.contracts import Bid, Part
from ulti.engine.view import SeatView
from ulti.lab.positions import positions


def test_strong_and_expert_are_one_class_made_with_their_parts_and_settings() -> None:
    strong, expert = bot_for_level("strong", random.Random(0)), bot_for_level("expert", random.Random(0))
    assert type(strong) is SearchBot and type(expert) is SearchBot
    assert strong.parts == STRONG_PARTS and strong.settings == Settings()
    assert expert.parts == expert_parts() and expert.settings == expert_settings(EXPERT_SAMPLES)
    # the halves share the bot's settings, parts and safety stop: nothing to keep in step by hand
    for bot in (strong, expert):
        assert bot.play.parts is bot.auction.parts is bot.parts
        assert bot.play.settings is bot.auction.settings is bot.settings
        assert bot.play.stop is bot.auction.stop is bot.stop


def test_every_part_is_handed_what_it_reads() -> None:
    """A bot made with recording parts: the weighting gets the very view the bot was asked about and its
    analysis, the drawer that analysis and the weighting's likelihood, the declaration value a bid and a
    mean, the step gain the analysis, a part and the values as they stand and raised."""
    weighed: list[tuple[SeatView, Knowledge]] = []
    drawn: list[tuple[Knowledge, Likelihood | None]] = []
    valued: list[tuple[Bid, float]] = []
    gained: list[tuple[Knowledge, Part, Sequence[float], Sequence[float]]] = []

    def marker(world: World) -> float:  # the likelihood the drawer must be handed back
        return 1.0

    def weighting(view: SeatView, know: Knowledge) -> Likelihood | None:
        weighed.append((view, know))
        return marker

    def drawer(know: Knowledge, likelihood: Likelihood | None) -> Sampler:
        drawn.append((know, likelihood))
        return rejection_drawer(know, likelihood)

    def value(bid: Bid, solved: float) -> float:
        valued.append((bid, solved))
        return solved

    def gain(know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
        gained.append((know, part, base, raised))
        return standing_gain(know, part, base, raised)

    parts = SearchParts(weighting=weighting, drawer=drawer, declaration_value=value, step_gain=gain)
    recording = SearchBot(random.Random(5), parts, Settings(samples=6, auction_samples=3))
    views = positions(3, 5)
    for view in views:
        recording.act(view)
    assert weighed and drawn and valued and gained
    asked = {id(view) for view in views}
    for view, know in weighed:
        assert id(view) in asked and know.seat == view.seat
    assert all(likelihood is marker for _, likelihood in drawn)
    assert all(isinstance(bid, Bid) and isinstance(solved, float) for bid, solved in valued)
    for know, part, base, raised in gained:
        assert know.contract is not None and part in know.multipliers and len(base) == len(raised) > 0


def test_a_configuration_is_parts_and_settings_not_a_subclass() -> None:
    # the expert made by hand from its parts and settings takes the expert's actions from the same seed
    views = positions(2, 8)
    made = expert_bot(random.Random(3), samples=8, auction_samples=3)
    by_hand = SearchBot(random.Random(3), expert_parts(), expert_settings(samples=8, auction_samples=3))
    assert [made.act(view) for view in views] == [by_hand.act(view) for view in views]
    # and the strong bot with the expert's drawer only is neither: a part swapped is a new configuration
    mixed = SearchBot(random.Random(3), replace(STRONG_PARTS, drawer=expert_parts().drawer), Settings(samples=8))
    assert mixed.parts != STRONG_PARTS and mixed.parts != expert_parts()
    assert strong_bot(random.Random(3), samples=8).settings == mixed.settings
