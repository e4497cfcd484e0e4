"""Flood run (``make bench``): does a flooding client slow a real table beside it?

One server process with production settings (rate limits, quotas; only the bot and deal pauses
removed). A real table of three scripted players plays random legal moves, each 0.1 s after its
turn comes (a quick player, within the per-connection rate), and every command's time to its
acknowledgement is recorded. In alternating rounds (quiet, flood, ...) a flooder process attacks
the same server as the hardening report saw it, from its own address, with its own player and
table: eight sockets (the per-player cap) sending pings, chat, junk and 4 KB messages as fast as
the sockets take them; half of them hang up after every 50 messages and reconnect at once, the
rest reconnect whenever they are refused or cut off.

Printed per round: the table's acknowledgement p50/p95, the flooder's messages sent and refused
connections, and the server's CPU; at the end the median p95 of the flood rounds over the median
p95 of the quiet rounds (the goal: under 1.20).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
import uvloop
from websockets.asyncio.client import connect

from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, ServerError
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.load_bench import cpu_seconds
from ulti.seating import three_players
from ulti.serverprocess import ServerProcess

LIVE_ARGS = ("--bot-delay", "0", "--between-deals", "0", "--disconnect-grace", "600")
FLOOD_SOCKETS = 8
THINK = 0.1
#: the flooder's own address (all of 127/8 is loopback): the per-address quotas apply to it, not to the table
FLOOD_ADDRESS = "127.0.0.2"


async def table_player(client: GameClient, stop_at: float, latencies: list[float], rng: random.Random) -> None:
    """Play the client's seat until ``stop_at``: a random legal move shortly after the turn comes."""
    while time.monotonic() < stop_at and not client.match_over():
        if not client.my_turn():
            with contextlib.suppress(TimeoutError):
                remaining = max(0.05, stop_at - time.monotonic())
                await client.wait_for(lambda: client.match_over() or client.my_turn(), remaining)
            continue
        await asyncio.sleep(THINK)  # a quick player, within the per-connection rate (not part of the latency)
        if not client.my_turn():
            continue
        assert client.state is not None
        action = action_to_json(RandomBot(rng).act(SeatView.from_json(client.state["deal"])))
        action.pop("seat")
        started = time.perf_counter()
        try:
            await client.act(action)
        except ServerError as exc:
            if exc.code in ("not_your_turn", "no_deal"):
                continue
            raise
        latencies.append(time.perf_counter() - started)


async def play_round(base_url: str, seconds: float, seed: int) -> list[float]:
    """A fresh 12-deal table played for ``seconds``; its acknowledgement latencies."""
    _, clients = await three_players(base_url, deals=12, start=True, names=f"Round {seed} ")
    latencies: list[float] = []
    stop_at = time.monotonic() + seconds
    await asyncio.gather(*(table_player(c, stop_at, latencies, random.Random(seed * 3 + i))
                           for i, c in enumerate(clients)))
    for client in clients:
        await client.close()
    return latencies


# ---------------------------------------------------------------- the flooder (its own process)


async def flood_socket(url: str, stop_at: float, counter: list[int], rng: random.Random, hang_up: bool) -> None:
    """One socket sending as fast as it is taken; reconnect when cut (or, if ``hang_up``, every 50 messages)."""
    junk = '{"type": "ping", "pad": "' + "x" * 4000 + '"}'
    messages = [junk, '{"type": "ping"}', '{"type": "chat", "text": "spam"}', "{not json", "[" * 50]
    while time.monotonic() < stop_at:
        try:
            async with connect(url, max_queue=None, local_addr=(FLOOD_ADDRESS, 0)) as ws:
                sent = 0
                while time.monotonic() < stop_at and not (hang_up and sent == 50):
                    await ws.send(rng.choice(messages))
                    counter[0] += 1
                    sent += 1
        except Exception:
            counter[1] += 1  # cut off or refused: straight back
            await asyncio.sleep(0.01)


