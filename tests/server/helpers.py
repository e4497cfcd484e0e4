"""Helpers for server tests and load runs: seat three scripted players at one table."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from fastapi import FastAPI
from starlette.routing import BaseRoute

from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.seating import three_players as three_players


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


def every_route(app: FastAPI) -> list[BaseRoute]:
    """Every route of ``app``, included routers' routes among them (FastAPI keeps those in a wrapper)."""
    found: list[BaseRoute] = []

    def walk(routes: list[BaseRoute]) -> None:
        for route in routes:
            inner = getattr(getattr(route, "original_router", None), "routes", None)
            if inner is not None:
                walk(inner)
            else:
                found.append(route)

    walk(list(app.routes))
    return found
