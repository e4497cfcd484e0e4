"""Seeks and the lobby's counts over two server processes: seekers on different processes meet at one table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cluster.conftest import Cluster
from ulti.client import GameClient


async def lobby_watcher(base: str, name: str) -> GameClient:
    client = GameClient(base)
    await client.login(name)
    await client.connect()
    await client.send({"type": "watch_lobby"})
    await client.wait_for(lambda: any(m["type"] == "lobby" for m in client.received), 10)
    return client


def people(client: GameClient) -> dict[str, Any]:
    """The newest counts and seeks the client was told of."""
    for message in reversed(client.received):
        if message["type"] == "lobby_people":
            return dict(message)
        if message["type"] == "lobby":
            return dict(message["people"])
    raise AssertionError("no lobby message")


@pytest.mark.asyncio
async def test_seekers_on_two_processes_are_paired_into_one_table_and_counted_on_both(cluster: Cluster) -> None:
    first, second = cluster.start(2)
    ann = await lobby_watcher(first.base_url, "Ann")
    bob = await lobby_watcher(second.base_url, "Bob")
    try:
        # each process counts the people of both
        for client in (ann, bob):
            await client.wait_for(lambda c=client: people(c)["online"] == 2, 10)
        await ann.request({"type": "seek", "deals": 6, "wait": 10})
        # Bob, on the other process, sees Ann's seek
        await bob.wait_for(lambda: [s["name"] for s in people(bob)["seeks"]] == ["Ann"], 10)
        await bob.request({"type": "seek", "deals": 6, "wait": 120})
        told = [await c.wait_for_message(lambda m: m["type"] == "seek_paired", 30) for c in (ann, bob)]
        assert told[0]["table"] == told[1]["table"]
        view = await bob.http("GET", f"/api/tables/{told[0]['table']}")
        assert [s["name"] for s in view["table"]["seats"][:2]] == ["Ann", "Bob"]
        assert view["table"]["seats"][2]["kind"] == "bot" and view["table"]["status"] == "playing"
        for client in (ann, bob):
            await client.wait_for(lambda c=client: people(c)["seeks"] == [], 10)
    finally:
        await ann.close()
        await bob.close()
