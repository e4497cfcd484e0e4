"""Load run (``make bench``): N concurrent tables of scripted bot clients against one server process.

Every table has three players, each on its own real WebSocket, choosing random legal actions after
a fixed "think" pause (their thinking is not part of the latency). Printed: tables, connections,
actions per second, p50/p99 latency from sending a command to receiving its broadcast event, and the
server's memory per table (RSS growth divided by the tables).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx2
import uvloop

from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.server.client import GameClient, ServerError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from tests.services import Postgres, Redis, start_postgres, start_redis

CORES = len(os.sched_getaffinity(0))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds_by_kind(servers: list[ServerProcess]) -> dict[str, float]:
    """CPU seconds so far of the server processes, this load generator, and PostgreSQL + Redis."""
    service_pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if command.startswith(("postgres", "redis-server")):
                service_pids.append(int(entry.name))
    return {
        "servers": sum(cpu_seconds(srv.proc.pid) for srv in servers if srv.proc),
        "generator": time.process_time(),
        "services": sum(cpu_seconds(pid) for pid in service_pids),
    }


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def seat_table(bases: list[str], http: httpx2.AsyncClient, index: int) -> list[GameClient]:
    """Create one table with three connected players (spread over the processes) and start it."""
    spread = [bases[(index + i) % len(bases)] for i in range(3)]
    _, clients = await three_players(
        spread, deals=12, start=True, names=f"load{index}", http_client=http, keep_messages=False
    )
    return clients


async def player_loop(client: GameClient, seed: int, think: float, stop_at: float, latencies: list[float]) -> int:
    """Act on every turn after ``think`` seconds until ``stop_at``; return the number of actions."""
    actions = 0
    rng = random.Random(seed)
    while time.monotonic() < stop_at and not client.match_over():
        if not client.my_turn():
            try:
                await client.wait_for(lambda: client.match_over() or client.my_turn(), stop_at - time.monotonic())
            except TimeoutError:
                break
            continue
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        assert client.state is not None
        seq = client.seq
        action = action_to_json(RandomBot(rng).act(SeatView.from_json(client.state["deal"])))
        action.pop("seat")
        start = time.perf_counter()
        try:
            answer = await client.act(action)
        except ServerError:
            await client.wait_for(lambda seq=seq: client.seq != seq, 30)
            continue
        # the broadcast event for this action reached this client before its ack
        event_time = client.event_times.get(answer["seq"])
        if event_time is not None:
            latencies.append(event_time - start)
        actions += 1
    return actions


async def run_load(tables: int, seconds: float, think: float, processes: int = 0) -> dict[str, float]:
    """One load run; ``processes`` 0 = one process on SQLite, N = N processes on PostgreSQL and Redis."""
    with tempfile.TemporaryDirectory() as tmp:
        services: list[Postgres | Redis] = []
        servers: list[ServerProcess] = []
        try:
            if processes == 0:
                servers.append(ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/load.db"))
            else:
                postgres, redis = start_postgres(), start_redis()
                services += [postgres, redis]
                db_url = postgres.create_database("load")
                servers += [
                    ServerProcess(db_url=db_url, args=("--fast", "--redis", redis.url)) for _ in range(processes)
                ]
            for n, srv in enumerate(servers):
                srv.start(Path(tmp) / f"server{n}.log")
            idle_kb = sum(rss_kb(srv.proc.pid) for srv in servers if srv.proc)
            limits = httpx2.Limits(max_connections=50)
            bases = [srv.base_url for srv in servers]
            async with httpx2.AsyncClient(timeout=60, limits=limits) as http:
                all_clients: list[list[GameClient]] = []
                for batch in range(0, tables, 20):
                    all_clients += await asyncio.gather(
                        *(seat_table(bases, http, i) for i in range(batch, min(tables, batch + 20)))
                    )
                # The load generator is not what is measured: keep its garbage collector out of the figures.
                gc.collect()
                gc.freeze()
                latencies: list[float] = []
                cpu_before = cpu_seconds_by_kind(servers)
                start = time.monotonic()
                counts = await asyncio.gather(
                    *(
                        player_loop(c, t * 3 + i, think, start + seconds, latencies)
                        for t, clients in enumerate(all_clients)
                        for i, c in enumerate(clients)
                    )
                )
                elapsed = time.monotonic() - start
                cpu_after = cpu_seconds_by_kind(servers)
                busy_kb = sum(rss_kb(srv.proc.pid) for srv in servers if srv.proc)
                for clients in all_clients:
                    for c in clients:
                        await c.close()
        finally:
            for srv in servers:
                srv.stop()
            for service in services:
                service.stop()
    latencies.sort()
    return {
        "tables": tables,
        "actions_per_s": sum(counts) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "kb_per_table": (busy_kb - idle_kb) / tables,
        "server_rss_mb": busy_kb / 1024,
        **{f"cpu_{kind}": (cpu_after[kind] - cpu_before[kind]) / elapsed for kind in cpu_after},
    }


def main() -> None:
    """Print the load figures for each table count (and each process count with --processes)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a scripted player waits before acting")
    parser.add_argument(
        "--processes", type=int, nargs="*", default=[0],
        help="0 = one process on SQLite; N = N processes on PostgreSQL and Redis (e.g. --processes 1 3)",
    )
    args = parser.parse_args()
    print(
        "What limits the scaling is printed under each run: the CPU each party used, in cores. When the"
        f" total reaches the {CORES} cores of this machine, more server processes cannot add throughput here."
    )
    print(f"load run: {args.seconds:g} s per run, think {args.think:g} s; latency = command to its broadcast")
    for processes in args.processes:
        kind = "1 process, SQLite" if processes == 0 else f"{processes} processes, PostgreSQL + Redis"
        for tables in args.tables:
            r = uvloop.run(run_load(tables, args.seconds, args.think, processes))
            print(
                f"{kind:34s} {r['tables']:4d} tables ({3 * r['tables']} sockets): "
                f"{r['actions_per_s']:7.1f} actions/s, p50 {r['p50_ms']:6.1f} ms, p99 {r['p99_ms']:6.1f} ms, "
                f"{r['kb_per_table']:6.0f} KiB/table (servers' RSS {r['server_rss_mb']:.0f} MiB)"
            )
            busy = r["cpu_servers"] + r["cpu_generator"] + r["cpu_services"]
            print(
                f"{'':34s} CPU in cores: servers {r['cpu_servers']:.2f}, load generator {r['cpu_generator']:.2f}, "
                f"PostgreSQL+Redis {r['cpu_services']:.2f} = {busy:.2f} of {CORES} cores"
            )


if __name__ == "__main__":
    main()
