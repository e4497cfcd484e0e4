"""The ceiling of the load run: a bare WebSocket server with the load run's traffic shape.

The same library and event loop as the game server (uvicorn's sans-I/O ``websockets`` protocol on
uvloop, JSON by orjson, no compression), but no game, no store and no views: a table is three
sockets and a turn counter. The seat on turn sends ``{"type": "act", "id", "action"}``; the server
answers with one small JSON ``event`` (``seq``, the action, and whose turn it is next) sent to the
table's three sockets, then an ``ack`` to the sender, exactly the messages a game action costs the
game server. The players act as soon as it is their turn (after ``think``), and the latency is
measured the same way: from sending a command to receiving its broadcast.

``load_bench`` runs it in the same run as the game server (alternating), so that the game server's
throughput and p99 are quoted as a ratio to what a WebSocket server can do on this machine now.

Run on its own: ``python -m benchmarks.ceiling --serve PORT`` (the server only).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class _Table:
    """Three seats' send functions and whose turn it is."""

    def __init__(self) -> None:
        self.sends: dict[int, Send] = {}
        self.seq = 0
        self.to_move = 0


_tables: dict[str, _Table] = {}


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    """The bare server: ``/healthz`` over HTTP, and ``/ws?table=T&seat=S`` for a table's seat."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"ok": true}'})
        return
    query = dict(part.split("=", 1) for part in scope["query_string"].decode().split("&") if "=" in part)
    table = _tables.setdefault(query["table"], _Table())
    seat = int(query["seat"])
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    table.sends[seat] = send
    state = {"seq": table.seq, "you": seat, "to_move": table.to_move}
    sync = {"type": "sync", "seq": table.seq, "state": state}
    await send({"type": "websocket.send", "text": orjson.dumps(sync).decode()})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            table.sends.pop(seat, None)
            return
        data = orjson.loads(message["text"])
        if data.get("type") != "act" or table.to_move != seat:
            error = {"type": "error", "id": data.get("id"), "code": "not_your_turn", "message": "not your turn"}
            await send({"type": "websocket.send", "text": orjson.dumps(error).decode()})
            continue
        table.seq += 1
        table.to_move = (seat + 1) % 3
        event = {
            "type": "event",
            "seq": table.seq,
            "event": {"type": "action", "by": "player", "action": {"seat": seat, **data["action"]}},
            "state": {"seq": table.seq, "to_move": table.to_move},
        }
        for other in list(table.sends.values()):
            with contextlib.suppress(Exception):
                await other({"type": "websocket.send", "text": orjson.dumps(event).decode()})
        ack = {"type": "ack", "id": data["id"], "seq": table.seq}
        await send({"type": "websocket.send", "text": orjson.dumps(ack).decode()})


class CeilingProcess:
    """The bare server in its own process (as the game server runs in its own)."""

    def __init__(self, port: int) -> None:
        """A server to be started on ``port``."""
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, log_path: Path) -> None:
        """Start it and wait until it answers."""
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.ceiling", "--serve", str(self.port)], stdout=log, stderr=log
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ceiling server exited: {log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("ceiling server did not answer within 30 s")

    def stop(self) -> None:
        """Stop it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class _Player:
    """One seat's socket: reads every message as the game's client does, keeps the latest view."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.seq = 0
        self.event_times: dict[int, float] = {}
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = orjson.loads(raw)
                now = time.perf_counter()
                kind = message.get("type")
                if kind in ("sync", "event") and message["seq"] >= self.seq:
                    self.state, self.seq = message["state"], message["seq"]
                    if len(self.event_times) > 64:
                        self.event_times.clear()
                    self.event_times[self.seq] = now
                if kind in ("ack", "error") and message.get("id") in self.waiters:
                    self.waiters.pop(message["id"]).set_result(message)
                self.changed.set()
        self.changed.set()

    async def wait_turn(self, seat: int, stop_at: float) -> bool:
        while self.state.get("to_move") != seat:
            self.changed.clear()
            remaining = stop_at - time.monotonic()
            if remaining <= 0 or self.reader.done():
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)
        return True


class Pace:
    """Every player's actions together spread evenly at ``rate`` per second (each waits for its slot).

    A server's CPU per action falls as its load rises (more messages per wake of its event loop), so
    the bare server is also run at the game server's measured rate: the same traffic at the same load.
    """

    def __init__(self, rate: float) -> None:
        """Slots ``1 / rate`` seconds apart from now on."""
        self.interval = 1.0 / rate
        self.next_at = 0.0

    async def wait(self) -> None:
        """Wait for the next free slot (at once when the players fall behind the rate)."""
        now = time.monotonic()
        slot = max(now, self.next_at)
        self.next_at = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)


async def _player_loop(
    player: _Player, seat: int, seed: int, think: float, stop_at: float, latencies: list[float],
    pace: Pace | None = None,
) -> int:
    rng = random.Random(seed)
    actions = 0
    ids = 0
    while time.monotonic() < stop_at:
        if not await player.wait_turn(seat, stop_at):
            break
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if pace is not None:
            await pace.wait()
        ids += 1
        client_id = f"s{seat}-{ids}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        player.waiters[client_id] = future
        start = time.perf_counter()
        command = {"type": "act", "id": client_id, "action": {"action": "play", "card": "AS"}}
        await player.ws.send(orjson.dumps(command).decode())
        answer = await asyncio.wait_for(future, 30)
        if answer["type"] != "ack":
            continue
        event_time = player.event_times.get(answer["seq"])
        if event_time is not None:
            latencies.append(event_time - start)
        actions += 1
    return actions


async def run_ceiling(
    port: int, tables: int, seconds: float, think: float,
    server_cpu: Callable[[], tuple[float, float]] = lambda: (0.0, 0.0), rate: float | None = None,
) -> dict[str, float]:
    """One load run against the bare server on ``port`` (already started): the load run's figures.

    ``server_cpu`` tells the server process's CPU seconds so far, in its own code and in the kernel (for the
    CPU each party used);
    ``rate``: the players' actions together at most this many per second (``Pace``), else as fast as
    they go.
    """
    players: list[tuple[_Player, int]] = []
    for t in range(tables):
        for seat in range(3):
            ws = await connect(f"ws://127.0.0.1:{port}/ws?table=t{t}&seat={seat}", max_size=2**22)
            players.append((_Player(ws), seat))
    gc.collect()
    gc.freeze()
    latencies: list[float] = []
    cpu_before = (server_cpu(), time.process_time())
    start = time.monotonic()
    pace = None if rate is None else Pace(rate)
    counts = await asyncio.gather(
        *(_player_loop(p, seat, i, think, start + seconds, latencies, pace) for i, (p, seat) in enumerate(players))
    )
    elapsed = time.monotonic() - start
    cpu_after = (server_cpu(), time.process_time())
    for p, _ in players:
        await p.ws.close()
        with contextlib.suppress(BaseException):
            await p.reader
    gc.unfreeze()
    latencies.sort()
    return {
        "tables": tables,
        "actions_per_s": sum(counts) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "cpu_servers": (sum(cpu_after[0]) - sum(cpu_before[0])) / elapsed,
        "cpu_servers_kernel": (cpu_after[0][1] - cpu_before[0][1]) / elapsed,
        "cpu_generator": (cpu_after[1] - cpu_before[1]) / elapsed,
    }


def serve(port: int) -> None:
    """Run the bare server as the game server runs (``ulti serve``): uvicorn, uvloop, sans-I/O websockets."""
    import uvicorn

    from ulti.server.wsprotocol import WebSocketProtocol

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=WebSocketProtocol,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", type=int, required=True, metavar="PORT")
    serve(parser.parse_args().serve)
