"""Load run (``make bench``): N concurrent tables of scripted bot clients against one server process.

Every table has three players, each on its own real WebSocket, choosing random legal actions after
a fixed "think" pause (their thinking is not part of the latency). Printed: tables, connections,
actions per second, p50/p99 latency from sending a command to receiving its broadcast event, and the
server's memory per table (RSS growth divided by the tables).

With the ceiling (the default), each round also runs a bare WebSocket server with the same traffic
(``benchmarks/ceiling.py``) at its full speed and, for one process on SQLite, once more paced to the
game run's actions per second; the game server's CPU per action is printed against both.

With ``--parts``, one more run per table count times the server's hot functions from inside
(``benchmarks/cpu_parts.py``) and prints each one's CPU per action: where the server's cost goes.
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
from typing import Any

import httpx2
import uvloop

from ulti.client import GameClient, ServerError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import cpu_parts
from benchmarks.ceiling import CeilingProcess, run_ceiling
from ulti.seating import three_players
from ulti.serverprocess import ServerProcess, free_port
from ulti.throwaway import Postgres, Redis, start_postgres, start_redis

CORES = len(os.sched_getaffinity(0))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid``."""
    user, kernel = cpu_split(pid)
    return user + kernel


def cpu_split(pid: int) -> tuple[float, float]:
    """CPU seconds used so far by process ``pid`` in its own code (user) and in the kernel on its behalf
    (system: its socket writes and reads, the database file's writes)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds_by_kind(servers: list[ServerProcess]) -> dict[str, float]:
    """CPU seconds so far of the server processes (and of that, in the kernel), this load generator, and
    PostgreSQL + Redis."""
    service_pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if command.startswith(("postgres", "redis-server")):
                service_pids.append(int(entry.name))
    splits = [cpu_split(srv.proc.pid) for srv in servers if srv.proc]  # one reading per server for both sums
    return {
        "servers": sum(user + kernel for user, kernel in splits),
        "servers_kernel": sum(kernel for _, kernel in splits),
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
        spread, deals=12, start=True, names=f"load{index}", http_client=http, keep_messages=False, events="patch"
    )
    return clients


def random_action(deal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action (without its seat) read from a seat's wire view: the random bot's
    choice (``ulti.bots.random_bot``), made from the view's ``choices`` without parsing the view."""
    choices = deal["choices"]
    options: list[dict[str, Any]] = []
    if choices["may_pass"]:
        options += [{"action": "pass"}] * 4  # passing often keeps random auctions short
    if choices["may_take"]:
        options.append({"action": "take"})
    if choices["bids"]:
        bid: dict[str, Any] = {"action": "bid", "bid": rng.choice(choices["bids"][:6])}
        if choices["must_discard"]:
            bid["discard"] = rng.sample(deal["hands"][str(deal["seat"])], 2)
        options.append(bid)
    options += [{"action": "trump", "suit": suit} for suit in choices["trumps"]]
    if choices["may_give_up"]:
        options.append({"action": "give_up"})
    if choices["cards"]:
        options.append({"action": "play", "card": rng.choice(choices["cards"])})
    kontra = choices["kontra"]
    if kontra is not None and (not options or rng.random() < 0.3):
        return {"action": "kontra", "parts": [p for p in kontra["parts"] if rng.random() < 0.5]}
    return rng.choice(options)


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
        action = random_action(client.state["deal"], rng)
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


