"""Nothing is done in a player's name unseen (docs/protocol/table.md §14, a table without a time limit).

A disconnected player's seat waits: the others are told whom they wait for and from when they may let
a bot play; a bot plays only once every other person there has agreed. What it played is marked as the
bot's in the views, the deal record and the match record (which still score), and the returning player
is shown it until they act themselves.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from tests.server.test_absence import away_events, bot_moves_for, events, no_traceback, playing
from tests.server.test_actor import HOST, RecordingHost, create, new_actor, start, stop
from ulti.client import GameClient, ServerError
from ulti.engine.record import action_to_json, score_record
from ulti.server import tablerules, tableviews
from ulti.server.events import Event, parse_event
from ulti.server.tablebots import bot_action
from ulti.server.tablestate import TableState
from ulti.store.eventstore import EventStore

LET_BOT_AFTER = 3.0


def waiting_of(client: GameClient) -> list[dict[str, Any]]:
    """The latest ``waiting`` list the client was told (a ``waiting`` message, or its view's)."""
    for message in reversed(client.received):
        if message["type"] == "waiting":
            return list(message["waiting"])
        if message["type"] in ("sync", "event") and "state" in message:
            return list(message["state"].get("waiting", []))
    return []


@pytest.mark.asyncio
@pytest.mark.timeout(180)
async def test_an_absent_players_seat_waits_until_the_others_agree_to_let_a_bot_play(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    srv = server_factory(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--fast", "--let-bot-after", str(LET_BOT_AFTER))
    )
    srv.start(tmp_path / "server.log")
    table_id, clients = await three_players(srv.base_url, deals=6, seed=35)
    leaver, others = clients[0], clients[1:]
    await leaver.http("POST", f"/api/tables/{table_id}/start", {})
    async with playing(*others):
        await leaver.wait_for(leaver.my_turn, 20)
        gone = time.time()
        await leaver.close()
        # the others are told whom they wait for, since when, and from when they may let a bot play
        for client in others:
            await client.wait_for(lambda c=client: bool(waiting_of(c)), 5)
            [waited] = waiting_of(client)
            assert waited["seat"] == 0 and waited["agreed"] == []
            assert abs(waited["since"] - gone) < 1.0
            assert waited["bot_from"] == pytest.approx(waited["since"] + LET_BOT_AFTER, abs=0.01)
        view = await others[0].http("GET", f"/api/tables/{table_id}")
        assert [w["seat"] for w in view["waiting"]] == [0]
        # well past the grace period (1 s with --fast), nothing is played for the absent player
        await asyncio.sleep(1.5)
        with pytest.raises(ServerError) as early:
            await others[0].request({"type": "let_bot", "seat": 0})
        assert early.value.code == "wait_longer" and early.value.params["retry_after"] >= 1
        for client, seat in ((others[0], 1), (others[0], 2)):
            with pytest.raises(ServerError) as wrong:
                await client.request({"type": "let_bot", "seat": seat})  # one's own seat, or a present player
            assert wrong.value.code == "not_waiting"
        bot_from = waiting_of(others[0])[0]["bot_from"]
        await asyncio.sleep(max(0.0, bot_from - time.time()) + 0.1)
        for client in others:
            assert not away_events(client, 0, True) and not bot_moves_for(client, 0)
        # one agrees: still waiting (for the other's agreement)
        await others[0].request({"type": "let_bot", "seat": 0})
        await others[1].wait_for(lambda: bool(waiting_of(others[1])) and waiting_of(others[1])[0]["agreed"] == [1], 5)
        await asyncio.sleep(0.3)
        assert not away_events(others[1], 0, True)
        # both agree: the seat is away and a bot plays for it, its actions marked as the bot's
        await others[1].request({"type": "let_bot", "seat": 0})
        for client in others:
            await client.wait_for(lambda c=client: bool(bot_moves_for(c, 0)), 10)
            assert waiting_of(client) == []
        first = bot_moves_for(others[0], 0)[0]
        index = first["state"]["deal_index"]
        marked = first["state"]["bot_played"]
        assert marked and first["state"]["deal"]["log"][marked[-1]]["seat"] == 0
        # a deal a bot played in: its record marks those actions, and it still scores
        await others[0].wait_for(lambda: len(others[0].state["match"]["results"]) > index, 60)  # type: ignore[index]
        record = await others[0].http("GET", f"/api/tables/{table_id}/deals/{index}/record")
        by_bot = [i for i, a in enumerate(record["actions"]) if a.get("by") == "bot"]
        assert by_bot and all(record["actions"][i]["seat"] == 0 for i in by_bot)
        match = await others[0].http("GET", f"/api/tables/{table_id}/record")
        assert [i for i, a in enumerate(match["deals"][index]["actions"]) if a.get("by") == "bot"] == by_bot
        assert len(score_record(match)["totals"]) == 3  # the marked record still scores
        # the player comes back: told what was played in their name, until they act themselves
        back = GameClient(srv.base_url)
        back.token, back.player_id = leaver.token, leaver.player_id
        await back.connect()
        await back.open_table(table_id)
        assert back.state is not None and back.state["table"]["seats"][0]["away"] is False
        told = back.state["played_for_you"]
        assert told and all(item["action"]["seat"] == 0 for item in told)
        assert {item["deal"] for item in told} >= {index}
        for client in others:
            assert "played_for_you" not in (client.state or {})  # only the seat itself is told
        await back.wait_for(back.my_turn, 30)
        await back.act(back.random_action(1))
        assert "played_for_you" not in (back.state or {})
    for client in (*others, back):
        await client.close()
    assert not [m for m in events(others[0], "action") if m["event"]["by"] == "bot" and m["seq"] < first["seq"]
                and m["event"]["action"]["seat"] == 0]
    no_traceback(srv)


def test_the_bots_marks_come_back_from_the_stored_events() -> None:
    """The marks are read from the stored action events (``"by": "bot"``): a table rebuilt from its log
    (a restart, another process) marks the same actions and tells the same player."""
    state = TableState("t35")
    stored: list[Event] = []

    def store(event: Event) -> None:
        stored.append(event)
        state.apply(event)

    store({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 35, "chosen_seed": True,
           "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]})
    store({"type": "sit", "seat": 0, "player": "h", "name": "Anna"})
    store({"type": "sit", "seat": 1, "player": "p1", "name": "Bea"})
    for begun in tablerules.start_events(state, "h", False):
        store(begun)
    store(tablerules.next_deal_event(state))
    marked: list[int] = []
    while len(marked) < 2:
        deal = state.deal
        assert deal is not None
        seat = deal.to_move
        assert seat is not None  # the deal is not over
        payload = action_to_json(bot_action("random", deal.seat_view(seat), f"x{len(deal.history)}"))
        payload.pop("seat")
        by: Literal["player", "bot"] = "bot" if seat == 0 else "player"  # a bot plays for Anna, who is away
        if by == "bot":
            marked.append(len(deal.history))
        store(tablerules.action_event(state, seat, payload, by))
    rebuilt = TableState("t35")
    for raw in stored:
        rebuilt.apply(parse_event(dict(raw)))
    for table in (state, rebuilt):
        assert tableviews.view(table, None)["bot_played"] == marked
        told = tableviews.view(table, 0)["played_for_you"]
        assert [item["deal"] for item in told] == [0, 0] and all(item["action"]["seat"] == 0 for item in told)
        assert "played_for_you" not in tableviews.view(table, 1)
        assert "played_for_you" not in tableviews.view(table, None)
    # Anna acts herself: she has seen the table again, and is not told any more
    while True:
        deal = rebuilt.deal
        assert deal is not None
        if deal.to_move == 0:
            payload = action_to_json(bot_action("random", deal.seat_view(0), "own"))
            payload.pop("seat")
            rebuilt.apply(tablerules.action_event(rebuilt, 0, payload, "player"))
            break
        seat = deal.to_move
        assert seat is not None  # the deal is not over
        payload = action_to_json(bot_action("random", deal.seat_view(seat), f"y{len(deal.history)}"))
        payload.pop("seat")
        rebuilt.apply(tablerules.action_event(rebuilt, seat, payload, "player"))
    assert "played_for_you" not in tableviews.view(rebuilt, 0)
    assert tableviews.view(rebuilt, None)["bot_played"] == marked  # the marks stay in the log


@pytest.mark.asyncio
async def test_when_the_last_person_yet_to_agree_leaves_the_agreement_is_whole(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    actor.settings.let_bot_after = 0.0  # the agreement may be given at once
    await create(actor, [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])
    for seat, player in enumerate((HOST, "p1", "p2")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(tablerules.join_event(actor.state, player, f"Player {seat}", seat, None))

        await actor.run(sit)
    await start(actor)
    for seat in range(3):
        await actor.back(seat)
    actor.player_left(0)
    assert [w["seat"] for w in actor.waiting] == [0]
    await actor.let_bot(1, 0)  # seat 2 has not agreed: the seat still waits
    assert actor.waiting[0]["agreed"] == [1] and not actor.state.seats[0].away
    actor.player_left(2)  # the one who had not agreed leaves: everybody left here has agreed
    for _ in range(100):
        if actor.state.seats[0].away:
            break
        await asyncio.sleep(0.01)
    assert actor.state.seats[0].away and [w["seat"] for w in actor.waiting] == [2]  # now seat 2 is waited for
    assert {"type": "away", "seat": 0, "away": True} in [e for _, e in host.committed]
    await stop(actor, host)
