"""Time and absence: move timers mark a seat away and a bot plays for it; at a table with a time limit
disconnected players are replaced after the grace period and come back with a full sync; every such
match finishes. (A table without a time limit waits for its absent players: test_away_seat.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.client import GameClient, play_randomly


def events(client: GameClient, kind: str) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "event" and m["event"]["type"] == kind]


def away_events(client: GameClient, seat: int, away: bool) -> list[dict[str, Any]]:
    return [m for m in events(client, "away") if m["event"] == {"type": "away", "seat": seat, "away": away}]


def bot_moves_for(client: GameClient, seat: int) -> list[dict[str, Any]]:
    return [m for m in events(client, "action") if m["event"]["by"] == "bot" and m["event"]["action"]["seat"] == seat]


def is_away(client: GameClient, seat: int) -> bool:
    return bool(client.state and client.state["table"]["seats"][seat]["away"])


async def random_move(client: GameClient) -> dict[str, Any]:
    return await client.act(client.random_action())


@contextlib.asynccontextmanager
async def playing(*clients: GameClient) -> AsyncIterator[None]:
    """The clients play random legal moves in the background while the block runs."""
    tasks = [asyncio.create_task(play_randomly(c, 900 + i, timeout=120)) for i, c in enumerate(clients)]
    try:
        yield
    finally:
        for task in tasks:
            # Python 3.11's asyncio.wait_for may swallow a cancellation that races a result: insist
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=0.05)
        for task in tasks:
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]


def no_traceback(srv: ServerProcess) -> None:
    assert srv.log_path is not None
    text = srv.log_path.read_text()
    assert "Traceback" not in text, text[-3000:]


@pytest.mark.asyncio
async def test_a_seat_that_lets_its_time_run_out_is_away_until_it_acts_or_opens_the_table(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    # bots wait a little, so that the away player can act on its own turn before the bot does
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--fast", "--bot-delay", "0.4"))
    srv.start(tmp_path / "server.log")
    table_id, clients = await three_players(srv.base_url, deals=6, seed=31, move_seconds=1)
    idle = clients[0]
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    async with playing(clients[1], clients[2]):
        # seat 0 does nothing: when its turn comes a deadline is shown, and a second later it is away
        print("T start", time.monotonic())
        await idle.wait_for(idle.my_turn, 20)
        assert idle.state is not None
        turn_seen = idle.received[-1]["_t"]
        deadline = idle.state["deadline"]
        assert deadline is not None and 0 < deadline - time.time() <= 1.05
        await idle.wait_for(lambda: is_away(idle, 0), 5)
        away_at = away_events(idle, 0, True)[0]["_t"]
        assert away_at - turn_seen >= 0.9
        # everybody sees the seat away and the bot play for it
        for client in clients:
            await client.wait_for(lambda c=client: bool(bot_moves_for(c, 0)), 10)
            assert away_events(client, 0, True)
            assert client.state is not None and client.state["table"]["seats"][0]["away"] is True
        lobby = await clients[1].http("GET", "/api/tables")
        assert lobby["tables"][0]["seats"][0]["away"] is True
        # the player acts on its own turn (before the bot's delay is over): it is back
        await idle.wait_for(idle.my_turn, 20)
        ack = await random_move(idle)
        assert ack["type"] == "ack"
        for client in clients:
            await client.wait_for(lambda c=client: c.seq >= ack["seq"], 5)
            assert not is_away(client, 0)
            assert away_events(client, 0, False)
        mine = [m for m in events(idle, "action") if m["seq"] == ack["seq"]]
        assert mine[0]["event"]["by"] == "player" and mine[0]["event"]["action"]["seat"] == 0
        # idle again: away again on its next turn; opening the table again brings it back
        await idle.wait_for(lambda: len(away_events(idle, 0, True)) == 2, 30)
        await idle.open_table(table_id)
        assert idle.state is not None and idle.state["table"]["seats"][0]["away"] is False
        for client in clients[1:]:
            await client.wait_for(lambda c=client: len(away_events(c, 0, False)) == 2, 5)
            await client.wait_for(lambda c=client: not is_away(c, 0), 5)
        # the "back" command does the same, and needs no away state
        await idle.wait_for(lambda: is_away(idle, 0), 30)
        back = await idle.request({"type": "back"})
        assert back["type"] == "ack"
        await idle.wait_for(lambda: not is_away(idle, 0), 5)
    for client in clients:
        await client.close()
    no_traceback(srv)


@pytest.mark.asyncio
async def test_a_disconnected_player_is_replaced_after_the_grace_period_and_resyncs(server: ServerProcess) -> None:
    # a table with a time limit: a bot plays for an absent player after the grace period (one without a
    # limit waits for them: test_away_seat.py)
    table_id, clients = await three_players(server.base_url, deals=6, seed=41, move_seconds=30)
    leaver, others = clients[0], clients[1:]
    await leaver.http("POST", f"/api/tables/{table_id}/start", {})
    async with playing(*others):
        # seat 0 plays a few moves, then its connection drops
        for _ in range(3):
            await leaver.wait_for(leaver.my_turn, 20)
            await random_move(leaver)
        await leaver.close()
        for client in others:
            await client.wait_for(
                lambda c=client: any(m == {"type": "presence", "seat": 0, "connected": False, "_t": m["_t"]}
                                     for m in c.received), 5)
        gone_at = next(m["_t"] for m in others[0].received if m["type"] == "presence" and not m["connected"])
        view = await others[0].http("GET", f"/api/tables/{table_id}")
        assert view["table"]["seats"][0]["connected"] is False
        # after the grace period (1 s) the seat is away and a bot plays for it
        for client in others:
            await client.wait_for(lambda c=client: bool(bot_moves_for(c, 0)), 15)
        assert away_events(others[0], 0, True)[0]["_t"] - gone_at >= 0.9
        # the player comes back on a new connection: a full sync, its seat and hand, and play goes on
        back = GameClient(server.base_url)
        back.token, back.player_id = leaver.token, leaver.player_id
        await back.connect()
        await back.open_table(table_id)
        await back.wait_for(lambda: any(m["type"] == "sync" for m in back.received), 5)
        sync = next(m for m in back.received if m["type"] == "sync")
        state = sync["state"]
        assert sync["seq"] == state["seq"] >= others[0].seq - 1
        assert state["you"] == 0 and state["table"]["seats"][0]["away"] is False
        assert state["table"]["seats"][0]["connected"] is True
        assert state["match"]["deals_planned"] == 6 and state["deal"] is not None
        assert set(state["deal"]["hands"]) == {"0"} or state["deal"]["phase"] == "done"
        assert state["deal"]["log"] or state["deal_index"] > 0
        for client in others:
            await client.wait_for(lambda c=client: not is_away(c, 0), 5)
            await client.wait_for(lambda c=client: any(
                m["type"] == "presence" and m["seat"] == 0 and m["connected"] for m in c.received), 5)
        moves_before = len([m for m in events(back, "action") if m["event"]["by"] == "player"])
        await asyncio.wait_for(play_randomly(back, 4, timeout=120), 120)
        assert len([m for m in events(back, "action") if m["event"]["by"] == "player"]) > moves_before
        returned = away_events(back, 0, False)[0]["seq"]
        assert not [m for m in bot_moves_for(back, 0) if m["seq"] > returned]  # no bot plays for it any more
    for client in (*clients, back):
        if client is not leaver:
            await client.wait_for(client.match_over, 10)
        await client.close()
    no_traceback(server)


@pytest.mark.asyncio
async def test_a_browser_refresh_puts_the_player_back_in_its_seat(server: ServerProcess) -> None:
    table_id, clients = await three_players(server.base_url, deals=6, seed=43)
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    first = clients[0]
    async with playing(clients[1], clients[2]):
        await first.wait_for(first.my_turn, 20)
        # refresh: the old page's socket closes, the new page opens one with the same token at once
        await first.close()
        page = GameClient(server.base_url)
        page.token, page.player_id = first.token, first.player_id
        await page.connect()
        await page.open_table(table_id)
        assert page.state is not None and page.state["you"] == 0 and page.my_turn()
        await random_move(page)
        # a second tab: closing one of two connections is no absence
        tab = GameClient(server.base_url)
        tab.token, tab.player_id = first.token, first.player_id
        await tab.connect()
        await tab.open_table(table_id)
        await tab.close()
        await asyncio.sleep(1.3)  # longer than the grace period: the seat must not go away
        await asyncio.wait_for(play_randomly(page, 8, timeout=120), 120)
    for client in clients[1:]:
        await client.wait_for(client.match_over, 10)
        assert not away_events(client, 0, True)
        assert not bot_moves_for(client, 0)
    assert page.match_over()
    for client in (*clients, page):
        await client.close()
    no_traceback(server)


@pytest.mark.asyncio
async def test_a_match_whose_players_all_leave_still_finishes(server: ServerProcess) -> None:
    # with a time limit, bots finish the match of players who all left (without one, the table waits)
    table_id, clients = await three_players(server.base_url, deals=6, seed=47, move_seconds=30)
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    for client in clients:
        await client.close()
    deadline = time.monotonic() + 60
    while True:
        view = await clients[1].http("GET", f"/api/tables/{table_id}")
        if view["match"]["winner"] is not None:
            break
        assert time.monotonic() < deadline, "the match did not finish"
        await asyncio.sleep(0.2)
    assert view["table"]["status"] == "finished"
    assert view["match"]["deals_played"] >= 6
    assert all(seat["away"] for seat in view["table"]["seats"])
    record = await clients[2].http("GET", f"/api/tables/{table_id}/record")
    assert len(record["deals"]) == view["match"]["deals_played"]
    past = await clients[0].http("GET", "/api/me/matches")
    assert past["matches"][0]["status"] == "finished"
    no_traceback(server)
