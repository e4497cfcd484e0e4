"""GET /metrics against a real server process: the counters move by exactly what the clients did,
bad input is counted instead of logged, and the documented nginx configuration keeps /metrics in.
"""

from __future__ import annotations

import asyncio
import io
import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from tests.services import nginx_from_docs
from ulti.client import GameClient, ServerError
from ulti.server import logs
from ulti.server.metrics import Metrics

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    """Every sample of a text exposition, by name and labels."""
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


async def scrape(base_url: str) -> Samples:
    """``GET /metrics``, checked to be the Prometheus text format, parsed."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=30) as http:
        response = await http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=")
    return parse(response.text)


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when the series does not exist yet: a labelled counter not yet moved)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str) -> float:
    """The sum of a metric over all its labels."""
    return sum(v for (n, _), v in samples.items() if n == name)


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """How much one series moved between two scrapes."""
    return value(after, name, **labels) - value(before, name, **labels)


def random_move(client: GameClient) -> dict[str, Any]:
    """A random legal action for the client's seat (record form without the seat)."""
    return client.random_action()


def reached(client: GameClient, seq: int) -> Callable[[], bool]:
    """Whether ``client`` has seen event ``seq`` (a predicate for ``wait_for``)."""
    return lambda: client.seq >= seq


async def on_turn(clients: list[GameClient]) -> GameClient:
    """The client whose seat the table waits for, once its view says so."""
    deadline = time.monotonic() + 30
    while not any(c.my_turn() for c in clients):
        assert time.monotonic() < deadline, "nobody's turn"
        await asyncio.sleep(0.01)
    return next(c for c in clients if c.my_turn())


async def settled(clients: list[GameClient], seq: int) -> None:
    """Wait until every client has seen event ``seq``."""
    for client in clients:
        await client.wait_for(reached(client, seq), 30)


def log_lines(server: ServerProcess) -> list[str]:
    """The server's log so far."""
    assert server.log_path is not None
    return server.log_path.read_text().splitlines()


# ---------------------------------------------------------------- in the test process


def test_each_app_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics(process=False)
    first.action_done("player")
    first.refused_code("bad_json", "ws")
    one, two = parse(first.exposition().decode()), parse(second.exposition().decode())
    assert value(one, "ulti_actions_total", by="player") == 1
    assert value(two, "ulti_actions_total", by="player") == 0
    assert value(one, "ulti_refusals_total", code="bad_json", via="ws") == 1
    assert value(one, "ulti_bad_input_total", kind="bad_json") == 1
    assert "process_resident_memory_bytes" in {name for name, _ in one} or not Path("/proc/self/stat").exists()
    assert not any(name.endswith("_created") for name, _ in one)


def test_logs_one_line_per_event_and_count_client_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)  # the module logs.py writes through
    counted: list[str] = []
    saved = {name: (logging.getLogger(name).handlers[:], logging.getLogger(name).propagate) for name in
             ("ulti", "uvicorn")}
    try:
        logs.setup_logging(on_bad_input=counted.append)
        try:
            raise RuntimeError("a genuine bug")
        except RuntimeError:
            logging.getLogger("ulti").exception("command failed", extra={"fields": {"player": "p1"}})
        for _ in range(50):
            logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
        logging.getLogger("uvicorn.error").warning("Exceeded concurrency limit.")
    finally:
        for name, (handlers, propagate) in saved.items():
            logging.getLogger(name).handlers[:] = handlers
            logging.getLogger(name).propagate = propagate
        errors = logging.getLogger("uvicorn.error")
        for f in [f for f in errors.filters if isinstance(f, logs.ClientErrorFilter)]:
            errors.removeFilter(f)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2  # the bug with its traceback, and the server's own warning
    assert '"msg": "command failed"' in lines[0] and "Traceback" in lines[0] and "a genuine bug" in lines[0]
    assert '"logger": "uvicorn.error"' in lines[1]
    assert counted == ["http_request"] * 50


# ---------------------------------------------------------------- against a real server


