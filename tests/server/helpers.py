"""Helpers for server tests: seat three scripted players at one table."""

from __future__ import annotations

from typing import Any

from ulti.server.client import GameClient


async def three_players(base_url: str, deals: int = 6, seed: int | None = None, **config: Any) -> tuple[
    str, list[GameClient]
]:
    """Create a table with three logged-in, connected players in seats 0, 1, 2; not started."""
    clients = [GameClient(base_url) for _ in range(3)]
    for i, client in enumerate(clients):
        await client.login(f"Player {i}")
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
    return table_id, clients
