"""The reverse-proxy configuration of docs/deploy.md, run for real: nginx in front of three processes."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests.cluster.conftest import Cluster
from tests.server.helpers import three_players
from tests.services import free_port
from ulti.engine.record import score_record
from ulti.server.client import GameClient, play_randomly

DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def nginx_config_from_docs(listen: int, upstreams: list[int], folder: Path) -> str:
    """The ```nginx block of docs/deploy.md with this test's ports and paths."""
    text = DEPLOY_DOC.read_text()
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None, "docs/deploy.md has no nginx configuration"
    config = block.group(1)
    assert config.count("server 127.0.0.1:800") == 3 and "listen 8000;" in config
    for documented, port in zip((8001, 8002, 8003), upstreams, strict=True):
        config = config.replace(f"127.0.0.1:{documented}", f"127.0.0.1:{port}")
    config = config.replace("listen 8000;", f"listen 127.0.0.1:{listen};")
    return config.replace("pid /run/ulti-nginx.pid;", f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;")


@pytest.fixture
def nginx_in_front(cluster: Cluster, tmp_path: Path) -> Iterator[str]:
    """Three server processes behind nginx; yields the proxy's base URL."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    processes = cluster.start(3)
    listen = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config_from_docs(listen, [p.port for p in processes], tmp_path))
    proc = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log"),
                             "-g", "daemon off;"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", listen), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{listen}"
    proc.terminate()
    proc.wait(10)


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
