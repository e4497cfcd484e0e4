"""Bot API load (``make bench``): 100 API bots playing 34 tables at once against one server process.

Each bot is a bot account with its own token: it follows its table's NDJSON stream and acts with
``POST /api/bot/tables/{id}/act`` after a "think" pause (not part of the latency). Measured: the time
from posting an act to the next event on the bot's own stream, p50 and p99. The baseline, run in the
same invocation on a fresh process with the same settings: the same 34 tables played by scripted
WebSocket players (three per table), from sending ``act`` to the event on the socket.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import orjson
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.load_bench import player_loop, seat_table
from ulti.botclient import match_over, my_turn, position
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.serverprocess import ServerProcess

BOTS = 100
TABLES = 34


async def make_bot(base: str, http: httpx2.AsyncClient, n: int) -> str:
    """A new bot account's ``bot:play`` token."""
    account = {"name": f"Benchbot {n:03d}", "password": "p" * 12}
    registered = await http.post(base + "/api/account/register", json=account)
    session = {"authorization": f"Bearer {registered.json()['token']}"}
    scopes = {"name": "bench", "scopes": ["bot:play"]}
    made = await http.post(base + "/api/account/tokens", json=scopes, headers=session)
    token = str(made.json()["token"])
    await http.post(base + "/api/bot/account/upgrade", json={}, headers={"authorization": f"Bearer {token}"})
    return token


async def api_player(
    client: httpx2.AsyncClient, table: str, seed: int, think: float, stop_at: float, latencies: list[float]
) -> int:
    """Play ``table`` through its stream until ``stop_at``: act on each turn after ``think`` s; the act count."""
    latest: dict[str, Any] = {}
    changed = asyncio.Event()
    sent: list[float | None] = [None]

    async def read() -> None:
        async with client.stream("GET", f"/api/bot/tables/{table}/stream") as response:
            async for line in response.aiter_lines():
                if not line:
                    continue
                arrived = time.perf_counter()
                if sent[0] is not None:
                    latencies.append(arrived - sent[0])  # the next event after this bot's act
                    sent[0] = None
                latest["state"] = orjson.loads(line)["state"]
                changed.set()

    reader = asyncio.create_task(read())
    rng = random.Random(seed)
    acted: set[str] = set()
    actions = 0
    try:
        while time.monotonic() < stop_at:
            state = latest.get("state")
            if state is None or match_over(state) or not my_turn(state) or position(state) in acted:
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), max(0.01, stop_at - time.monotonic()))
                except TimeoutError:
                    break
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            key = position(state)
            acted.add(key)
            action = action_to_json(RandomBot(rng).act(SeatView.from_json(state["deal"])))
            action.pop("seat")
            sent[0] = time.perf_counter()
            answer = await client.post(f"/api/bot/tables/{table}/act", json={"id": key, "action": action})
            if answer.status_code != 200:
                sent[0] = None
            actions += 1
    finally:
        reader.cancel()
        with contextlib.suppress(BaseException):  # the stream is hung up on purpose
            await reader
    return actions


def figures(latencies: list[float], actions: int, elapsed: float) -> dict[str, float]:
    """Actions per second and the latency percentiles in milliseconds."""
    latencies.sort()
    return {
        "actions_per_s": actions / elapsed,
        "samples": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
    }


async def run_api(seconds: float, think: float) -> dict[str, float]:
    """100 API bots on 34 tables (two tables get a built-in bot in their third seat)."""
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/api.db")
        srv.start(Path(tmp) / "server.log")
        try:
            base = srv.base_url
            async with httpx2.AsyncClient(timeout=60, limits=httpx2.Limits(max_connections=20)) as http:
                tokens = list(await asyncio.gather(*(make_bot(base, http, n) for n in range(BOTS))))
                host = GameClient(base, http)
                await host.login("Bench host")
                seats: list[tuple[str, int]] = []  # (table, seat) of each bot, in bot order
                tables: list[str] = []
                for _ in range(TABLES):
                    body = {"deals": 12, "seats": [{"kind": "open"}] * 3}
                    tables.append((await host.http("POST", "/api/tables", body))["table_id"])
                seats = [(tables[n // 3], n % 3) for n in range(BOTS)]
                bots = [
                    httpx2.AsyncClient(base_url=base, headers={"authorization": f"Bearer {t}"},
                                       timeout=httpx2.Timeout(60.0, read=None))
                    for t in tokens
                ]
                for client, (table, seat) in zip(bots, seats, strict=True):
                    joined = await client.post(f"/api/bot/tables/{table}/join", json={"seat": seat})
                    assert joined.status_code == 200, joined.text
                for table in tables:
                    await host.http("POST", f"/api/tables/{table}/start", {"fill_bots": True})
                gc.collect()
                gc.freeze()
                latencies: list[float] = []
                start = time.monotonic()
                counts = await asyncio.gather(
                    *(api_player(c, table, n, think, start + seconds, latencies)
                      for n, (c, (table, _)) in enumerate(zip(bots, seats, strict=True)))
                )
                elapsed = time.monotonic() - start
                for client in bots:
                    await client.aclose()
        finally:
            srv.stop()
    return figures(latencies, sum(counts), elapsed)


async def run_websocket(seconds: float, think: float) -> dict[str, float]:
    """The baseline: the same 34 tables, three scripted WebSocket players each."""
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/ws.db")
        srv.start(Path(tmp) / "server.log")
        try:
            async with httpx2.AsyncClient(timeout=60, limits=httpx2.Limits(max_connections=20)) as http:
                all_clients = [await seat_table([srv.base_url], http, i) for i in range(TABLES)]
                gc.collect()
                gc.freeze()
                latencies: list[float] = []
                start = time.monotonic()
                counts = await asyncio.gather(
                    *(player_loop(c, t * 3 + i, think, start + seconds, latencies)
                      for t, clients in enumerate(all_clients) for i, c in enumerate(clients))
                )
                elapsed = time.monotonic() - start
                for clients in all_clients:
                    for c in clients:
                        await c.close()
        finally:
            srv.stop()
    return figures(latencies, sum(counts), elapsed)


def main() -> None:
    """Print the bot API's figures and the WebSocket baseline's, measured in this run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a bot waits before acting")
    args = parser.parse_args()
    api = uvloop.run(run_api(args.seconds, args.think))
    ws = uvloop.run(run_websocket(args.seconds, args.think))
    print(f"bot API: {BOTS} API bots on {TABLES} tables, one process, think {args.think:g} s, {args.seconds:g} s")
    for name, row in (("bot API (act -> next stream event)", api), ("WebSocket baseline (act -> event)", ws)):
        print(f"  {name:36} {row['actions_per_s']:7.1f} actions/s  {int(row['samples']):6d} samples"
              f"  p50 {row['p50_ms']:6.1f} ms  p99 {row['p99_ms']:6.1f} ms")
    print(f"  p99 ratio bot API / WebSocket: {api['p99_ms'] / ws['p99_ms']:.2f}"
          f"  (target: bot API p99 under 100 ms: {'met' if api['p99_ms'] < 100 else 'NOT met'})")


if __name__ == "__main__":
    main()
