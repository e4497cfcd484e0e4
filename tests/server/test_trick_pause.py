"""A bot never acts before the finished trick has been seen (docs/protocol/table.md §14, the trick pause).

A real server with a short bot pacing and a trick pause: a watcher times every card. A card a bot
leads after a trick was taken comes the trick pause and the pacing after the card that took it
(whatever kontra chain came between); every other bot card comes the pacing alone after the event
that began its turn. A seated player who asks for the slow pace (the ``pace`` message) makes the whole
table slower, and the view says so (``trick_pause``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from ulti.client import GameClient, ServerError, play_randomly
from ulti.server.actor import PACE_FACTORS

PAUSE = 0.6
PACING = 0.1


def bot_card_waits(client: GameClient) -> tuple[list[float], list[float]]:
    """For every card a bot played: its lead of a trick after the first, with the seconds since the card
    that completed the trick before (a kontra chain may come between); and every other card, with the
    seconds since the event before it."""
    after_trick: list[float] = []
    others: list[float] = []
    plays_in_deal = 0
    previous: float | None = None
    taken: float | None = None
    for message in client.received:
        if message.get("type") != "event":
            continue
        event = message["event"]
        if event["type"] == "deal":
            plays_in_deal = 0
        elif event["type"] == "action" and event["action"]["action"] == "play":
            lead = plays_in_deal > 0 and plays_in_deal % 3 == 0
            if event["by"] == "bot" and lead and taken is not None:
                after_trick.append(message["_t"] - taken)
            elif event["by"] == "bot" and previous is not None:
                others.append(message["_t"] - previous)
            plays_in_deal += 1
            if plays_in_deal % 3 == 0:
                taken = message["_t"]
        previous = message["_t"]
    return after_trick, others


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for it (Python 3.11's wait_for may swallow a cancellation: insist)."""
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=0.05)


async def start_server(server_factory: type[ServerProcess], tmp_path: Path) -> ServerProcess:
    srv = server_factory(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
        args=("--fast", "--bot-delay", str(PACING), "--trick-pause", str(PAUSE), "--between-deals", "0.5"),
    )
    srv.start(tmp_path / "server.log")
    return srv


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_a_bot_leads_only_after_the_trick_pause(server_factory: type[ServerProcess], tmp_path: Path) -> None:
    srv = await start_server(server_factory, tmp_path)
    watcher = GameClient(srv.base_url)
    await watcher.login("Watcher")
    seats = [{"kind": "bot", "level": "heuristic"}] * 3
    table_id = (await watcher.http("POST", "/api/tables", {"deals": 6, "seats": seats}))["table_id"]
    await watcher.connect()
    await watcher.open_table(table_id)
    await watcher.http("POST", f"/api/tables/{table_id}/start", {})
    await watcher.wait_for(lambda: len(bot_card_waits(watcher)[0]) >= 6, 60)
    assert watcher.state is not None and watcher.state["trick_pause"] == PAUSE  # nobody asked: "normal"
    after_trick, others = bot_card_waits(watcher)
    await watcher.close()
    assert len(after_trick) >= 4 and others, (after_trick, others)
    # every lead after a trick waited the pause and the pacing; no other card waited the pause
    assert min(after_trick) >= PAUSE + PACING - 0.01, sorted(after_trick)
    assert max(others) < PAUSE, sorted(others)


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_the_slowest_seated_players_pace_sets_the_trick_pause(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    srv = await start_server(server_factory, tmp_path)
    player = GameClient(srv.base_url)
    await player.login("Slow")
    seats: list[dict[str, Any]] = [{"kind": "me"}, {"kind": "bot", "level": "heuristic"},
                                   {"kind": "bot", "level": "heuristic"}]
    table_id = (await player.http("POST", "/api/tables", {"deals": 6, "seats": seats}))["table_id"]
    await player.connect()
    await player.open_table(table_id)
    # a value out of the three is refused, naming the field
    with pytest.raises(ServerError) as refused:
        await player.request({"type": "pace", "trick_pause": "glacial"})
    assert refused.value.code == "bad_message" and "trick_pause" in str(refused.value)
    ack = await player.request({"type": "pace", "trick_pause": "slow"})
    assert ack["type"] == "ack"
    await player.http("POST", f"/api/tables/{table_id}/start", {})
    slow = round(PAUSE * PACE_FACTORS["slow"], 3)
    await player.wait_for(lambda: bool(player.state and player.state.get("deal")), 10)
    assert player.state is not None and player.state["trick_pause"] == slow
    task = asyncio.create_task(play_randomly(player, 7, timeout=100))
    try:
        await player.wait_for(lambda: len(bot_card_waits(player)[0]) >= 3, 100)
    finally:
        await stop(task)
    after_trick, _ = bot_card_waits(player)
    await player.close()
    assert min(after_trick) >= slow + PACING - 0.01, sorted(after_trick)
