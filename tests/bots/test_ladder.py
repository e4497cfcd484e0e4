"""The ladder's levels (``ulti.bots.ladder``): legal, reproducible, sensible in hand-made positions, and their
mistakes sized in order (a lower level gives away more per decision)."""

from __future__ import annotations

import random

import pytest

from tests.puzzles.compose import position
from ulti.bots.expert import expert_settings
from ulti.bots.expert.played_values import played_value
from ulti.bots.expert.step_values import calibrated_gain
from ulti.bots.interface import seat_and_choices
from ulti.bots.ladder import (
    BEGINNERS_BIDS,
    RUNGS,
    Temper,
    choice_odds,
    class_losses,
    draw,
    expected_loss,
    ladder_bot,
)
from ulti.bots.levels import BOT_LEVELS, LEVELS, bot_for_level
from ulti.bots.random_bot import random_legal_action
from ulti.bots.sampling import analyse
from ulti.bots.strong import Settings
from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import FULL_DECK, card_str, iter_cards, mask_of, parse_card
from ulti.engine.contracts import BIDS_BY_CODE, Part, parse_bid
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands

#: the ladder from the lowest rung up
LADDER = ("beginner", "casual", "club")


def _card_of(bot_level: str, deal: Deal, seed: int) -> str:
    """The card a fresh bot of ``bot_level`` seeded ``seed`` plays in ``deal`` (its seat on turn)."""
    seat = deal.to_move
    assert seat is not None
    action = bot_for_level(bot_level, random.Random(seed)).act(deal.seat_view(seat))
    assert action.kind is Kind.PLAY and action.card is not None
    return card_str(action.card)


def _play_deal(levels: tuple[str, str, str], seed: int) -> list[Action]:
    """A whole deal of bots of ``levels`` (by seat) from ``seed``, every action checked legal by the engine."""
    rng = random.Random(seed)
    dealer = seed % 3
    deal = Deal(deal_hands(rng, dealer), dealer)
    bots = [bot_for_level(level, random.Random(seed * 10 + s)) for s, level in enumerate(levels)]
    actions: list[Action] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        action = bots[seat].act(deal.seat_view(seat))
        deal.apply(action)  # raises IllegalAction on an illegal action
        actions.append(action)
        assert len(actions) < 400
    return actions


def test_the_ladder_levels_are_registered_seated_at_tables_and_the_apart_ones_offered() -> None:
    for name in LADDER:
        assert name in LEVELS and LEVELS[name].searches and name in BOT_LEVELS
        assert LEVELS[name].settings == {"rung": name}
    # casual is seated when asked for, but by place it stands apart from neither neighbour: not offered
    assert [name for name in LADDER if LEVELS[name].offered] == ["beginner", "club"]


@pytest.mark.parametrize("level", LADDER)
def test_every_ladder_level_plays_only_legal_actions_through_whole_deals(level: str) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        for action in _play_deal((level, level, level), seed):
            kinds.add(action.kind.value)
    assert {"bid", "play"} <= kinds, kinds


def test_ladder_levels_stay_legal_after_other_players_random_actions() -> None:
    # the other two seats act at random: odd auctions, kontras and leads the bots must answer legally
    rng = random.Random(11)
    for number, level in enumerate(LADDER):
        deal = Deal(deal_hands(rng, number), number)
        bot = bot_for_level(level, random.Random(number))
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            action = bot.act(deal.seat_view(seat)) if seat == number else random_legal_action(deal, rng, 0.5)
            deal.apply(action)


@pytest.mark.parametrize("level", LADDER)
def test_a_ladder_level_replays_the_same_deal_from_the_same_seed(level: str) -> None:
    levels = (level, "heuristic", level)
    assert _play_deal(levels, 4) == _play_deal(levels, 4)


# Simple game, spades, seat 0 declares and leads trick 9 holding AH 7C. Every trump and every other heart is
# out; the defenders hold 9D 8C KD 8D. The declarer has 40 card points, the defenders 30. AH now wins its
# trick for free (50 against 40 after the last trick): the game is won. 7C first loses to 8C, and the AH
# falls to a diamond lead in the last trick (40 against 50): the game is lost, in every world.
CASH_THE_ACE = """
M-S S by 0
talon 7H 8H
0: AH 7C
1: 9D 8C
2: KD 8D
AS 8S 7S | TS QS JS | AD 7D JD | JH TH KH | QH 9S 9H | KS JC TC | TD KC QD | QC AC 9C
"""

