"""Seat three scripted players at one table of a running server, over the wire (tests, benchmarks).

Each player is a ``GameClient`` (``ulti/client.py``) that logs in, joins and opens the table as a person's
page would, so what it exercises is exactly what the server serves.
"""

from __future__ import annotations

from typing import Any

import httpx2

from ulti.client import GameClient


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
