"""A table of an event deals from the event's seed and nothing else (``TableState`` against ``duplicate_hands``)."""

from __future__ import annotations

import random

import pytest

from ulti.bots.random_bot import RandomBot
from ulti.duplicates import duplicate_first_dealer, duplicate_hands
from ulti.engine.record import action_to_json
from ulti.server import tablerecords, tablerules, tableviews
from ulti.server.tablestate import CommandError, TableState

SEED = 99


def event_table(table_id: str, host: str, level: str, play_seed: int) -> TableState:
    """A started event table (seed ``SEED``): ``host`` at seat 0, bots of ``level`` in the others."""
    state = TableState(table_id)
    state.apply({"type": "created", "host": host, "deals": 6, "move_seconds": 0, "seed": SEED, "chosen_seed": True,
                 "practice": False, "event": "ev", "seats": [{"kind": "open"}] * 3})
    state.apply(tablerules.join_event(state, host, host.title(), 0, None, via_event=True))
    for event in tablerules.start_events(state, host, True, level):
        state.apply(event)
    rng = random.Random(play_seed)
    while state.status == "playing":
        if state.ready_for_next or state.deal is None:
            state.apply(tablerules.next_deal_event(state))
        deal = state.deal
        assert deal is not None
        seat = deal.to_move
        assert seat is not None  # the deal is not over
        payload = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
        payload.pop("seat")
        state.apply(tablerules.action_event(state, seat, payload, "player"))
    return state


def test_two_tables_of_an_event_hold_the_same_cards_on_every_deal_whatever_happens() -> None:
    one = event_table("t1", "anna", "heuristic", 1)
    two = event_table("t2", "bela", "random", 2)
    assert one.match is not None and two.match is not None
    assert one.match.first_dealer == two.match.first_dealer == duplicate_first_dealer(SEED)
    shared = min(len(one.match.deals), len(two.match.deals))  # tie-break deals too, where both had them
    assert shared >= 6
    for index in range(shared):
        a, b = one.match.deals[index], two.match.deals[index]
        assert (a.dealer, a.dealt) == (b.dealer, b.dealt)
        dealer, hands = duplicate_hands(SEED, index)
        assert a.dealer == dealer
        assert [sorted(h) for h in hands] == [sorted(h) for h in tablerecords.deal_record(one, index)["hands"]]
    assert [d.history for d in one.match.deals[:6]] != [d.history for d in two.match.deals[:6]]


def test_an_event_table_is_joined_through_its_event_only() -> None:
    state = TableState("t3")
    state.apply({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": SEED, "chosen_seed": True,
                 "practice": False, "event": "ev", "seats": [{"kind": "open"}] * 3})
    with pytest.raises(CommandError) as error:
        tablerules.join_event(state, "p", "Pat", 1, None)
    assert error.value.code == "event_table"
    assert tableviews.summary(state)["event"] == "ev" and tableviews.summary(state)["totals"] is None
