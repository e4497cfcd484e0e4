"""``None`` on the deal where no seat is meant (issue 38), and ``-1`` for it on the wire as before.

``Deal.declarer`` is ``None`` until the auction ends, ``Deal.leader`` until the play starts, and
``Deal.to_move`` once the deal is over; the views and records still send ``"to_move": -1`` then
(docs/protocol/views.md §10.3).
"""

from __future__ import annotations

import random

from ulti.bots.random_bot import random_legal_action
from ulti.engine import actions as act
from ulti.engine.cards import cards_of
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands


def _given_up(seed: int = 3) -> Deal:
    """A deal whose opener bids a simple party, everybody passes and the opener gives up."""
    deal = Deal(deal_hands(random.Random(seed), 0), 0)
    opener = deal.opener
    a, b = cards_of(deal.hands[opener])[:2]
    deal.apply(act.bid(opener, BIDS_BY_CODE["M-S"], (a, b)))
    for step in (1, 2, 0):
        deal.apply(act.pass_((opener + step) % 3))
    assert deal.phase is Phase.TRUMP
    deal.apply(act.give_up(opener))
    return deal


def test_declarer_is_none_until_the_auction_ends_and_leader_until_the_play_starts() -> None:
    deal = Deal(deal_hands(random.Random(1), 2), 2)
    opener = deal.opener
    assert (deal.declarer, deal.leader, deal.to_move) == (None, None, opener)
    a, b = cards_of(deal.hands[opener])[:2]
    deal.apply(act.bid(opener, BIDS_BY_CODE["M-S"], (a, b)))
    for step in (1, 2):
        deal.apply(act.pass_((opener + step) % 3))
    assert (deal.declarer, deal.leader) == (None, None)  # the bidder may still speak: the auction is open
    deal.apply(act.pass_(opener))
    assert deal.phase is Phase.TRUMP
    assert (deal.declarer, deal.leader) == (opener, None)
    deal.apply(act.trump(opener, 0))
    assert (deal.phase, deal.declarer, deal.leader, deal.to_move) == (Phase.PLAY, opener, opener, opener)


def test_to_move_is_none_once_the_deal_is_settled_or_given_up() -> None:
    given_up = _given_up()
    assert given_up.is_over and given_up.to_move is None
    rng = random.Random(7)
    for number in range(20):
        deal = Deal(deal_hands(rng, number % 3), number % 3)
        while not deal.is_over:
            assert deal.to_move is not None
            deal.apply(random_legal_action(deal, rng, 0.3))
        assert deal.to_move is None and deal.declarer is not None


def test_a_finished_deal_lists_no_action_for_nobody_on_turn() -> None:
    deal = _given_up()
    assert deal.legal_actions() == []
    assert all(deal.legal_actions(seat) == [] for seat in range(3))


def test_the_wire_still_says_minus_one_when_nobody_is_on_turn() -> None:
    deal = _given_up()
    for seat in (None, 0, 1, 2):
        assert deal.view(seat)["to_move"] == -1
        assert deal.seat_view(seat).to_move == -1
        assert deal.seat_view(seat).to_json()["to_move"] == -1
    open_deal = Deal(deal_hands(random.Random(2), 1), 1)
    assert open_deal.view(None)["to_move"] == open_deal.opener
    assert open_deal.view(None)["contract"] is None and open_deal.view(None)["trick"] is None