# Betli, seat 0 declares and plays third to trick 9 (9D, JD led), void in diamonds, holding AC 7C. The
# defenders' last cards are 8C and 9C (whoever holds which): seat 2 wins this trick and leads a club to the
# last. Keeping the AC wins that trick and the betli is lost; throwing it now keeps 7C, which ducks.
BETLI_THROWS_ITS_ACE = """
N-B - by 0
talon AS AH
0: AC 7C
1: 8C
2: 9C
7S KS QS | JS KC 8S | TS QC 9S | KH QH 7H | JH JC 8H | TH TC 9H | AD KD 7D | QD TD 8D | 9D JD
"""

# Simple game, spades, seat 0 declares and plays third to trick 9 (seat 1 leads AD, seat 2 throws 8C) holding
# TD 7D. The trick is lost anyway. Seat 2 showed out of diamonds in trick 5 and every trump is out, so seat
# 1's last card is KD: kept, the TD beats it in the last trick (50 against 40: the game is won); given to
# this trick, the defenders take 20 here and the last trick (30 against 60: lost).
KEEP_THE_TEN = """
M-S S by 0
talon 7C 7H
0: TD 7D
1: KD
2: 9C
AS 7S 8S | AH 8H 9H | AC JC QC | JH TH KH | 9D 9S 8D | TC QH KC | TS JD JS | QS QD KS | AD 8C
"""


@pytest.mark.parametrize("level", LADDER)
def test_no_level_throws_away_an_ace_that_wins_its_trick_for_free_at_the_end_of_a_simple_game(level: str) -> None:
    deal = position(CASH_THE_ACE)
    assert deal.to_move == 0
    assert {_card_of(level, deal, seed) for seed in range(12)} == {"AH"}


@pytest.mark.parametrize("level", LADDER)
def test_no_betli_declarer_keeps_the_ace_that_must_win_the_last_trick(level: str) -> None:
    deal = position(BETLI_THROWS_ITS_ACE)
    assert deal.to_move == 0
    assert {_card_of(level, deal, seed) for seed in range(12)} == {"AC"}


@pytest.mark.parametrize("level", LADDER)
def test_no_level_gives_its_ten_to_a_trick_lost_anyway_when_it_wins_the_last(level: str) -> None:
    deal = position(KEEP_THE_TEN)
    assert deal.to_move == 0
    assert {_card_of(level, deal, seed) for seed in range(12)} == {"7D"}


def test_the_hand_made_mistakes_cost_more_than_any_level_may_give_away() -> None:
    # what makes the positions above sensible-play tests: the wrong card loses in every world the bot sees,
    # by more than the highest rung's limit (so no draw may choose it)
    for text, wrong in ((CASH_THE_ACE, "7C"), (BETLI_THROWS_ITS_ACE, "7C"), (KEEP_THE_TEN, "TD")):
        deal = position(text)
        bot = ladder_bot(random.Random(3), "club")
        view = deal.seat_view(0)
        _, choices = seat_and_choices(view)
        bot.play.card(view, analyse(view), choices)
        table = bot.play.last_table
        assert table is not None
        losses = class_losses(table.totals(), table.worlds)
        assert sorted(losses)[0] == 0
        assert max(losses) > max(rung.temper.limit for rung in RUNGS.values()), (wrong, losses)


def test_a_class_past_the_limit_is_never_chosen_and_ties_go_to_the_bots_own_choice() -> None:
    temper = Temper(temperature=0.5, limit=1.0)
    # four worlds; class totals in the seat's score: best 8 (mean 2), a tie, a small loss, a big loss
    odds = choice_odds([8, 8, 6, -4], 4, 0, temper)
    assert odds[1] == 0  # the other best class: a tie is no mistake
    assert odds[3] == 0  # loses 3 per world on average, past the limit
    assert odds[0] > odds[2] > 0
    assert sum(odds) == pytest.approx(1)
    rng = random.Random(5)
    drawn = {draw(odds, rng) for _ in range(200)}
    assert drawn == {0, 2}


