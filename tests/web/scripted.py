"""Scripted players beside the browser: ``GameClient`` coroutines run in a thread with its own event loop.

Playwright's sync API owns the test's thread; the scripted players live in another one, and each step
is handed to it and waited for (``Scripted.run``). Also the choices that bring a deal to a given point
(the kontra chain's defenders' step), read from each client's own view.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ulti.client import GameClient

T = TypeVar("T")


class Scripted:
    """An event loop in a thread of its own, for the scripted clients of one test."""

    def __init__(self) -> None:
        """Start the loop's thread."""
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, make: Callable[[], Awaitable[T]], timeout: float = 120) -> T:
        """Run the coroutine ``make()`` in the loop and return its result (its exception is raised here)."""

        async def wrapped() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(timeout)

    def close(self, clients: list[GameClient]) -> None:
        """Close the clients, then stop the loop."""

        async def close_all() -> None:
            for client in clients:
                await client.close()

        self.run(close_all)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


def _to_chain_action(client: GameClient) -> dict[str, Any] | None:
    """The action that leads this client's seat towards the defenders' step of the kontra chain: the first
    bidder bids the lowest bid and everybody else passes; the declarer names the first trump; the first
    defender to play in trick 1 says kontra on every part; the declarer says rekontra; cards are the first
    legal ones. None when the seat has nothing to do."""
    state = client.state
    ch = client.my_choices()
    if state is None or ch is None:
        return None
    deal = state["deal"]
    seat = state["you"]
    if deal["phase"] == "auction":
        if deal["auction"]["bid"] is None and ch["bids"]:
            action: dict[str, Any] = {"action": "bid", "bid": ch["bids"][0]}
            if ch["must_discard"]:
                action["discard"] = deal["hands"][str(seat)][:2]
            return action
        return {"action": "pass"} if ch["may_pass"] else None
    if deal["phase"] == "trump":
        return {"action": "trump", "suit": ch["trumps"][0]}
    kontra = ch.get("kontra")
    if kontra and kontra["step"] == "kontra" and not any(e["action"] == "kontra" for e in deal["log"]):
        return {"action": "kontra", "parts": kontra["parts"]}
    if kontra and kontra["step"] == "rekontra":
        return {"action": "kontra", "parts": kontra["parts"]}
    if ch["cards"]:
        return {"action": "play", "card": ch["cards"][0]}
    return None


async def to_defenders_step(clients: list[GameClient], timeout: float = 30) -> None:
    """Play the started deal until the kontra chain waits for the defenders (szubkontra)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        state = clients[0].state
        chain = state["deal"]["chain"] if state and state.get("deal") else None
        if chain and chain["step"] == "szubkontra":
            return
        if loop.time() > deadline:
            raise AssertionError(f"the chain's defenders' step was not reached: {state and state.get('deal')}")
        for client in clients:
            action = _to_chain_action(client)
            if action is not None:
                seq = (await client.act(action))["seq"]
                for other in clients:
                    await other.wait_for(lambda o=other, s=seq: o.seq >= s, 10)
                break
        else:
            await asyncio.sleep(0.05)
