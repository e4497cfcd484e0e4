"""The reverse-proxy configuration of docs/deploy.md, run for real: nginx in front of three processes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests.cluster.conftest import Cluster
from tests.server.helpers import three_players
from tests.services import nginx_from_docs
from ulti.client import GameClient, play_randomly
from ulti.engine.record import score_record


@pytest.fixture
def nginx_in_front(cluster: Cluster, tmp_path: Path) -> Iterator[str]:
    """Three server processes behind nginx; yields the proxy's base URL."""
    processes = cluster.start(3)
    with nginx_from_docs([p.port for p in processes], tmp_path) as url:
        yield url


@pytest.mark.asyncio
async def test_a_match_through_the_documented_nginx_configuration(nginx_in_front: str) -> None:
    base = nginx_in_front
    health = {(await GameClient(base).http("GET", "/healthz"))["process"] for _ in range(9)}
    assert len(health) >= 2  # requests really are spread over the processes
    table_id, clients = await three_players(base, seed=99, start=True)
    await asyncio.wait_for(asyncio.gather(*(play_randomly(c, 99 + i) for i, c in enumerate(clients))), 240)
    match = clients[0].state["match"] if clients[0].state else None
    assert match is not None and match["winner"] is not None
    scored = score_record(await clients[2].http("GET", f"/api/tables/{table_id}/record"))
    assert scored["totals"] == match["totals"]
    for client in clients:
        await client.close()
    # a browser on the proxy's own origin may open the WebSocket; another origin may not
    url = base.replace("http", "ws") + f"/ws?token={clients[0].token}"
    async with connect(url, origin=Origin(base)) as ws:
        assert '"welcome"' in await ws.recv()
    with pytest.raises(Exception, match="403"):
        async with connect(url, origin=Origin("http://evil.example")):
            pass
