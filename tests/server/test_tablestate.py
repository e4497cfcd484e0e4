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
from ulti.server import tablerules, tableviews
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
    state.apply(tablerules.join_event(state, HOST, "Host", 0, None))
    apply_all(state, tablerules.start_events(state, HOST, fill_bots))
    state.apply(tablerules.next_deal_event(state))
    return state


def test_join_sits_a_player_in_an_open_seat() -> None:
    state = table()
    sit = tablerules.join_event(state, ANNA, "Anna", 1, None)
    assert sit == {"type": "sit", "seat": 1, "player": ANNA, "name": "Anna"}


def test_join_refusals_name_their_rule_and_change_nothing() -> None:
    state = table({"kind": "open"}, {"kind": "invite", "invite": "tok"}, {"kind": "bot", "level": "random"})
    state.apply(tablerules.join_event(state, ANNA, "Anna", 0, None))
    before = copy.deepcopy(state)
    refused("bad_request", tablerules.join_event, state, BELA, "Béla", 3, None)
    refused("bad_request", tablerules.join_event, state, BELA, "Béla", True, None)
    refused("already_seated", tablerules.join_event, state, ANNA, "Anna", 1, "tok")
    refused("reserved", tablerules.join_event, state, BELA, "Béla", 1, "wrong")
    refused("seat_taken", tablerules.join_event, state, BELA, "Béla", 2, None)
    refused("seat_taken", tablerules.join_event, state, BELA, "Béla", 0, None)
    refused("name_taken", tablerules.join_event, state, BELA, "\u0410NNA", 1, "tok")  # Cyrillic А: reads as Anna
    assert tablerules.join_event(state, BELA, "Béla", 1, "tok")["seat"] == 1
    assert state == before