async def flood(base_url: str, seconds: float, result: dict[str, int]) -> None:
    """Log in, open a table, and flood from eight sockets for ``seconds``."""
    transport = httpx2.AsyncHTTPTransport(local_address=FLOOD_ADDRESS)
    client = GameClient(base_url, httpx2.AsyncClient(transport=transport, timeout=30))
    await client.login("Flooder")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    await client.http("POST", "/api/tables", {"deals": 6, "seats": seats})
    url = base_url.replace("http", "ws", 1) + f"/ws?token={client.token}"
    counter = [0, 0]
    stop_at = time.monotonic() + seconds
    await asyncio.gather(
        *(flood_socket(url, stop_at, counter, random.Random(i), i % 2 == 1) for i in range(FLOOD_SOCKETS))
    )
    result["sent"], result["cuts"] = counter


def run_flooder(base_url: str, seconds: float) -> None:
    """The flooder's process (``--flooder URL``): flood, then print what it sent as JSON.

    An attacker's CPU is not ours: on this 2-core box the flooder runs at the lowest priority, so
    that what the table feels is the server's cost of the flood, not a third process competing
    with the server and the players for two cores. It still takes every cycle they leave idle.
    """
    os.nice(19)
    result: dict[str, int] = {}
    uvloop.run(flood(base_url, seconds, result))
    print(json.dumps(result))


def start_flooder(base_url: str, seconds: float) -> subprocess.Popen[str]:
    """Start the flooder process."""
    command = [sys.executable, "-m", "benchmarks.flood_bench", "--flooder", base_url, "--seconds", str(seconds)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent)


# ---------------------------------------------------------------- the run


def p95(values: list[float]) -> float:
    """The 95th percentile, in ms."""
    return 1000 * statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else float("nan")


def main() -> None:
    """Alternate quiet and flood rounds against one server; print each and the ratio of medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="quiet/flood pairs")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each round")
    parser.add_argument("--flooder", default="", help=argparse.SUPPRESS)  # the flooder process itself
    args = parser.parse_args()
    if args.flooder:
        run_flooder(args.flooder, args.seconds)
        return
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/flood.db", args=LIVE_ARGS)
        server.start(Path(tmp) / "server.log")
        assert server.proc is not None
        quiet: list[float] = []
        flooded: list[float] = []
        try:
            print(f"{'round':>8} {'acks':>6} {'p50 ms':>8} {'p95 ms':>8} {'flood msgs':>11} {'refused':>8} "
                  f"{'server CPU s':>13}")
            for number in range(2 * args.rounds):
                flooding = number % 2 == 1
                process = start_flooder(server.base_url, args.seconds + 2) if flooding else None
                if process is not None:
                    time.sleep(1.5)  # the flood is in full swing before the table is measured
                cpu = cpu_seconds(server.proc.pid)
                latencies = uvloop.run(play_round(server.base_url, args.seconds, number + 1))
                cpu = cpu_seconds(server.proc.pid) - cpu
                result = json.loads(process.communicate(timeout=60)[0]) if process is not None else {}
                (flooded if flooding else quiet).append(p95(latencies))
                print(f"{'flood' if flooding else 'quiet':>8} {len(latencies):>6} "
                      f"{1000 * statistics.median(latencies):>8.1f} {p95(latencies):>8.1f} "
                      f"{result.get('sent', 0):>11} {result.get('cuts', 0):>8} {cpu:>13.2f}")
        finally:
            server.stop()
        log = (Path(tmp) / "server.log").read_text()
        assert "Traceback" not in log, log[-2000:]
    ratio = statistics.median(flooded) / statistics.median(quiet)
    print(f"table p95 with a flooder / without: {statistics.median(flooded):.1f} ms / "
          f"{statistics.median(quiet):.1f} ms = {ratio:.2f} (goal: under 1.20)")


if __name__ == "__main__":
    main()
