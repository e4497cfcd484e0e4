"""A result's ``detail`` (what its points and amounts are made of) and a view's live ``tally``.

On random deals played out, the detail adds up to the result's points (a side with no trick
scoring 0), the talon's points are apart from the defenders' tricks, a lost ulti's amount splits
into its kontra amount and the extra penalty, and the tally at the end is the detail without the talon.
"""

from __future__ import annotations

import random

from ulti.bots.random_bot import random_legal_action
from ulti.engine.cards import card_points
from ulti.engine.contracts import Part
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import LOST_ULTI_EXTRA
from ulti.engine.view import SeatView


def played_out(seed: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal(deal_hands(rng, seed % 3), seed % 3)
    while not deal.is_over:
        deal.apply(random_legal_action(deal, rng))
    return deal


def test_the_detail_adds_up_to_the_points_and_the_amounts() -> None:
    checked = lost_ultis = zeroes = 0
    for seed in range(400):
        deal = played_out(seed)
        result = deal.result
        assert result is not None
        if result.points is None:
            assert result.detail is None and "detail" not in result.view_json()
            continue
        detail = result.detail
        assert detail is not None and "detail" not in result.to_json()  # never in the record's result
        decl = detail.declarer_cards + detail.declarer_marriages + (10 if detail.last_trick_declarer else 0)
        defs = (detail.defenders_cards + detail.talon + detail.defenders_marriages
                + (0 if detail.last_trick_declarer else 10))
        assert result.points == (0 if detail.declarer_zero else decl, 0 if detail.defenders_zero else defs)
        zeroes += detail.declarer_zero or detail.defenders_zero
        assert detail.talon == card_points(deal.talon)
        assert detail.declarer_cards + detail.defenders_cards + detail.talon == 80  # four aces, four tens
        ulti = next((p for p in result.parts if p.part is Part.ULTI), None)
        if ulti is not None and not ulti.won:
            lost_ultis += 1
            factor = 2 if result.bid.is_hearts else 1
            assert detail.lost_ulti_extra == -LOST_ULTI_EXTRA * factor
            assert detail.lost_ulti_amount == -ulti.value * ulti.multiplier
            assert detail.lost_ulti_amount + detail.lost_ulti_extra == ulti.per_defender
            assert result.view_json()["detail"]["lost_ulti"] == {"amount": detail.lost_ulti_amount,
                                                                 "extra": detail.lost_ulti_extra}
        else:
            assert detail.lost_ulti_extra == 0 and result.view_json()["detail"]["lost_ulti"] is None
        # the tally everybody saw at the end: the same tricks and marriages, the talon left out
        tally = deal.seat_view(None).tally
        assert tally is not None
        assert tally.declarer_cards == detail.declarer_cards + (10 if detail.last_trick_declarer else 0)
        assert tally.defenders_cards == detail.defenders_cards + (0 if detail.last_trick_declarer else 10)
        assert (tally.declarer_marriages, tally.defenders_marriages) == (detail.declarer_marriages,
                                                                         detail.defenders_marriages)
        # and the view's JSON parses back with the detail
        assert SeatView.from_json(deal.view(0)).result == result
        assert SeatView.from_json(deal.view(0)).to_json() == deal.view(0)
        checked += 1
    assert checked > 100 and lost_ultis > 3, (checked, lost_ultis, zeroes)


def test_the_tally_grows_trick_by_trick_and_is_the_same_for_every_viewer() -> None:
    seen = 0
    for seed in range(60):
        rng = random.Random(seed)
        deal = Deal(deal_hands(rng, 0), 0)
        while not deal.is_over:
            tallies = {deal.seat_view(v).tally for v in (None, 0, 1, 2)}
            assert len(tallies) == 1
            (tally,) = tallies
            if not deal.start_hands or deal.trump == NO_TRUMP:
                assert tally is None
            elif tally is not None:
                seen += 1
                expected = [0, 0]
                for trick in deal.tricks:
                    cards = (1 << trick.cards[0]) | (1 << trick.cards[1]) | (1 << trick.cards[2])
                    expected[trick.winner != deal.declarer] += card_points(cards)
                assert (tally.declarer_cards, tally.defenders_cards) == tuple(expected)
            deal.apply(random_legal_action(deal, rng))
    assert seen > 100