@pytest.mark.asyncio
async def test_counters_follow_real_play_and_refusals(server: ServerProcess) -> None:
    before = await scrape(server.base_url)
    assert value(before, "ulti_connections") == 0
    table_id, clients = await three_players(server.base_url, seed=11, start=True)

    moves = 12
    for _ in range(moves):
        mover = await on_turn(clients)
        ack = await mover.act(random_move(mover))
        await settled(clients, ack["seq"])

    # refused by the rules (twice), malformed (JSON, an unknown type), and one over HTTP
    mover = await on_turn(clients)
    idle = next(c for c in clients if c is not mover)
    for _ in range(2):
        with pytest.raises(ServerError, match="not_your_turn"):
            await idle.act(random_move(mover))
    with pytest.raises(ServerError, match="unknown_type"):
        await idle.request({"type": "dance"})
    assert idle.ws is not None
    await idle.ws.send("{not json")
    await idle.wait_for(lambda: any(m.get("code") == "bad_json" for m in idle.received))
    with pytest.raises(ServerError, match="table_started"):
        await clients[1].http("POST", f"/api/tables/{table_id}/join", {"seat": 1})

    after = await scrape(server.base_url)
    assert value(after, "ulti_connections") == 3
    assert value(after, "ulti_tables_loaded", role="owner") == 1
    assert delta(before, after, "ulti_actions_total", by="player") == moves
    assert delta(before, after, "ulti_actions_total", by="bot") == 0
    assert delta(before, after, "ulti_command_latency_seconds_count", kind="act") == moves
    assert delta(before, after, "ulti_refusals_total", code="not_your_turn", via="ws") == 2
    assert delta(before, after, "ulti_refusals_total", code="unknown_type", via="ws") == 1
    assert delta(before, after, "ulti_refusals_total", code="bad_json", via="ws") == 1
    assert delta(before, after, "ulti_refusals_total", code="table_started", via="http") == 1
    # refusals by the rules are no bad input; malformed messages are
    assert delta(before, after, "ulti_bad_input_total", kind="not_your_turn") == 0
    assert delta(before, after, "ulti_bad_input_total", kind="unknown_type") == 1
    assert delta(before, after, "ulti_bad_input_total", kind="bad_json") == 1
    # every event of the table went through a group commit (the only table since the server started)
    assert delta(before, after, "ulti_store_commit_events_sum") == clients[0].seq
    commits = delta(before, after, "ulti_store_commit_seconds_count")
    assert 1 <= commits <= clients[0].seq
    assert delta(before, after, "ulti_store_commit_events_count") == commits
    assert value(after, "ulti_command_latency_seconds_bucket", kind="act", le="+Inf") == moves
    assert value(after, "ulti_command_latency_seconds_sum", kind="act") > 0

    for client in clients:
        await client.close()
    deadline = time.monotonic() + 10
    while value(await scrape(server.base_url), "ulti_connections") != 0:
        assert time.monotonic() < deadline, "the connections gauge did not drop back to 0"
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_bad_input_is_counted_not_logged(server: ServerProcess) -> None:
    client = GameClient(server.base_url)
    await client.login("Garbage")
    await client.connect()
    await client.wait_for(lambda: any(m.get("type") == "welcome" for m in client.received))
    await asyncio.sleep(0.2)
    lines_before = log_lines(server)
    before = await scrape(server.base_url)

    assert client.ws is not None
    garbage: list[str | bytes] = ["{not json", b"\x00\x01", '{"type": "dance"}', "[1, 2]", "x" * 5000]
    for i in range(300):
        await client.ws.send(garbage[i % len(garbage)])
    # a flood over the rate (500 a second and a burst of 1000 with --fast): the excess is dropped unread
    flood = 1500
    for _ in range(flood):
        await client.ws.send("{not json")
    await asyncio.sleep(0.5)  # the bucket refills, so the ping below is not dropped
    await client.request({"type": "ping"}, timeout=60)  # answered in order: everything above was handled

    # requests uvicorn cannot parse, and sockets refused at the door
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            raw.sendall(b"GARBAGE\r\n\r\n")
            raw.recv(1000)
    ws_url = server.base_url.replace("http", "ws", 1) + "/ws"
    for _ in range(3):
        with pytest.raises(InvalidStatus):
            async with connect(f"{ws_url}?token={client.token}", origin=Origin("http://evil.example")):
                pass
    for _ in range(2):
        with pytest.raises(InvalidStatus):
            async with connect(f"{ws_url}?token=forged"):
                pass
    # a frame over the server's frame limit closes that socket
    async with connect(f"{ws_url}?token={client.token}", max_size=2**22) as big:
        await big.recv()  # welcome
        await big.send("y" * 70_000)
        with pytest.raises(ConnectionClosed):
            while True:
                await big.recv()

    after = await scrape(server.base_url)
    await client.close()
    protocol = ("bad_json", "bad_message", "unknown_type", "too_large", "rate_limited")
    assert sum(delta(before, after, "ulti_bad_input_total", kind=k) for k in protocol) == 300 + flood
    assert delta(before, after, "ulti_bad_input_total", kind="rate_limited") > 0
    assert delta(before, after, "ulti_bad_input_total", kind="http_request") == 5
    assert delta(before, after, "ulti_bad_input_total", kind="ws_origin") == 3
    assert delta(before, after, "ulti_bad_input_total", kind="ws_session") == 2
    assert delta(before, after, "ulti_bad_input_total", kind="ws_too_large") == 1
    await asyncio.sleep(0.2)
    assert log_lines(server) == lines_before  # not one line for any of it


# ---------------------------------------------------------------- who may read it


@pytest.fixture
def nginx_in_front(server: ServerProcess, tmp_path: Path) -> Iterator[str]:
    """The documented nginx configuration, its three upstreams all this test server; the proxy's URL."""
    with nginx_from_docs([server.port] * 3, tmp_path) as url:
        yield url


@pytest.mark.asyncio
async def test_the_documented_proxy_keeps_metrics_in(server: ServerProcess, nginx_in_front: str) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        assert (await http.get(nginx_in_front + "/healthz")).status_code == 200
        for path in ("/metrics", "/metrics/", "/metrics?x=1", "//metrics", "/%6detrics"):
            assert (await http.get(nginx_in_front + path)).status_code == 403, path
        assert (await http.get(server.base_url + "/metrics")).status_code == 200  # the local Prometheus


@pytest.mark.asyncio
async def test_no_metrics_turns_the_endpoint_off(server_factory: type[ServerProcess], tmp_path: Path) -> None:
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'off.db'}", args=("--fast", "--no-metrics"))
    srv.start(tmp_path / "off.log")
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.get(srv.base_url + "/metrics")
    assert response.status_code == 404