def test_a_lower_rung_gives_away_more_per_decision() -> None:
    # fixed positions: class totals over 8 worlds, the first class the best
    tables = [
        [8.0, 7.0, 4.0, 0.0],
        [0.0, -1.0, -2.0, -8.0, -16.0],
        [16.0, 15.5, 14.0],
        [-4.0, -6.0, -10.0, -12.0],
        [2.0, 1.0],
    ]
    losses = {name: sum(expected_loss(t, 8, 0, RUNGS[name].temper) for t in tables) / len(tables) for name in LADDER}
    assert losses["beginner"] > losses["casual"] > losses["club"] > 0


def test_lower_rungs_solve_fewer_worlds_take_the_talon_and_say_kontra_more_rarely_on_their_scale() -> None:
    strong = Settings()
    ladder = [RUNGS[name].settings() for name in LADDER]
    for lower, higher in zip(ladder, [*ladder[1:], strong], strict=True):
        assert lower.samples < higher.samples and lower.auction_samples <= higher.auction_samples
        assert lower.take_margin > higher.take_margin
        assert lower.chain_margin > higher.chain_margin
        assert lower.late_chain_margin > higher.late_chain_margin
    # a first kontra's margin is on the scale of the rung's own valuation: the raw double-dummy gain
    # for the lower rungs (and the strong bot), the calibrated gain for the club player (and the expert)
    raw = [RUNGS["beginner"].kontra_margin, RUNGS["casual"].kontra_margin, strong.kontra_margin]
    assert raw == sorted(raw, reverse=True) and len(set(raw)) == 3
    assert not RUNGS["beginner"].sound_judgement and RUNGS["club"].sound_judgement
    assert RUNGS["club"].kontra_margin > expert_settings().kontra_margin
    assert RUNGS["beginner"].settings(samples=4).samples == 4  # a setting given overrides the rung's


def test_the_club_player_judges_kontra_as_the_expert_but_hopes_for_more_from_a_durchmars() -> None:
    club = RUNGS["club"].parts()
    assert club.step_gain is calibrated_gain  # its kontra steps valued by what such steps brought played out
    durchmars = BIDS_BY_CODE["N-D"]
    # its declarations keep the worlds' double-dummy mean, which the expert corrects down for a durchmars
    assert club.declaration_value(durchmars, 10.0) == 10.0 > played_value(durchmars, 10.0)
    assert RUNGS["beginner"].parts().step_gain is not calibrated_gain


def _durchmars_hand_rebids(level: str, seed: int) -> str:
    """The bid code a fresh bot of ``level`` says holding a no-trump durchmars hand as the standing bidder
    (its opening Simple game passed by both others): it may play it or bid higher."""
    opener = mask_of(parse_card(c) for c in ["AS", "KS", "QS", "JS", "AH", "KH", "QH", "AD", "KD", "QD", "AC", "KC"])
    rest = list(iter_cards(FULL_DECK & ~opener))
    deal = Deal([mask_of(rest[:10]), opener, mask_of(rest[10:])], dealer=0)
    deal.apply(act.bid(1, parse_bid("M-S"), (parse_card("QD"), parse_card("KC"))))
    for seat in (2, 0):  # both others pass: the bid is the opener's again
        deal.apply(act.pass_(seat))
    assert deal.to_move == 1
    action = bot_for_level(level, random.Random(seed)).act(deal.seat_view(1))
    assert action.kind is Kind.BID and action.bid is not None
    return action.bid.code


def test_a_beginner_never_chooses_a_durchmars_the_club_player_declares() -> None:
    assert {_durchmars_hand_rebids("club", seed) for seed in range(3)} == {"N-OD"}
    beginner = {_durchmars_hand_rebids("beginner", seed) for seed in range(3)}
    assert beginner and beginner <= BEGINNERS_BIDS
    assert not any(BIDS_BY_CODE[code].has(Part.DURCHMARS) for code in BEGINNERS_BIDS)


def test_a_repertoire_filters_the_allowed_bids_but_never_leaves_a_bot_without_one() -> None:
    narrow = Settings(repertoire=frozenset({"M-S", "H-S"}))
    assert narrow.declarable({"M-S", "N-D", "H-S"}) == {"M-S", "H-S"}
    assert narrow.declarable({"N-D", "N-OD"}) == {"N-D", "N-OD"}  # nothing of it allowed: all allowed stay
    assert Settings().declarable({"N-D"}) == {"N-D"}
