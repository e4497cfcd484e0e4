"""The table's own rules as pure functions of its state (no server, no store): each command either
makes its events or is refused by a named rule, and the state is never changed by the check."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.server.errors import CommandError
from ulti.server.events import Event, SeatSpec
from ulti.server.tablestate import TableState

HOST, ANNA, BELA = "host0000", "anna0000", "bela0000"


def table(*seats: SeatSpec, practice: bool = False, seed: int = 5) -> TableState:
    """A table created by HOST with ``seats`` (defaults: three open seats)."""
    specs: list[SeatSpec] = list(seats) or [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
    state = TableState("t1")
    state.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": seed,
                 "chosen_seed": True, "practice": practice, "seats": specs})
    return state


def refused(code: str, call: Any, *args: Any) -> CommandError:
    """``call(*args)`` is refused with ``code``."""
    with pytest.raises(CommandError) as error:
        call(*args)
    assert error.value.code == code, error.value.message
    return error.value


def apply_all(state: TableState, events: Sequence[Event]) -> None:
    for event in events:
        state.apply(event)


def started(fill_bots: bool = True) -> TableState:
    """A match between HOST (seat 0) and two heuristic bots, first deal dealt."""
    state = table()
    state.apply(state.join_event(HOST, "Host", 0, None))
    apply_all(state, state.start_events(HOST, fill_bots))
    state.apply(state.next_deal_event())
    return state


def test_join_sits_a_player_in_an_open_seat() -> None:
    state = table()
    assert state.join_event(ANNA, "Anna", 1, None) == {"type": "sit", "seat": 1, "player": ANNA, "name": "Anna"}


def test_join_refusals_name_their_rule_and_change_nothing() -> None:
    state = table({"kind": "open"}, {"kind": "invite", "invite": "tok"}, {"kind": "bot", "level": "random"})
    state.apply(state.join_event(ANNA, "Anna", 0, None))
    before = copy.deepcopy(state)
    refused("bad_request", state.join_event, BELA, "Béla", 3, None)
    refused("bad_request", state.join_event, BELA, "Béla", True, None)
    refused("already_seated", state.join_event, ANNA, "Anna", 1, "tok")
    refused("reserved", state.join_event, BELA, "Béla", 1, "wrong")
    refused("seat_taken", state.join_event, BELA, "Béla", 2, None)
    refused("seat_taken", state.join_event, BELA, "Béla", 0, None)
    refused("name_taken", state.join_event, BELA, "\u0410NNA", 1, "tok")  # Cyrillic А: reads as Anna
    assert state.join_event(BELA, "Béla", 1, "tok")["seat"] == 1
    assert state == before


def test_only_the_host_may_sit_at_a_practice_table() -> None:
    state = table({"kind": "open"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"},
                  practice=True)
    refused("practice_table", state.join_event, ANNA, "Anna", 0, None)
    assert state.join_event(HOST, "Host", 0, None)["seat"] == 0


def test_seats_are_fixed_once_the_match_starts() -> None:
    state = started()
    refused("table_started", state.join_event, ANNA, "Anna", 1, None)
    refused("table_started", state.leave_event, HOST)
    refused("table_started", state.add_bot_event, HOST, 1, "random")
    refused("table_started", state.start_events, HOST, True)


def test_an_expired_table_refuses_every_seat_command() -> None:
    state = table()
    state.apply({"type": "expired"})
    refused("table_expired", state.join_event, ANNA, "Anna", 0, None)
    refused("table_expired", state.add_bot_event, HOST, 0, "random")
    refused("table_expired", state.start_events, HOST, True)


def test_leave_frees_the_seat_before_the_match() -> None:
    state = table()
    state.apply(state.join_event(ANNA, "Anna", 2, None))
    assert state.leave_event(ANNA) == {"type": "leave", "seat": 2}
    refused("not_seated", state.leave_event, BELA)


def test_only_the_host_adds_bots_of_a_known_level_to_empty_seats() -> None:
    state = table()
    refused("not_host", state.add_bot_event, ANNA, 1, "random")
    refused("bad_request", state.add_bot_event, HOST, 1, "grandmaster")
    assert state.add_bot_event(HOST, 1, "strong") == {"type": "bot", "seat": 1, "level": "strong"}
    state.apply(state.add_bot_event(HOST, 1, "strong"))
    refused("seat_taken", state.add_bot_event, HOST, 1, "random")


def test_start_needs_the_host_and_full_seats_unless_bots_fill_them() -> None:
    state = table()
    state.apply(state.join_event(HOST, "Host", 0, None))
    refused("not_host", state.start_events, ANNA, True)
    error = refused("seats_empty", state.start_events, HOST, False)
    assert "[1, 2]" in error.message
    events = state.start_events(HOST, True)
    assert [e["type"] for e in events] == ["bot", "bot", "start"]
    last = events[-1]
    assert last["type"] == "start" and last["first_dealer"] in (0, 1, 2)


def test_a_chosen_seed_makes_the_first_dealer_and_the_deals_reproducible() -> None:
    first, second = started(), started()
    assert first.match is not None and second.match is not None
    assert first.match.first_dealer == second.match.first_dealer
    assert first.deal is not None and second.deal is not None
    assert first.deal.hands == second.deal.hands


def test_secret_tables_are_dealt_from_the_systems_randomness() -> None:
    hands = set()
    for _ in range(3):
        state = TableState("t2")
        state.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 5,
                     "chosen_seed": False, "seats": [{"kind": "bot", "level": "random"}] * 3})
        apply_all(state, state.start_events(HOST, False))
        state.apply(state.next_deal_event())
        assert state.deal is not None
        hands.add(tuple(state.deal.hands))
    assert len(hands) == 3  # the same seed, three different deals


def test_actions_are_checked_for_turn_and_legality_without_changing_the_state() -> None:
    state = started()
    deal = state.deal
    assert deal is not None
    on_turn = deal.to_move
    other = (on_turn + 1) % 3
    before = len(deal.history)
    refused("not_your_turn", state.action_event, other, {"action": "pass"}, "player")
    refused("bad_message", state.action_event, on_turn, ["pass"], "player")
    refused("bad_action", state.action_event, on_turn, {"action": "dance"}, "player")
    refused("illegal", state.action_event, on_turn, {"action": "play", "card": "AS"}, "player")
    assert len(deal.history) == before
    move = action_to_json(RandomBot(random.Random(1)).act(deal.seat_view(on_turn)))
    move.pop("seat")
    event = state.action_event(on_turn, move, "player")
    assert event["type"] == "action" and event["action"]["seat"] == on_turn


def test_no_action_is_taken_when_no_deal_is_in_progress() -> None:
    state = table()
    refused("no_deal", state.action_event, 0, {"action": "pass"}, "player")


def test_chat_is_free_between_deals_and_phrases_only_during_one() -> None:
    state = table()
    assert state.chat_event(None, "Spectator", "  Hi all  ", None)["text"] == "Hi all"
    playing = started()
    refused("chat_closed", playing.chat_event, 0, "Host", "my hand is great", None)
    refused("bad_chat", playing.chat_event, 0, "Host", None, "my_hand_is_great")
    assert playing.chat_event(0, "Host", None, "good_luck")["type"] == "chat"