async def run_load(
    tables: int, seconds: float, think: float, processes: int = 0, parts: list[str] | None = None
) -> dict[str, float]:
    """One load run; ``processes`` 0 = one process on SQLite, N = N processes on PostgreSQL and Redis.

    ``parts`` (one process only): the server runs with ``cpu_parts``' timers, and a line per part of its CPU
    per action in the measured window is added to the list.
    """
    with tempfile.TemporaryDirectory() as tmp:
        services: list[Postgres | Redis] = []
        servers: list[ServerProcess] = []
        parts_out = Path(tmp) / "parts.json"
        try:
            if processes == 0:
                launcher = cpu_parts.launcher(parts_out) if parts is not None else ServerProcess.launcher
                servers.append(ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/load.db", launcher=launcher))
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
                if parts is not None:
                    await asyncio.sleep(0.3)  # the timers' file is written every tenth of a second
                    parts_before = cpu_parts.read(parts_out)
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
                if parts is not None:
                    await asyncio.sleep(0.3)
                    parts += cpu_parts.per_action(parts_before, cpu_parts.read(parts_out), max(1, sum(counts)))
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


def run_ceiling_once(tables: int, seconds: float, think: float, rate: float | None = None) -> dict[str, float]:
    """One run of the bare WebSocket server (``benchmarks/ceiling.py``) with the load run's traffic shape;
    ``rate``: its actions held to at most this many per second (the game server's, for the same load)."""
    with tempfile.TemporaryDirectory() as tmp:
        server = CeilingProcess(free_port())
        try:
            server.start(Path(tmp) / "ceiling.log")
            assert server.proc is not None
            pid = server.proc.pid
            return uvloop.run(run_ceiling(server.port, tables, seconds, think, lambda: cpu_split(pid), rate))
        finally:
            server.stop()


def _line(kind: str, r: dict[str, float]) -> str:
    return (
        f"{kind:34s} {int(r['tables']):4d} tables ({3 * int(r['tables'])} sockets): "
        f"{r['actions_per_s']:7.1f} actions/s, p50 {r['p50_ms']:6.1f} ms, p99 {r['p99_ms']:6.1f} ms"
    )


def main() -> None:
    """Print the load figures for each table count (and each process count with --processes).

    With the ceiling (the default), each run of the game server alternates with a run of a bare
    WebSocket server of the same traffic shape (``benchmarks/ceiling.py``), and the medians of the
    rounds are printed with the game server's throughput and p99 as ratios to the ceiling's.
    """
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a scripted player waits before acting")
    parser.add_argument(
        "--processes", type=int, nargs="*", default=[0],
        help="0 = one process on SQLite; N = N processes on PostgreSQL and Redis (e.g. --processes 1 3)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each configuration (medians are printed)")
    parser.add_argument(
        "--no-ceiling", dest="ceiling", action="store_false",
        help="skip the bare WebSocket server run (benchmarks/ceiling.py) that each run is compared with",
    )
    parser.add_argument(
        "--parts", action="store_true",
        help="one more run of one process on SQLite per table count, its server's CPU per action by part "
        "(benchmarks/cpu_parts.py)",
    )
    args = parser.parse_args()
    print(
        "What limits the scaling is printed under each run: the CPU each party used, in cores. When the"
        f" total reaches the {CORES} cores of this machine, more server processes cannot add throughput here."
    )
    print(f"load run: {args.seconds:g} s per run, think {args.think:g} s; latency = command to its broadcast")
    if args.ceiling:
        print(
            "ceiling: a bare WebSocket server (uvicorn sans-I/O websockets on uvloop, orjson; no game, no store)"
            " answering each command with a small event to the table's 3 sockets and an ack, run alternately"
        )
    for processes in args.processes:
        kind = "1 process, SQLite" if processes == 0 else f"{processes} processes, PostgreSQL + Redis"
        for tables in args.tables:
            runs: list[dict[str, float]] = []
            ceilings: list[dict[str, float]] = []
            paced: list[dict[str, float]] = []  # the bare server at each game run's rate
            for _ in range(args.rounds):
                if args.ceiling:
                    ceilings.append(run_ceiling_once(tables, args.seconds, args.think))
                    c = ceilings[-1]
                    print(_line("  ceiling (bare WebSocket server)", c))
                    print(
                        f"{'':34s} CPU in cores: server {c['cpu_servers']:.2f}, load generator {c['cpu_generator']:.2f}"
                        f"; CPU per action: {_per_action(c)}"
                    )
                r = uvloop.run(run_load(tables, args.seconds, args.think, processes))
                runs.append(r)
                print(
                    f"{_line(kind, r)}, {r['kb_per_table']:6.0f} KiB/table (servers' RSS {r['server_rss_mb']:.0f} MiB)"
                )
                busy = r["cpu_servers"] + r["cpu_generator"] + r["cpu_services"]
                print(
                    f"{'':34s} CPU in cores: servers {r['cpu_servers']:.2f}, load generator {r['cpu_generator']:.2f}, "
                    f"PostgreSQL+Redis {r['cpu_services']:.2f} = {busy:.2f} of {CORES} cores; "
                    f"CPU per action: {_per_action(r)}"
                )
                if args.ceiling and processes == 0 and r["actions_per_s"]:
                    paced.append(run_ceiling_once(tables, args.seconds, args.think, r["actions_per_s"]))
                    c = paced[-1]
                    print(_line("  ceiling at the game's rate", c))
                    print(f"{'':34s} CPU in cores: server {c['cpu_servers']:.2f}; CPU per action: {_per_action(c)}")
            if not args.ceiling:
                continue
            game, bare = _medians(runs), _medians(ceilings)
            rounds = f"median of {args.rounds} rounds" if args.rounds > 1 else "1 round"
            print(
                f"{kind:34s} {tables:4d} tables, {rounds}: game {game['actions_per_s']:.1f} actions/s p99 "
                f"{game['p99_ms']:.1f} ms; ceiling {bare['actions_per_s']:.1f} actions/s p99 {bare['p99_ms']:.1f} ms; "
                f"throughput {_ratio(runs, ceilings, 'actions_per_s'):.2f}x the ceiling's, "
                f"p99 {_ratio(runs, ceilings, 'p99_ms'):.1f}x the ceiling's"
            )
            print(_half_ceiling_budget(runs, bare["actions_per_s"], max(processes, 1)))
            if paced:
                print(_cpu_ratios(runs, ceilings, paced))
        if args.parts and processes == 0:
            for tables in args.tables:
                _print_parts(tables, args.seconds, args.think)


def _print_parts(tables: int, seconds: float, think: float) -> None:
    """One more run with the server's parts timed (``cpu_parts``): each part's CPU per action."""
    lines: list[str] = []
    r = uvloop.run(run_load(tables, seconds, think, 0, lines))
    print(
        f"the server's CPU per action by part ({tables} tables, 1 process on SQLite, timers on: {_per_action(r)};"
        " indented parts are inside the one above, and a part's writes inside the broadcast too)"
    )
    for line in lines:
        print("  " + line)


def _per_action(r: dict[str, float]) -> str:
    """The server's and the load generator's CPU time per action (microseconds)."""
    per = 1e6 / r["actions_per_s"] if r["actions_per_s"] else float("nan")
    return f"server {r['cpu_servers'] * per:.0f} us, generator {r['cpu_generator'] * per:.0f} us"


def _half_ceiling_budget(runs: list[dict[str, float]], ceiling: float, processes: int) -> str:
    """What carrying half the ceiling's throughput would leave per action, against what the game used.

    At ``T = ceiling / 2`` actions per second the machine's cores give ``CORES / T`` seconds of CPU per
    action to the servers and the load generator together, and ``processes`` server processes (one
    interpreter each: one core at most for its Python) ``processes / T``. The game's figures are the
    medians of its runs' CPU per action.
    """
    target = ceiling / 2
    if not target:
        return ""
    per = [1e6 / r["actions_per_s"] for r in runs if r["actions_per_s"]]
    server = statistics.median(r["cpu_servers"] * p for r, p in zip(runs, per, strict=True))
    generator = statistics.median(r["cpu_generator"] * p for r, p in zip(runs, per, strict=True))
    servers = "the server" if processes == 1 else f"the {processes} servers"
    return (
        f"{'':34s} half the ceiling ({target:.0f} actions/s) leaves {1e6 * CORES / target:.0f} us of CPU per action on "
        f"{CORES} cores, {servers} at most {1e6 * min(processes, CORES) / target:.0f} us; "
        f"the game used server {server:.0f} us + "
        f"generator {generator:.0f} us = {server + generator:.0f} us"
    )


def _server_us(r: dict[str, float], part: str = "all") -> float:
    """The server processes' CPU microseconds per action of one run: ``all`` of it, or its ``user`` or
    ``kernel`` part."""
    if not r["actions_per_s"]:
        return float("nan")
    seconds = {"all": r["cpu_servers"], "kernel": r["cpu_servers_kernel"],
               "user": r["cpu_servers"] - r["cpu_servers_kernel"]}[part]
    return 1e6 * seconds / r["actions_per_s"]


def _cpu_ratios(runs: list[dict[str, float]], ceilings: list[dict[str, float]], paced: list[dict[str, float]]) -> str:
    """The game server's CPU per action against the bare server's, at full speed and at the game's rate.

    Medians over rounds, each ratio taken within its round. The bare server at full speed carries several
    times the game's actions per second, and a server's CPU per action falls as its load rises (more
    messages per wake of its event loop); at the game's rate both carry the same load.
    """
    game = statistics.median(_server_us(r) for r in runs)
    full = statistics.median(_server_us(c) for c in ceilings)
    same = statistics.median(_server_us(c) for c in paced)
    ratio_full = statistics.median(_server_us(r) / _server_us(c) for r, c in zip(runs, ceilings, strict=True))
    ratio_same = statistics.median(_server_us(r) / _server_us(c) for r, c in zip(runs, paced, strict=True))
    return (
        f"{'':34s} server CPU per action (median of rounds): game {game:.0f} us; bare server at full speed "
        f"{full:.0f} us ({ratio_full:.1f}x), at the game's rate {same:.0f} us ({ratio_same:.1f}x)\n"
        f"{'':34s} of which at the game's rate, in the server's own code (user): {_part_ratio(runs, paced, 'user')}; "
        f"in the kernel (system): {_part_ratio(runs, paced, 'kernel')}"
    )


def _part_ratio(runs: list[dict[str, float]], paced: list[dict[str, float]], part: str) -> str:
    """The game's and the paced bare server's ``part`` (``user`` or ``kernel``) of their CPU per action, medians
    over rounds, and the median of each round's ratio (a round whose bare server had no tick of it has none)."""
    pairs = [(_server_us(r, part), _server_us(c, part)) for r, c in zip(runs, paced, strict=True)]
    ratios = [game / bare for game, bare in pairs if bare]
    ratio = f"{statistics.median(ratios):.1f}x" if ratios else "no ratio"
    return (
        f"game {statistics.median(g for g, _ in pairs):.0f} us, bare {statistics.median(b for _, b in pairs):.0f} us "
        f"({ratio})"
    )


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in runs) for key in ("actions_per_s", "p50_ms", "p99_ms")}


def _ratio(runs: list[dict[str, float]], ceilings: list[dict[str, float]], key: str) -> float:
    """The median over rounds of each run's figure divided by the ceiling run next to it."""
    return statistics.median(r[key] / c[key] for r, c in zip(runs, ceilings, strict=True) if c[key])


if __name__ == "__main__":
    main()
