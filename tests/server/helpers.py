"""Helpers for server tests and load runs: seat three scripted players at one table."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx2

from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView


async def three_players(
    base_url: str | list[str],
    deals: int = 6,
    seed: int | None = None,
    *,
    start: bool = False,
    names: str = "Player",
    http_client: httpx2.AsyncClient | None = None,
    keep_messages: bool = True,
    events: str = "full",
    **config: Any,
) -> tuple[str, list[GameClient]]:
    """Create a table with three logged-in, connected players in seats 0, 1, 2 (started if ``start``).

    ``base_url`` may list one server per seat (several processes); player 0 creates the table.
    ``events`` is the event form the clients ask for (``GameClient``).
    """
    bases = base_url if isinstance(base_url, list) else [base_url] * 3
    clients = [GameClient(bases[i], http_client, keep_messages, events) for i in range(3)]
    for i, client in enumerate(clients):
        await client.login(f"{names} {i}")
    body: dict[str, Any] = {
        "deals": deals,
        "move_seconds": config.pop("move_seconds", 0),
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
        **config,
    }
    if seed is not None:
        body["seed"] = seed
    table = await clients[0].http("POST", "/api/tables", body)
    table_id = table["table_id"]
    for i in (1, 2):
        await clients[i].http("POST", f"/api/tables/{table_id}/join", {"seat": i})
    for client in clients:
        await client.connect()
        await client.open_table(table_id)
    if start:
        await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    return table_id, clients


async def guest(base_url: str, name: str) -> GameClient:
    """A client logged in as a guest called ``name`` (a session: it may create tables and ask for work)."""
    client = GameClient(base_url)
    await client.login(name)
    return client


async def until(condition: Any, timeout: float, what: str) -> None:
    """Wait until the async ``condition()`` holds, polling; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout} s: {what}")
        await asyncio.sleep(0.05)


def first_deal_done(client: GameClient) -> bool:
    """Whether the client's table has finished its first deal."""
    state = client.state
    return state is not None and state["match"] is not None and len(state["match"]["results"]) >= 1


async def play_first_deal_randomly(host: GameClient, seed: int) -> None:
    """``host``, seated at a table with bots, plays random legal moves until deal 0 is over."""
    rng = random.Random(seed)
    for _ in range(200):
        await host.wait_for(lambda: first_deal_done(host) or host.my_turn(), 20)
        if first_deal_done(host):
            break
        action = action_to_json(RandomBot(rng).act(SeatView.from_json(host.state["deal"])))  # type: ignore[index]
        action.pop("seat")
        await host.act(action)
    assert first_deal_done(host)
