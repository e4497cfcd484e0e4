"""The statistics stored with each seat of a finished match (docs/protocol/players.md §20.4), from known deals."""

from __future__ import annotations

import random

from ulti.engine import actions as act
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.dealing import deal_hands
from ulti.engine.match import Match
from ulti.engine.scoring import DealResult, PartResult, give_up_result, scores_for
from ulti.server.match_stats import deals_stats, empty_stats, match_stats
from ulti.server.tablebots import bot_action

HEARTS_ULTI = BIDS_BY_CODE["H-SU"]


def hearts_ulti_by_seat_1(simple_level: int, ulti_level: int) -> DealResult:
    """Seat 1 plays hearts ulti: the simple part (2) made, the ulti (8) lost, at these kontra multipliers."""
    simple, ulti = 2 * simple_level, -8 * ulti_level
    parts = (PartResult(Part.SIMPLE, True, 2, simple_level, simple), PartResult(Part.ULTI, False, 8, ulti_level, ulti))
    return DealResult(
        declarer=1, bid=HEARTS_ULTI, trump=1, given_up=False, parts=parts, silent=(),
        points=(50, 40), per_defender=simple + ulti, scores=scores_for(1, simple + ulti), tricks=10,
    )


def test_known_deals_give_known_statistics() -> None:
    # Deal 1: seat 0 gives up a simple game: (-4, 2, 2).
    give_up = give_up_result(0, BIDS_BY_CODE["M-S"])
    # Deal 2: seat 1's hearts ulti. Seat 2 says kontra on the simple part, seat 0 declines, the
    # declarer says rekontra, seat 2 szubkontra: the simple part at ×8, made; the ulti lost at ×1:
    # per defender 16 - 8 = 8: (-8, 16, -8).
    deal_2 = hearts_ulti_by_seat_1(8, 1)
    history_2 = [
        act.kontra(2, (Part.SIMPLE,)),
        act.kontra(0, ()),
        act.kontra(1, (Part.SIMPLE,)),
        act.kontra(2, (Part.SIMPLE,)),  # a later step on the same part counts once per deal
    ]
    # Deal 3: seat 1 again, the ulti kontra'd by seat 0 (×2) and lost: per defender 2 - 16 = -14: (14, -28, 14).
    deal_3 = hearts_ulti_by_seat_1(1, 2)
    history_3 = [act.kontra(0, (Part.ULTI,))]
    assert (give_up.scores, deal_2.scores, deal_3.scores) == ((-4, 2, 2), (-8, 16, -8), (14, -28, 14))

    stats = deals_stats([(give_up, []), (deal_2, history_2), (deal_3, history_3)])

    assert stats[0] == {
        "deals": 3,
        "declarer_deals": 1,
        "declarer_points": -4,
        "defender_deals": 2,
        "defender_points": 6,
        "declared": {"simple": {"played": 1, "made": 0, "kontrad": 0}},  # given up: played, not made
        "kontra": {"ulti": {"given": 1, "won": 1}},  # the defenders won the ulti
    }
    assert stats[1] == {
        "deals": 3,
        "declarer_deals": 2,
        "declarer_points": -12,
        "defender_deals": 1,
        "defender_points": 2,
        "declared": {
            "simple": {"played": 2, "made": 2, "kontrad": 1},
            "ulti": {"played": 2, "made": 0, "kontrad": 1},
        },
        "kontra": {},  # the declarer's rekontra is not a kontra "given": only defenders' steps count
    }
    assert stats[2] == {
        "deals": 3,
        "declarer_deals": 0,
        "declarer_points": 0,
        "defender_deals": 3,
        "defender_points": 8,
        "declared": {},
        "kontra": {"simple": {"given": 1, "won": 0}},  # the declarer made the simple part
    }


def test_no_deals_no_statistics() -> None:
    assert deals_stats([]) == [empty_stats()] * 3


def test_a_played_match_adds_up_to_its_totals() -> None:
    """Over a whole match played by bots, each seat's points as declarer and defender sum to its total."""
    match = Match(6, first_dealer=0, players=["A", "B", "C"])
    rng = random.Random(7)
    while not match.is_over:
        deal = match.new_deal(deal_hands(rng, match.dealer_of(len(match.deals))))
        while not deal.is_over:
            deal.apply(bot_action("random", deal.seat_view(deal.to_move), f"{len(deal.history)}"))
    stats = match_stats(match)
    for seat, total in enumerate(match.totals()):
        assert stats[seat]["declarer_points"] + stats[seat]["defender_points"] == total
        assert stats[seat]["deals"] == len(match.deals)
        assert stats[seat]["declarer_deals"] + stats[seat]["defender_deals"] == len(match.deals)
    assert sum(s["declarer_deals"] for s in stats) == len(match.deals)
    played = sum(entry["played"] for s in stats for entry in s["declared"].values())
    assert played == sum(len(d.result.bid.parts) for d in match.deals if d.result is not None)


def test_a_table_of_four_counts_each_players_deals_by_table_seat_not_the_sat_out_ones() -> None:
    from tests.engine.test_four_match import random_four_match

    match = random_four_match(seed=8, first_dealer=1)
    stats = match_stats(match)
    assert len(stats) == 4
    assert [s["deals"] for s in stats] == [9, 9, 9, 9]  # twelve deals, three sat out each
    for position in range(4):
        played = [k for k in range(12) if match.sits_out(k) != position]
        points = 0
        declared = 0
        for k in played:
            scores, result = match.deal_scores(k), match.deals[k].result
            assert scores is not None and result is not None
            points += scores[position]
            declared += result.declarer == match.engine_seat_of(k, position)
        assert stats[position]["declarer_points"] + stats[position]["defender_points"] == points
        assert stats[position]["declarer_deals"] == declared
