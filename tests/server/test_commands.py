"""Table commands: a closed set of typed values, one JSON form for the hop between processes, and a
game action read once where it arrives (a malformed one refused by the table as before)."""

from __future__ import annotations

import typing

import orjson
import pytest

from tests.server.test_actor import RecordingHost, create, new_actor
from tests.support.memory_log import MemoryTableLog
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import parse_card
from ulti.server import tablerules
from ulti.server.commands import (
    AddBot,
    Back,
    Command,
    Join,
    Leave,
    Left,
    LetBot,
    MalformedAction,
    Play,
    Ready,
    Rematch,
    RematchJoin,
    Resign,
    Say,
    SetPace,
    Start,
    StorePar,
    command_from_json,
    command_name,
    command_to_json,
    read_action,
)
from ulti.server.errors import CommandError
from ulti.server.events import Par as ParEvent
from ulti.server.messages import Act, parse_client_message
from ulti.server.tablestate import TableState

PAR_EVENT: ParEvent = {"type": "par", "index": 0, "seat": 1, "level": "strong", "record": {"format": "ulti-deal/1"},
                       "scores": [4, -2, -2], "bid": "passz", "declarer": 1}

EXAMPLES: list[Command] = [
    Join("p1", "Anna", 2, "tok", account=True, via_event=True, bot=False),
    Join("p1", "Anna", "2"),  # a seat as the client sent it: the table refuses it, not the hop
    Leave("p1"),
    AddBot("p1", 1, "strong"),
    Start("p1", fill_bots=True, level="strong"),
    Play("p1", read_action({"action": "play", "card": "AS"}), "p1:c1"),
    Play("p1", read_action({"action": "bid", "bid": "m-s", "discard": ["7c", "jd"]}), "p1:c2"),
    Play("p1", read_action({"action": "kontra", "parts": ["ulti"]}), None),
    Play("p1", read_action({"action": "play", "card": "ZZ"}), "p1:c3"),
    Play("p1", read_action({"action": "fly"}), "p1:c4"),
    Say("p1", "Anna", "hello", None, "p1:c5"),
    Say("p1", "Anna", None, "hello", None),
    Back("p1"),
    Ready("p1", "p1:c6"),
    Left("p1"),
    Resign("p1"),
    Rematch("p1", "Anna", account=True),
    RematchJoin("p1", "Anna", "old-table", 2, account=False),
    SetPace("p1", "slow"),
    LetBot("p1", 0),
    StorePar(0, PAR_EVENT),
]


@pytest.mark.parametrize("command", EXAMPLES, ids=lambda c: command_name(c))
def test_every_command_round_trips_through_its_json_form(command: Command) -> None:
    wire = orjson.loads(orjson.dumps(command_to_json(command)))  # as it crosses Redis
    assert command_from_json(wire) == command


def test_every_kind_of_command_has_a_round_trip_example() -> None:
    kinds = set(typing.get_args(Command))
    assert {type(c) for c in EXAMPLES} == kinds
    assert len({command_name(c) for c in EXAMPLES}) == len(kinds)  # one name per kind


def test_an_act_message_holds_the_engines_action() -> None:
    message = parse_client_message({"type": "act", "id": "c", "action": {"action": "play", "card": "AS", "seat": 2}})
    assert isinstance(message, Act)
    # read into the engine's type at the edge; the seat is the table's to set, whatever the client named
    assert message.action == Action(0, Kind.PLAY, card=parse_card("AS"))


@pytest.mark.parametrize(
    ("payload", "code", "play"),
    [
        ({"action": "fly"}, "bad_action", False),
        ({"action": "play", "card": "ZZ"}, "bad_action", True),
        ({"action": "bid", "bid": "nonsense"}, "bad_action", False),
        (["pass"], "bad_message", False),
    ],
)
def test_a_malformed_action_is_kept_for_the_table_to_refuse(payload: object, code: str, play: bool) -> None:
    read = read_action(payload)
    assert isinstance(read, MalformedAction) and read.code == code and read.play is play


def test_a_malformed_action_is_refused_with_todays_code_and_message() -> None:
    state = TableState("t")
    state.apply({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 5, "chosen_seed": True,
                 "practice": True, "host_name": "H",
                 "seats": [{"kind": "open"}, {"kind": "bot", "level": "random", "player": "bot:a"},
                           {"kind": "bot", "level": "random", "player": "bot:b"}]})
    state.apply({"type": "sit", "seat": 0, "player": "h", "name": "H"})
    for event in tablerules.start_events(state, "h", fill_bots=False):
        state.apply(event)
    state.apply(tablerules.next_deal_event(state))
    deal = state.deal
    assert deal is not None and deal.to_move is not None
    on_turn = state.table_seat(deal.to_move)
    with pytest.raises(CommandError) as refused:
        tablerules.action_event(state, on_turn, read_action({"action": "dance"}), "player")
    assert refused.value.code == "bad_action" and refused.value.message == "unknown action kind 'dance'"


@pytest.mark.asyncio
async def test_a_command_id_the_table_carried_out_is_answered_without_running_again() -> None:
    store = MemoryTableLog()
    actor = new_actor(store, RecordingHost(store))
    await create(actor, [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])
    # one check for every command with an id (act, chat, ready): a chat line between deals here
    first = await actor.say(None, "Watcher", "hello", None, command_id="w:c1")
    runs: list[int] = []

    async def must_not_run() -> int:
        runs.append(1)
        return -1

    assert await actor.run(must_not_run, "w:c1") == first and runs == []
    again = await actor.say(None, "Watcher", "hello", None, command_id="w:c1")
    assert again == first and [e.get("cid") for e in await store.events("t1")].count("w:c1") == 1
    assert await actor.run(must_not_run, "w:c2") == -1 and runs == [1]  # a new id runs
