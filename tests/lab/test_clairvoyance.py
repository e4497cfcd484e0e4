"""The card-play headroom benchmark: the bot that sees every card, and the arena's bot maker that seats it."""

from __future__ import annotations

import random
import statistics
from typing import cast

import pytest

from ulti.bots.interface import Bot
from ulti.bots.levels import bot_for_level
from ulti.bots.selfplay import play_deal
from ulti.bots.solver import Position, values_after
from ulti.bots.strong.play import solve_value
from ulti.engine.actions import Action
from ulti.engine.cards import count, iter_cards
from ulti.engine.deal import Deal, Phase
from ulti.engine.view import SeatView
from ulti.lab.arena import NoKontra, dealt, fixed_auction, play_set, run_report
from ulti.lab.clairvoyance import (
    CLAIRVOYANT,
    RoleSplitBot,
    clairvoyant_bot,
    level_seat_bot,
    seat_bot,
    share_of_headroom,
)


def _opened(seed: int) -> Deal:
    """Set 0 of ``seed``'s card-play arena, its auction played by strong bots, at its first card."""
    dealer, hands, prefix = dealt(seed, 0, 0)
    deal = Deal(hands, dealer)
    fixed_auction(deal, [bot_for_level("strong", random.Random(f"{prefix}:auction:{s}")) for s in range(3)])
    return deal


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_clairvoyant_bot_gives_nothing_away_against_the_true_deal(seed: int) -> None:
    deal = _opened(seed)
    assert deal.phase is Phase.PLAY
    bots = [clairvoyant_bot(random.Random(seat), deal) for seat in range(3)]
    priced = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None  # the deal is not over
        view = deal.seat_view(seat)
        assert view.choices is not None
        cards = list(iter_cards(view.choices.cards))
        sign = 1 if seat == deal.declarer else -1  # the declarer maximises per_defender
        values = [sign * v for v in values_after(Position.from_deal(deal), cards)] if len(cards) > 1 else [0]
        action = bots[seat].act(view)
        assert action.card is not None
        if min(values) < max(values):
            priced += 1
            assert values[cards.index(action.card)] == max(values)
        deal.apply(action)
    assert priced > 0  # some decision could have given something away


def test_where_it_does_not_see_it_plays_as_the_strong_bot() -> None:
    for seed in (4, 5, 6):
        deal = _opened(seed)
        seat = deal.to_move
        view = deal.seat_view(seat)
        assert view.choices is not None and count(view.choices.cards) > 1
        sees = "defence" if seat == deal.declarer else "declarer"  # the role it is not in
        blind = clairvoyant_bot(random.Random(9), deal, sees).act(view)
        assert blind == bot_for_level("strong", random.Random(9)).act(view)


def test_an_unknown_sight_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown sight 'talon'"):
        clairvoyant_bot(random.Random(0), _opened(1), "talon")


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_a_side_seeing_every_card_gets_at_least_the_deals_double_dummy_value(seed: int) -> None:
    # minimax on the true cards at every turn holds the side to the deal's double-dummy value whatever the
    # other side plays (a defender beside a partner who does not see gets no such floor: the arena's mixed
    # seatings, where the clairvoyant bot can lose a set)
    for sees in ("declarer", "defence"):
        deal = _opened(seed)
        value = solve_value(Position.from_deal(deal))
        bots = [
            clairvoyant_bot(random.Random(s), deal)
            if (s == deal.declarer) == (sees == "declarer")
            else bot_for_level("strong", random.Random(s))
            for s in range(3)
        ]
        play_deal(deal, [NoKontra(bot) for bot in bots])  # the value is the contract's, unraised
        assert deal.result is not None
        sign = 1 if sees == "declarer" else -1
        assert sign * deal.result.per_defender >= sign * value


