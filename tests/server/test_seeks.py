"""Seeks pair people into tables; the lobby counts who is online and playing; humanless tables leave the list."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.server.botapi_helpers import Reader, new_account
from tests.server.conftest import ServerProcess
from tests.server.test_botapi import host_table
from ulti.bots.ladder_ratings import OFFERED_LEVELS
from ulti.client import GameClient, ServerError
from ulti.server.lobby import has_people
from ulti.server.seeks import Seek, check_seek, pair
from ulti.server.tablestate import CommandError

ME = {"kind": "me"}
BOT = {"kind": "bot", "level": "random"}


def seek(player: str, since: float, wait: int = 30, deals: int = 6) -> Seek:
    return Seek(player, player.title(), deals, wait, since, f"tok-{player}")


def test_three_seekers_of_one_length_sit_together_at_once() -> None:
    seeks = [seek("a", 100), seek("b", 101), seek("c", 102), seek("d", 103)]
    groups = pair(seeks, now=104)
    assert [[s.player_id for s in g] for g in groups] == [["a", "b", "c"]]  # d waits for more people


def test_fewer_seekers_sit_together_when_the_first_wait_is_up() -> None:
    seeks = [seek("a", 100, wait=60), seek("b", 110, wait=10)]
    assert pair(seeks, now=115) == []
    groups = pair(seeks, now=120)  # b's wait is up: a and b sit with a bot
    assert [[s.player_id for s in g] for g in groups] == [["a", "b"]]


def test_seekers_of_other_match_lengths_are_not_paired() -> None:
    seeks = [seek("a", 100, wait=10, deals=6), seek("b", 100, wait=10, deals=9)]
    groups = pair(seeks, now=111)
    assert sorted([s.player_id for s in g] for g in groups) == [["a"], ["b"]]


def test_a_lone_seeker_gets_bots_when_the_wait_is_up() -> None:
    assert pair([seek("a", 100, wait=10)], now=109) == []
    assert [[s.player_id for s in g] for g in pair([seek("a", 100, wait=10)], now=110)] == [["a"]]


def test_a_bad_seek_is_refused_naming_the_field() -> None:
    with pytest.raises(CommandError) as error:
        check_seek(7, 30)
    assert error.value.code == "bad_seek" and "deals" in str(error.value)
    with pytest.raises(CommandError) as error:
        check_seek(6, 5)
    assert error.value.code == "bad_seek" and "wait" in str(error.value)


def test_a_match_only_bots_are_left_at_is_kept_out_of_the_list() -> None:
    person = {"kind": "player", "name": "A", "away": False}
    left = {"kind": "player", "name": "B", "away": True}
    bot = {"kind": "bot", "name": "Bot", "away": False}
    bot_account = {"kind": "player", "name": "Robo", "away": False, "bot": True}
    assert has_people({"status": "playing", "seats": [person, bot, bot]})
    assert not has_people({"status": "playing", "seats": [left, bot, bot]})
    assert not has_people({"status": "playing", "seats": [bot_account, bot, left]})
    # a table not started yet stays listed: people may sit down
    assert has_people({"status": "open", "seats": [bot, {"kind": "open", "away": False}, bot]})


async def connected(srv: ServerProcess, name: str) -> GameClient:
    client = GameClient(srv.base_url)
    await client.login(name)
    await client.connect()
    await client.send({"type": "watch_lobby"})
    await client.wait_for(lambda: any(m["type"] == "lobby" for m in client.received), 5)
    return client


def people(client: GameClient) -> dict[str, Any]:
    """The newest counts and seeks the client was told of."""
    for message in reversed(client.received):
        if message["type"] == "lobby_people":
            return {k: v for k, v in message.items() if k != "type"}
        if message["type"] == "lobby":
            return dict(message["people"])
    raise AssertionError("no lobby message")


@pytest.mark.asyncio
async def test_a_seek_pairs_two_people_into_one_table_with_a_bot(server: ServerProcess) -> None:
    ann, bob = await connected(server, "Ann"), await connected(server, "Bob")
    try:
        await ann.request({"type": "seek", "deals": 6, "wait": 10})
        # every lobby watcher sees the seek
        await bob.wait_for(lambda: [s["name"] for s in people(bob)["seeks"]] == ["Ann"], 5)
        started = time.monotonic()
        await bob.request({"type": "seek", "deals": 6, "wait": 30})
        told = [await c.wait_for_message(lambda m: m["type"] == "seek_paired", 20) for c in (ann, bob)]
        # paired when Ann's wait (the earlier one) was up, not Bob's
        assert time.monotonic() - started < 15
        assert told[0]["table"] == told[1]["table"]
        view = await ann.http("GET", f"/api/tables/{told[0]['table']}")
        seats = view["table"]["seats"]
        assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"] and seats[2]["kind"] == "bot"
        # two newcomers: the bot is the ladder's lowest rung (bot_choice), not a level no person is offered
        assert seats[2]["level"] == OFFERED_LEVELS[0]
        assert view["table"]["status"] == "playing" and view["table"]["deals_planned"] == 6
        # the seeks are gone from the lobby
        await ann.wait_for(lambda: people(ann)["seeks"] == [], 5)
    finally:
        await ann.close()
        await bob.close()


@pytest.mark.asyncio
async def test_three_seekers_sit_at_once_and_a_cancelled_or_closed_seek_goes(server: ServerProcess) -> None:
    ann, bob, cid, dan = [await connected(server, n) for n in ("Ann", "Bob", "Cid", "Dan")]
    try:
        await dan.request({"type": "seek", "deals": 6, "wait": 120})
        await dan.request({"type": "unseek"})  # Dan changes his mind
        await ann.request({"type": "seek", "deals": 6, "wait": 120})
        await bob.request({"type": "seek", "deals": 6, "wait": 120})
        await cid.request({"type": "seek", "deals": 6, "wait": 120})
        told = [await c.wait_for_message(lambda m: m["type"] == "seek_paired", 5) for c in (ann, bob, cid)]
        assert len({m["table"] for m in told}) == 1
        view = await ann.http("GET", f"/api/tables/{told[0]['table']}")
        assert sorted(s["name"] for s in view["table"]["seats"]) == ["Ann", "Bob", "Cid"]
        assert not any(m["type"] == "seek_paired" for m in dan.received)
        # a seek lasts as long as its connection
        await dan.request({"type": "seek", "deals": 9, "wait": 120})
        await ann.wait_for(lambda: [s["name"] for s in people(ann)["seeks"]] == ["Dan"], 5)
        await dan.close()
        await ann.wait_for(lambda: people(ann)["seeks"] == [], 5)
    finally:
        for c in (ann, bob, cid):
            await c.close()


@pytest.mark.asyncio
async def test_a_bad_seek_is_refused_over_the_socket(server: ServerProcess) -> None:
    ann = await connected(server, "Ann")
    try:
        with pytest.raises(ServerError) as error:
            await ann.request({"type": "seek", "deals": 6, "wait": 3})
        assert error.value.code == "bad_seek"
        with pytest.raises(ServerError) as error:
            await ann.request({"type": "seek", "deals": "6", "wait": 10})
        assert error.value.code == "bad_seek"
    finally:
        await ann.close()


@pytest.mark.asyncio
async def test_the_lobby_counts_people_online_and_playing(server: ServerProcess) -> None:
    ann = await connected(server, "Ann")
    bob = GameClient(server.base_url)
    try:
        assert people(ann)["online"] == 1 and people(ann)["playing"] == 0
        await bob.login("Bob")
        table = await bob.http("POST", "/api/tables", {"deals": 6, "seats": [ME, BOT, BOT]})
        await bob.http("POST", f"/api/tables/{table['table_id']}/start", {"fill_bots": True})
        await bob.connect()
        await bob.open_table(table["table_id"])
        await ann.wait_for(lambda: people(ann)["online"] == 2 and people(ann)["playing"] == 1, 5)
        await bob.close()
        await ann.wait_for(lambda: people(ann)["online"] == 1 and people(ann)["playing"] == 0, 5)
    finally:
        await ann.close()


@pytest.mark.asyncio
async def test_a_table_everyone_left_leaves_the_lobby_list(server: ServerProcess) -> None:
    bob = GameClient(server.base_url)
    await bob.login("Bob")
    table = await bob.http("POST", "/api/tables", {"deals": 6, "seats": [ME, BOT, BOT], "move_seconds": 30})
    await bob.http("POST", f"/api/tables/{table['table_id']}/start", {"fill_bots": True})
    await bob.connect()
    await bob.open_table(table["table_id"])
    ann = await connected(server, "Ann")
    try:
        listed = await ann.http("GET", "/api/tables")
        assert [t["table_id"] for t in listed["tables"]] == [table["table_id"]]
        await bob.close()  # Bob goes; at a table with a time limit a bot plays his seat after the grace
        await ann.wait_for(lambda: any(
            m["type"] == "lobby_update" and table["table_id"] in m["removed"] for m in ann.received), 30)
        assert (await ann.http("GET", "/api/tables"))["tables"] == []
    finally:
        await ann.close()
        await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_a_bot_programs_table_stream_is_not_counted_as_a_person(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Counted Robo")
    host, table = await host_table(server.base_url, [ME, {"kind": "open"}, BOT])
    async with bot.api(server.base_url) as api:
        assert (await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})).json() == {"seat": 1}
        stream = Reader(api, f"/api/bot/tables/{table}/stream").start()
        await stream.wait_for(lambda r: len(r.messages) >= 1)
        ann = await connected(server, "Ann")
        try:
            # the host and Ann are people online; the bot's program streaming its table is not
            await ann.wait_for(lambda: people(ann)["online"] == 2, 5)
            await asyncio.sleep(2.5)  # a few ticks later, still two
            assert people(ann)["online"] == 2
        finally:
            await stream.stop()
            await ann.close()
            await host.close()