def test_only_the_host_may_sit_at_a_practice_table() -> None:
    state = table({"kind": "open"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"},
                  practice=True)
    refused("practice_table", tablerules.join_event, state, ANNA, "Anna", 0, None)
    assert tablerules.join_event(state, HOST, "Host", 0, None)["seat"] == 0


def test_seats_are_fixed_once_the_match_starts() -> None:
    state = started()
    refused("table_started", tablerules.join_event, state, ANNA, "Anna", 1, None)
    refused("table_started", tablerules.leave_event, state, HOST)
    refused("table_started", tablerules.add_bot_event, state, HOST, 1, "random")
    refused("table_started", tablerules.start_events, state, HOST, True)


def test_an_expired_table_refuses_every_seat_command() -> None:
    state = table()
    state.apply({"type": "expired"})
    refused("table_expired", tablerules.join_event, state, ANNA, "Anna", 0, None)
    refused("table_expired", tablerules.add_bot_event, state, HOST, 0, "random")
    refused("table_expired", tablerules.start_events, state, HOST, True)


def test_leave_frees_the_seat_before_the_match() -> None:
    state = table()
    state.apply(tablerules.join_event(state, ANNA, "Anna", 2, None))
    assert tablerules.leave_event(state, ANNA) == {"type": "leave", "seat": 2}
    refused("not_seated", tablerules.leave_event, state, BELA)


def test_only_the_host_adds_bots_of_a_known_level_to_empty_seats() -> None:
    state = table()
    refused("not_host", tablerules.add_bot_event, state, ANNA, 1, "random")
    refused("bad_request", tablerules.add_bot_event, state, HOST, 1, "grandmaster")
    assert tablerules.add_bot_event(state, HOST, 1, "strong") == {"type": "bot", "seat": 1, "level": "strong",
                                                      "player": "bot-strong"}
    state.apply(tablerules.add_bot_event(state, HOST, 1, "strong"))
    refused("seat_taken", tablerules.add_bot_event, state, HOST, 1, "random")


def test_start_needs_the_host_and_full_seats_unless_bots_fill_them() -> None:
    state = table()
    state.apply(tablerules.join_event(state, HOST, "Host", 0, None))
    refused("not_host", tablerules.start_events, state, ANNA, True)
    error = refused("seats_empty", tablerules.start_events, state, HOST, False)
    assert "[1, 2]" in error.message
    events = tablerules.start_events(state, HOST, True)
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
        apply_all(state, tablerules.start_events(state, HOST, False))
        state.apply(tablerules.next_deal_event(state))
        assert state.deal is not None
        hands.add(tuple(state.deal.hands))
    assert len(hands) == 3  # the same seed, three different deals


def test_actions_are_checked_for_turn_and_legality_without_changing_the_state() -> None:
    state = started()
    deal = state.deal
    assert deal is not None
    on_turn = deal.to_move
    assert on_turn is not None  # the deal is not over
    other = (on_turn + 1) % 3
    before = len(deal.history)
    refused("not_your_turn", tablerules.action_event, state, other, {"action": "pass"}, "player")
    refused("bad_message", tablerules.action_event, state, on_turn, ["pass"], "player")
    refused("bad_action", tablerules.action_event, state, on_turn, {"action": "dance"}, "player")
    refused("illegal", tablerules.action_event, state, on_turn, {"action": "play", "card": "AS"}, "player")
    assert len(deal.history) == before
    move = action_to_json(RandomBot(random.Random(1)).act(deal.seat_view(on_turn)))
    move.pop("seat")
    event = tablerules.action_event(state, on_turn, move, "player")
    assert event["type"] == "action" and event["action"]["seat"] == on_turn


def test_no_action_is_taken_when_no_deal_is_in_progress() -> None:
    state = table()
    refused("no_deal", tablerules.action_event, state, 0, {"action": "pass"}, "player")


def test_chat_is_free_between_deals_and_phrases_only_during_one() -> None:
    state = table()
    assert tablerules.chat_event(state, None, "Spectator", "  Hi all  ", None)["text"] == "Hi all"
    playing = started()
    refused("chat_closed", tablerules.chat_event, playing, 0, "Host", "my hand is great", None)
    refused("bad_chat", tablerules.chat_event, playing, 0, "Host", None, "my_hand_is_great")
    assert tablerules.chat_event(playing, 0, "Host", None, "good_luck")["type"] == "chat"


def play_deal_out(state: TableState, seed: int = 1) -> None:
    """Random legal moves, every seat's, until the current deal is over."""
    rng = random.Random(seed)
    deal = state.deal
    assert deal is not None
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None  # the deal is not over
        move = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
        move.pop("seat")
        state.apply(tablerules.action_event(state, seat, move, "player"))


def test_the_next_deal_waits_for_every_person_present_and_not_for_bots_or_the_absent() -> None:
    state = table({"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "random"})
    state.apply(tablerules.join_event(state, HOST, "Host", 0, None))
    state.apply(tablerules.join_event(state, ANNA, "Anna", 1, None))
    apply_all(state, tablerules.start_events(state, HOST, False))
    state.apply(tablerules.next_deal_event(state))
    # during a deal nobody is asked, and "Next deal" is refused by its rule
    assert state.waiting_for_ready() == [] and tableviews.view(state, 0)["next_deal"] is None
    refused("not_between_deals", tablerules.ready_event, state, 0)
    play_deal_out(state)
    # the result waits for both people; the bot is ready at once
    assert state.ready_for_next and state.waiting_for_ready() == [0, 1]
    assert tableviews.view(state, None)["next_deal"] == {"ready": [], "waiting": [0, 1]}
    ready = tablerules.ready_event(state, 1)
    assert ready == {"type": "ready", "seat": 1}
    state.apply(ready)
    assert tablerules.ready_event(state, 1) is None  # said twice: nothing more to store
    assert state.waiting_for_ready() == [0]
    assert tableviews.view(state, 1)["next_deal"] == {"ready": [1], "waiting": [0]}
    # a player a bot plays for (gone, or out of time) is not waited for
    state.apply({"type": "away", "seat": 0, "away": True})
    assert state.waiting_for_ready() == []
    state.apply({"type": "away", "seat": 0, "away": False})
    assert state.waiting_for_ready() == [0]
    # the next deal starts everybody afresh; the readiness was rebuilt from the events alone
    state.apply(tablerules.next_deal_event(state))
    assert state.ready == set() and state.waiting_for_ready() == []
    refused("not_between_deals", tablerules.ready_event, state, 1)


def test_an_invited_seat_is_kept_for_its_friend_unless_the_host_seats_a_bot_there() -> None:
    state = table({"kind": "open"}, {"kind": "invite", "invite": "tok"}, {"kind": "open"})
    state.apply(tablerules.join_event(state, HOST, "Host", 0, None))
    before = copy.deepcopy(state)
    # "fill the empty seats with bots" fills open seats only: the invite seat stops the start
    error = refused("invite_pending", tablerules.start_events, state, HOST, True)
    assert error.params == {"seats": [1]}
    assert state == before
    state.apply(tablerules.add_bot_event(state, HOST, 1, "strong"))  # the host's explicit choice for that seat
    events = tablerules.start_events(state, HOST, True)
    assert [e["type"] for e in events] == ["bot", "start"] and events[0] == {"type": "bot", "seat": 2,
                                                                             "level": "heuristic",
                                                                             "player": "bot-heuristic"}
    # the friend who came is seated, and then the start needs nobody else
    invited = table({"kind": "open"}, {"kind": "invite", "invite": "tok"}, {"kind": "bot", "level": "random"})
    invited.apply(tablerules.join_event(invited, HOST, "Host", 0, None))
    invited.apply(tablerules.join_event(invited, ANNA, "Anna", 1, "tok"))
    assert [e["type"] for e in tablerules.start_events(invited, HOST, False)] == ["start"]


def test_bots_of_one_level_get_distinct_names_that_a_replay_gives_again() -> None:
    seats: list[SeatSpec] = [{"kind": "bot", "level": "strong"}, {"kind": "bot", "level": "strong"}, {"kind": "open"}]
    state = table(*seats)
    assert [s.name for s in state.seats[:2]] == ["Bot · strong", "Bot · strong 2"]
    other = table({"kind": "bot", "level": "heuristic"}, {"kind": "open"}, {"kind": "open"})
    other.apply(tablerules.add_bot_event(other, HOST, 1, "heuristic"))
    other.apply(tablerules.add_bot_event(other, HOST, 2, "heuristic"))
    names = [s.name for s in other.seats]
    assert names == ["Bot · heuristic", "Bot · heuristic 2", "Bot · heuristic 3"]
    replayed = table({"kind": "bot", "level": "heuristic"}, {"kind": "open"}, {"kind": "open"})
    apply_all(replayed, [{"type": "bot", "seat": 1, "level": "heuristic"},
                         {"type": "bot", "seat": 2, "level": "heuristic"}])
    assert [s.name for s in replayed.seats] == names
    # each bot plays under its own account: the id the new events carry, derived alike for older ones
    assert [s.player_id for s in other.seats] == ["bot-heuristic", "bot-heuristic-2", "bot-heuristic-3"]
    assert [s.player_id for s in replayed.seats] == ["bot-heuristic", "bot-heuristic-2", "bot-heuristic-3"]
    assert [s.player_id for s in state.seats[:2]] == ["bot-strong", "bot-strong-2"]
    two = table({"kind": "open"}, {"kind": "bot", "level": "heuristic"}, {"kind": "open"})
    two.apply(tablerules.join_event(two, HOST, "Host", 0, None))
    filled = [e for e in tablerules.start_events(two, HOST, True) if e["type"] == "bot"]
    assert [e.get("player") for e in filled] == ["bot-heuristic-2"]
    # a person may not sit under a bot's name
    refused("name_taken", tablerules.join_event, state, ANNA, "Bot · strong", 2, None)


def test_a_repeated_kontra_decline_before_trick_1_is_not_stored_but_a_first_one_is() -> None:
    # find a seeded deal whose play reaches a defender's first card with kontra on offer
    for seed in range(40):
        state = started()
        deal = state.deal
        assert deal is not None
        rng = random.Random(seed)
        while deal.to_move is not None and not deal.choices(deal.to_move).kontra_step:  # None: the deal is over
            seat = deal.to_move
            move = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
            move.pop("seat")
            state.apply(tablerules.action_event(state, seat, move, "player"))
        if deal.to_move is None:  # the deal is over
            continue
        seat = deal.to_move
        first = tablerules.action_event(state, seat, {"action": "kontra", "parts": []}, "player")
        assert not tablerules.repeats_a_decline(state, first)  # the first decline is recorded
        state.apply(first)
        again = tablerules.action_event(state, seat, {"action": "kontra", "parts": []}, "player")
        assert tablerules.repeats_a_decline(state, again)  # legal, changes nothing: the actor does not store it
        part = deal.choices(seat).kontra_parts[0]
        kontra = tablerules.action_event(state, seat, {"action": "kontra", "parts": [part.value]}, "player")
        assert not tablerules.repeats_a_decline(state, kontra)  # a kontra after a decline is a change
        return
    pytest.fail("no seed reached a kontra offer")


def _a_legal_move(state: TableState) -> tuple[int, dict[str, Any]]:
    deal = state.deal
    assert deal is not None
    seat = deal.to_move
    assert seat is not None  # the deal is not over
    move = action_to_json(RandomBot(random.Random(len(deal.history))).act(deal.seat_view(seat)))
    move.pop("seat")
    return seat, move


def test_an_accepted_action_is_applied_to_the_deal_once() -> None:
    state = started()
    deal = state.deal
    assert deal is not None
    for _ in range(12):  # the auction and the first cards: every kind of action a deal begins with
        seat, move = _a_legal_move(state)
        before = len(deal.history)
        event = tablerules.action_event(state, seat, move, "player")
        checked = state.checked
        assert checked is not None and checked.event is event and checked.before is deal
        assert len(deal.history) == before and len(checked.after.history) == before + 1  # applied to the copy
        state.apply(event)
        # checked once on a copy, kept: the deal took the copy's state (its very lists and its very action),
        # neither applying the action again nor parsing it back from the event's JSON
        assert state.deal is deal and len(deal.history) == before + 1
        assert deal.history is checked.after.history and deal.hands is checked.after.hands
        assert deal.history[-1] is checked.after.history[-1]
        assert action_to_json(deal.history[-1]) == event["action"]
    # the same events read back from a log (other objects) are each parsed and applied once
    replayed = table()
    replayed.apply(tablerules.join_event(replayed, HOST, "Host", 0, None))
    apply_all(replayed, tablerules.start_events(replayed, HOST, True))
    replayed.apply(tablerules.next_deal_event(replayed))
    source = replayed.deal
    assert source is not None
    for index in range(12):
        replayed.apply({"type": "action", "action": action_to_json(deal.history[index]), "by": "player"})
        assert len(source.history) == index + 1
    assert replayed.deal is source and source.history == deal.history
    # parsed from the events: equal actions, other objects
    assert all(a is not b for a, b in zip(source.history, deal.history, strict=True))
    assert tableviews.view(replayed, 0) == tableviews.view(state, 0)


def test_an_accepted_action_that_is_not_applied_changes_nothing() -> None:
    state = started()
    deal = state.deal
    assert deal is not None
    seat, move = _a_legal_move(state)
    seq, history = state.seq, list(deal.history)
    views = [tableviews.view(state, s) for s in (0, 1, 2, None)]
    event = tablerules.action_event(state, seat, move, "player")
    # not stored (say the store failed): the table is as it was, its deal too
    assert state.seq == seq and state.deal is deal and deal.history == history
    assert [tableviews.view(state, s) for s in (0, 1, 2, None)] == views
    # an event with the same content that is not the one checked (read back from the log) is parsed as usual
    state.apply({"type": "action", "action": dict(event["action"]), "by": "player"})
    assert state.deal is deal and deal.history[:-1] == history
    assert action_to_json(deal.history[-1]) == event["action"]


def test_a_player_acts_from_their_own_seat_and_a_spectator_not_at_all() -> None:
    state = started()
    assert tablerules.acting_seat(state, HOST) == 0
    refused("not_seated", tablerules.acting_seat, state, ANNA)


def test_a_bot_takes_an_absent_players_seat_only_in_a_match_under_way_and_once() -> None:
    before = table()
    before.apply(tablerules.join_event(before, HOST, "Host", 0, None))
    assert tablerules.gone_event(before, 0) is None  # no match yet: nothing to play for them
    state = started()
    gone = tablerules.gone_event(state, 0)
    assert gone == {"type": "away", "seat": 0, "away": True}
    state.apply(gone)
    assert tablerules.gone_event(state, 0) is None  # a bot plays the seat already


def test_a_player_gets_the_seat_back_unless_they_resigned() -> None:
    state = started()
    assert tablerules.back_event(state, 0) is None  # they never left
    state.apply({"type": "away", "seat": 0, "away": True})
    back = tablerules.back_event(state, 0)
    assert back == {"type": "away", "seat": 0, "away": False}
    resigned = started()
    resigned.apply(tablerules.resign_event(resigned, HOST))
    assert resigned.seats[0].away and tablerules.back_event(resigned, 0) is None


def test_seat_of_follows_every_event_that_seats_or_unseats_a_player() -> None:
    state = table()
    assert state.seat_of(ANNA) is None  # asked (and its answer kept) before anybody sits
    state.apply(tablerules.join_event(state, ANNA, "Anna", 1, None))
    assert state.seat_of(ANNA) == 1 and state.seat_of(BELA) is None
    state.apply(tablerules.leave_event(state, ANNA))
    assert state.seat_of(ANNA) is None
    state.apply(tablerules.join_event(state, BELA, "Bela", 1, None))
    state.apply(tablerules.join_event(state, ANNA, "Anna", 2, None))
    assert (state.seat_of(ANNA), state.seat_of(BELA)) == (2, 1)