def test_the_arena_hands_each_plays_deal_to_its_bot_maker() -> None:
    made: list[tuple[str, Phase]] = []

    def recording(level: str, rng: random.Random, deal: Deal) -> Bot:
        made.append((level, deal.phase))
        return seat_bot(level, rng, deal)

    result = play_set(CLAIRVOYANT, "strong", 11, 0, "cards", "strong", make_bot=recording)
    assert len(result.records) == 6
    # six plays of three seats, each play's deal opened at its first card; A alone in three, two A's in three
    assert [phase for _, phase in made] == [Phase.PLAY] * 18
    assert sum(level == CLAIRVOYANT for level, _ in made) == 9
    # the default maker seats levels by name only: nothing else can seat the clairvoyant
    with pytest.raises(ValueError, match="unknown bot level 'clairvoyant'"):
        play_set(CLAIRVOYANT, "strong", 11, 0, mode="cards", auction_level="strong")


def test_a_levels_share_is_its_lead_over_the_headroom_with_a_paired_interval() -> None:
    rng = random.Random(5)
    headroom = [1.0 + rng.gauss(0, 3) for _ in range(200)]
    # a level that gains half of what seeing the cards gains on each deal: the same deals swing both
    paired = [0.5 * h + rng.gauss(0, 0.2) for h in headroom]
    share = share_of_headroom(paired, headroom)
    assert share.share == pytest.approx(statistics.fmean(paired) / statistics.fmean(headroom))
    assert share.low < share.share < share.high
    # the same leads shuffled against other deals: the pairing is gone and the interval widens
    shuffled = share_of_headroom(random.Random(1).sample(paired, len(paired)), headroom)
    assert shuffled.share == pytest.approx(share.share)
    assert shuffled.high - shuffled.low > 2 * (share.high - share.low)
    with pytest.raises(ValueError, match="same, non-empty run"):
        share_of_headroom(paired[:3], headroom)


def test_the_arena_tells_each_sets_score_in_set_order() -> None:
    told: list[float] = []
    report = run_report("heuristic", "random", 3, 11, 1, None, on_set=told.append)
    assert len(told) == 3 and statistics.fmean(told) == pytest.approx(report.overall.mean)
    assert told == [play_set("heuristic", "random", 11, i).a_mean for i in range(3)]


class _Recording:
    """A bot that plays as ``inner`` and records the seats it was asked for."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.seats: list[int | None] = []

    def act(self, view: SeatView) -> Action:
        self.seats.append(view.seat)
        return self.inner.act(view)


@pytest.mark.parametrize("sees", ["declarer", "defence"])
def test_a_role_split_level_plays_itself_in_its_role_and_the_other_level_elsewhere(sees: str) -> None:
    deal = _opened(7)
    declarer = deal.declarer
    splits = [
        RoleSplitBot(_Recording(bot_for_level("heuristic", random.Random(s))),
                     _Recording(bot_for_level("heuristic", random.Random(s))), sees)
        for s in range(3)
    ]
    play_deal(deal, [NoKontra(bot) for bot in splits])
    assert deal.is_over
    inside = [seat for bot in splits for seat in cast(_Recording, bot.inside).seats]
    outside = [seat for bot in splits for seat in cast(_Recording, bot.outside).seats]
    assert inside and outside
    if sees == "declarer":
        assert set(inside) == {declarer} and declarer not in outside
    else:
        assert declarer not in inside and set(outside) == {declarer}


def test_the_measured_level_alone_is_split_and_only_for_a_role() -> None:
    deal = _opened(8)
    rng = random.Random(1)
    split = level_seat_bot("heuristic", rng, deal, measured="heuristic", b="random", sees="declarer")
    assert isinstance(split, RoleSplitBot) and split.sees == "declarer"
    b_seat = level_seat_bot("random", rng, deal, measured="heuristic", b="random", sees="declarer")
    assert not isinstance(b_seat, RoleSplitBot)
    assert not isinstance(level_seat_bot("heuristic", rng, deal, measured="heuristic", b="random"), RoleSplitBot)
    with pytest.raises(ValueError, match="unknown sight 'talon'"):
        RoleSplitBot(split.inside, split.outside, "talon")
