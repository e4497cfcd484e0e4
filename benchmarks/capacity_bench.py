"""Capacity run (``make bench``): how many people playing two bots each one server process holds.

N tables on one real server process (``ulti serve`` with the production pacing: the bots' 0.7 s, the
1.8 s trick pause, 4 s between deals; only the per-address quotas of a test server, since every
client comes from this machine). At each table one scripted person plays against two bots of a level:
they think like a person, a log-normal time per decision (median ``THINK_MEDIAN`` s, spread
``THINK_SPREAD``) times ``--think``, then play the heuristic bot's choice, and click "Next deal" after
each deal's result. Tables start spread over the first seconds, as people arrive.

Measured from the person's own socket, after a warm-up:

- **a bot's lateness**: when its action arrives, less when its turn began (the arrival of the event
  before it, or the trick pause after the last trick taken, whichever is later) and less its pacing
  (``bot_delay``). The server sends a bot's answer once its pacing has passed, so on a machine with
  room to spare the lateness is near 0; it grows when the bots' worker cannot keep up.
- **the person's acknowledgement**: from sending an action to receiving its ``ack``.
- **CPU per deal per bot**: the bots' worker processes' CPU over the deals the bots played in the
  window (a deal in progress counts by its cards played, 30 to a deal).

N doubles (``--tables``) until the bots' lateness p95 reaches 0.5 s or the acknowledgement p99 reaches
50 ms, then one step halfway between the last N that held and the first that did not. Printed per
level: each step, then the largest N that held. What limits it: the CPU in cores of the server's
event loop, the bots' workers, the load generator and the rest of the machine during the first step
that did not hold (or the last step), and (with py-spy installed) a sampled profile of the server and
its workers there, by the function each sample was in.

Every step runs on a fresh server with its own SQLite file. The box this runs on may be shared: the
"rest of the machine" column says how much CPU others took meanwhile (py-spy's own sampling among them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop

from ulti.client import GameClient, ServerError
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.server.config import Settings
from ulti.server.tablebots import bot_action

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.work_bench import machine_busy, server_cpu
from ulti.serverprocess import ServerProcess

#: the production pacing (``ulti.server.config.Settings``), stated so the lateness is measured against it
BOT_DELAY = 0.7
TRICK_PAUSE = 1.8
BETWEEN_DEALS = 4.0
#: a person's seconds per decision: the median and the log-normal spread (sigma)
THINK_MEDIAN = 3.0
THINK_SPREAD = 0.6
#: the limits of a table that still plays well: a bot's lateness p95 and a person's acknowledgement p99
LATENESS_P95_LIMIT = 0.5
ACK_P99_LIMIT = 0.050
#: the server's worker processes for the bots by default (``Settings.bot_processes``: one per core); the run
#: measures one process beside it, to show what the others add
BOT_WORKERS = Settings().bot_processes
#: cards played in a deal that is played to its end
CARDS_PER_DEAL = 30
#: seconds over which the tables start, as people arrive
ARRIVAL_SECONDS = 5.0


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (inclusive method; NaN for none, the value itself for one)."""
    if not values:
        return math.nan
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


@dataclass
class TableLog:
    """What one person's socket saw of their table inside the measured window."""

    lateness: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    bot_moves: int = 0
    #: deals played so far (a deal in progress by its cards played) at the window's start and end
    progress_start: float | None = None
    progress_end: float = 0.0
    # the running state of the event stream
    last_event_at: float | None = None
    last_trick_at: float | None = None
    cards_in_deal: int = 0
    deals_done: int = 0

    def see(self, message: dict[str, Any], window: tuple[float, float]) -> None:
        """Account for one event message (arrival time ``_t``) of the person's socket."""
        arrived, event = message["_t"], message["event"]
        inside = window[0] <= arrived < window[1]
        if event["type"] == "deal":
            self.cards_in_deal, self.last_trick_at = 0, None
        elif event["type"] == "action":
            if event.get("by") == "bot" and self.last_event_at is not None and inside:
                # the server's rule (actor._bot_move): the turn begins at the event before, or once the
                # last trick taken has been shown for the trick pause; the answer is due a pacing later
                began = self.last_event_at
                if self.last_trick_at is not None:
                    began = max(began, self.last_trick_at + TRICK_PAUSE)
                self.lateness.append(arrived - began - BOT_DELAY)
                self.bot_moves += 1
            if event["action"]["action"] == "play":
                self.cards_in_deal += 1
                if self.cards_in_deal % 3 == 0:
                    self.last_trick_at = arrived
            state = message.get("_state") or {}
            if (state.get("deal") or {}).get("phase") == "done":
                self.deals_done += 1
                self.cards_in_deal = 0
        self.last_event_at = arrived
        progress = self.deals_done + self.cards_in_deal / CARDS_PER_DEAL
        if inside:
            if self.progress_start is None:
                self.progress_start = progress
            self.progress_end = progress

    @property
    def deals(self) -> float:
        """Deals played in the window."""
        return 0.0 if self.progress_start is None else self.progress_end - self.progress_start


def drain(client: GameClient, log: TableLog, window: tuple[float, float]) -> None:
    """Account for the events the client received since the last call (and forget them)."""
    messages = client.received[:]
    del client.received[: len(messages)]
    for message in messages:
        if message.get("type") == "event":
            log.see(message, window)


async def person(
    base_url: str, number: int, level: str, think: float, arrive: float, window: tuple[float, float],
) -> TableLog:
    """One person's table: arrive after ``arrive`` s, sit with two bots of ``level``, play until the window ends."""
    await asyncio.sleep(arrive)
    client = GameClient(base_url, keep_messages=True, events="patch")
    await client.login(f"Person {number}")
    seats = [{"kind": "me"}, {"kind": "bot", "level": level}, {"kind": "bot", "level": level}]
    table_id = (await client.http("POST", "/api/tables", {"deals": 12, "seats": seats, "move_seconds": 0}))["table_id"]
    await client.connect()
    await client.open_table(table_id)
    await client.http("POST", f"/api/tables/{table_id}/start", {})
    rng = random.Random(number)
    log = TableLog()
    stop_at = window[1]
    try:
        while time.perf_counter() < stop_at and not client.match_over():
            with contextlib.suppress(TimeoutError):
                await client.wait_for(lambda: client.match_over() or client.my_turn() or client.must_ready(),
                                      max(0.05, stop_at - time.perf_counter()))
            drain(client, log, window)
            if not (client.my_turn() or client.must_ready()):
                continue
            # a person thinks (not part of any measured time), at most until the window ends
            pause = think * rng.lognormvariate(math.log(THINK_MEDIAN), THINK_SPREAD)
            await asyncio.sleep(max(0.0, min(pause, stop_at - time.perf_counter())))
            if time.perf_counter() >= stop_at:
                break
            try:
                if client.must_ready():
                    await client.ready()
                elif client.my_turn():
                    assert client.state is not None
                    deal = client.state["deal"]
                    seed = f"{number}:{client.state['deal_index']}:{len(deal['log'])}"
                    action = action_to_json(bot_action("heuristic", SeatView.from_json(deal), seed))
                    action.pop("seat")
                    sent = time.perf_counter()
                    await client.act(action)
                    if window[0] <= sent < stop_at:
                        log.acks.append(time.perf_counter() - sent)
            except ServerError as exc:
                if exc.code not in ("not_your_turn", "no_deal", "illegal", "chain_open"):
                    raise
        drain(client, log, window)
    finally:
        await client.close()
    return log


async def play_step(base_url: str, tables: int, level: str, think: float, warmup: float, seconds: float,
                    ) -> list[TableLog]:
    """``tables`` people at tables of their own; their logs of the window from ``warmup`` to ``warmup + seconds``."""
    start = time.perf_counter()
    window = (start + warmup, start + warmup + seconds)
    arrivals = random.Random(tables).sample(range(1000), tables) if tables <= 1000 else list(range(tables))
    return list(await asyncio.gather(*(
        person(base_url, i, level, think, ARRIVAL_SECONDS * arrivals[i] / 1000, window) for i in range(tables)
    )))


# ---------------------------------------------------------------- CPU and the profile


def cpu_by_part(server_pid: int) -> dict[str, float]:
    """CPU seconds so far of the server process, its bot workers, its long-work workers, this load
    generator and the whole machine."""
    server, bots, work = server_cpu(server_pid)
    return {"server": server, "bots": bots, "work": work, "generator": time.process_time(),
            "machine": machine_busy()}


def py_spy() -> str | None:
    """The py-spy sampler beside this interpreter or on the PATH, if installed."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


def start_profile(server_pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """Sample the server and its workers with py-spy for ``seconds`` (None without py-spy)."""
    sampler = py_spy()
    if sampler is None:
        return None
    command = [sampler, "record", "--pid", str(server_pid), "--subprocesses", "--nonblocking", "--rate", "50",
               "--duration", str(max(1, int(seconds))), "--format", "raw", "--output", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def profile_summary(raw: Path, top: int = 6) -> list[str]:
    """Lines naming, for the server process and for its workers, the functions most samples were in
    (py-spy's raw form: one ``frame;frame;...;leaf count`` line per distinct stack, leaf last)."""
    if not raw.exists():
        return ["  (no profile: py-spy could not sample; ptrace may be forbidden here)"]
    parts: dict[str, Counter[str]] = {"server": Counter(), "workers": Counter()}
    for line in raw.read_text().splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        # with --subprocesses a stack begins with the processes: "process PID:...;process CHILD:...;frames"
        frames = stack.split(";")
        processes = [f for f in frames if f.startswith("process ")]
        if "resource_tracker" in stack:
            continue  # multiprocessing's bookkeeping process
        part = "workers" if len(processes) > 1 else "server"
        leaf = frames[-1] if not frames[-1].startswith("process ") else "(no Python frame: native code)"
        parts[part][leaf] += int(number)
    lines: list[str] = []
    for part, counts in parts.items():
        total = sum(counts.values())
        if not total:
            continue
        lines.append(f"  {part}: {total} samples of a running thread; the functions they were in:")
        for leaf, samples in counts.most_common(top):
            lines.append(f"    {100 * samples / total:5.1f}%  {leaf[:110]}")
    return lines


# ---------------------------------------------------------------- the run


@dataclass
class Step:
    """One step's figures."""

    tables: int
    #: the server's bot worker processes
    workers: int
    #: every bot answer's lateness and every acknowledgement's time in the window, in seconds
    lateness: list[float]
    acks: list[float]
    deals: float
    cpu_per_deal_per_bot: float
    cores: dict[str, float]
    profile: list[str]

    @property
    def lateness_p95(self) -> float:
        """The bots' lateness p95, in seconds."""
        return quantile(self.lateness, 0.95)

    @property
    def ack_p99(self) -> float:
        """The person's acknowledgement p99, in seconds."""
        return quantile(self.acks, 0.99)

    @property
    def holds(self) -> bool:
        """Whether the bots answered on time and the person's acknowledgements were quick."""
        return self.lateness_p95 < LATENESS_P95_LIMIT and self.ack_p99 < ACK_P99_LIMIT


def run_step(tables: int, level: str, workers: int, args: argparse.Namespace) -> Step:
    """``tables`` tables of ``level`` on a fresh server with ``workers`` bot processes, for one measured window."""
    server_args = ("--fast", "--bot-delay", str(BOT_DELAY), "--trick-pause", str(TRICK_PAUSE),
                   "--between-deals", str(BETWEEN_DEALS), "--result-seconds", "120", "--disconnect-grace", "600",
                   "--bot-processes", str(workers))
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/capacity.db", args=server_args)
        server.start(Path(tmp) / "server.log")
        assert server.proc is not None
        pid = server.proc.pid
        try:
            # the CPU and the profile over the measured window (the warm-up is left out)
            loop_done: list[TableLog] = []

            async def measured() -> None:
                task = asyncio.ensure_future(play_step(server.base_url, tables, level, args.think, args.warmup,
                                                       args.seconds))
                await asyncio.sleep(args.warmup)
                before, began = cpu_by_part(pid), time.perf_counter()
                sampler = start_profile(pid, args.seconds, Path(tmp) / "profile.txt") if args.profile else None
                loop_done.extend(await task)
                after = cpu_by_part(pid)
                if sampler is not None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        sampler.wait(30)
                    if sampler.poll() is None:
                        sampler.kill()
                        sampler.wait()
                cpu.update({k: after[k] - before[k] for k in after})
                cpu["elapsed"] = time.perf_counter() - began

            cpu: dict[str, float] = {}
            uvloop.run(measured())
            profile = profile_summary(Path(tmp) / "profile.txt") if args.profile and py_spy() else []
        finally:
            server.stop()
        log = (Path(tmp) / "server.log").read_text()
        assert "Traceback" not in log, log[-3000:]
    logs = loop_done
    lateness = [x for t in logs for x in t.lateness]
    acks = [x for t in logs for x in t.acks]
    deals = sum(t.deals for t in logs)
    seconds = cpu["elapsed"]  # the CPU was read from the window's start to the last table's end
    ours = cpu["server"] + cpu["bots"] + cpu["work"] + cpu["generator"]
    cores = {"server loop": cpu["server"] / seconds, "bot workers": cpu["bots"] / seconds,
             "long work": cpu["work"] / seconds, "load generator": cpu["generator"] / seconds,
             "rest of machine": max(0.0, cpu["machine"] - ours) / seconds}
    return Step(tables=tables, workers=workers, lateness=lateness, acks=acks, deals=deals,
                cpu_per_deal_per_bot=cpu["bots"] / (2 * deals) if deals else math.nan, cores=cores, profile=profile)


def print_step(level: str, step: Step) -> None:
    """One line of the step table."""
    print(f"{level:>7} {step.workers:>7} {step.tables:>6} {1000 * step.lateness_p95:>13.0f} {len(step.lateness):>9} "
          f"{1000 * step.ack_p99:>11.1f} {len(step.acks):>6} {step.deals:>7.1f} {step.cpu_per_deal_per_bot:>13.2f} "
          f"{step.cores['server loop']:>6.2f} {step.cores['bot workers']:>6.2f} {step.cores['load generator']:>6.2f} "
          f"{step.cores['rest of machine']:>6.2f} {'yes' if step.holds else 'no':>6}", flush=True)


def verdict(step: Step, cores: int | None = None) -> str:
    """What held a step back, from where the CPU went on ``cores`` (default: this machine's): other
    processes, the bots' workers, the event loop, a full machine, or turns queued in too few workers."""
    cores = cores or os.cpu_count() or 1
    if step.cores["rest of machine"] > cores / 2:
        return (f"other processes took {step.cores['rest of machine']:.2f} of {cores} cores: the bots' worker got "
                f"{step.cores['bot workers']:.2f}, so this step measures the machine's load more than the server")
    if step.cores["bot workers"] >= min(step.workers, cores) * 0.85:
        return (f"the bots' worker {'process is' if step.workers == 1 else 'processes are'} busy "
                f"({step.cores['bot workers']:.2f} cores of {step.workers}): the bots' thinking")
    if step.cores["server loop"] >= 0.85:
        return f"the server's event loop is busy ({step.cores['server loop']:.2f} cores)"
    used = sum(step.cores.values())
    if used >= cores * 0.75:
        return (f"the machine is nearly full ({used:.2f} of {cores} cores, the bots' workers "
                f"{step.cores['bot workers']:.2f}): turns wait for a core in bursts")
    if step.workers < cores:
        return (f"the bots' turns queue behind one another in {step.workers} worker "
                f"{'process' if step.workers == 1 else 'processes'} (one long decision holds up the tables "
                f"after it) while {cores - used:.2f} cores sit idle: more bot processes")
    return "no part is saturated: the lateness comes from waiting for the CPU, not from one busy part"


def capacity(level: str, workers: int, args: argparse.Namespace) -> tuple[Step | None, Step]:
    """Raise N for ``level`` with ``workers`` bot processes until a step does not hold; the largest step
    that held and the limiting step."""
    held: Step | None = None
    last: Step | None = None
    for tables in args.tables:
        last = run_step(tables, level, workers, args)
        print_step(level, last)
        if not last.holds:
            break
        held = last
    assert last is not None
    if not last.holds and held is not None and last.tables - held.tables > 1:
        middle = run_step((held.tables + last.tables) // 2, level, workers, args)
        print_step(level, middle)
        if middle.holds:
            held = middle
        else:
            last = middle
    return held, last


def doubling(limit: int) -> list[int]:
    """1, 2, 4, ... up to ``limit``."""
    return [2**i for i in range(int(math.log2(max(1, limit))) + 1)]


def main() -> None:
    """Raise N per level until the bots answer late; print the steps, the capacity and what limits it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["strong", "expert"], help="bot levels to measure")
    parser.add_argument("--tables", type=int, nargs="+", default=None,
                        help="the N to try in order (default: 1, 2, 4, ... up to --max-tables)")
    parser.add_argument("--max-tables", type=int, default=128, help="largest N of the default doubling")
    parser.add_argument("--think", type=float, default=1.0,
                        help=f"scale of the person's thinking (1: a median of {THINK_MEDIAN} s per decision)")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of each step left out of the figures")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds of each step")
    parser.add_argument("--bot-processes", type=int, nargs="+", default=None, metavar="N",
                        help=f"the server's bot worker processes to measure, each in turn (default: 1 and"
                             f" {BOT_WORKERS}, the server's default)")
    parser.add_argument("--profile", action=argparse.BooleanOptionalAction, default=True,
                        help="sample the server and its workers with py-spy, if installed")
    args = parser.parse_args()
    args.tables = sorted(set(args.tables)) if args.tables else doubling(args.max_tables)
    args.warmup = max(args.warmup, ARRIVAL_SECONDS + 1)
    counts = args.bot_processes or sorted({1, BOT_WORKERS})
    print(f"capacity: one server process, people thinking a median {THINK_MEDIAN * args.think:.1f} s per decision, "
          f"bots paced {BOT_DELAY} s, trick pause {TRICK_PAUSE} s; {os.cpu_count()} cores; a step holds while the "
          f"bots' lateness p95 < {1000 * LATENESS_P95_LIMIT:.0f} ms and the ack p99 < {1000 * ACK_P99_LIMIT:.0f} ms")
    print(f"{'level':>7} {'procs':>7} {'tables':>6} {'late p95 ms':>13} {'bot moves':>9} {'ack p99 ms':>11} "
          f"{'acks':>6} {'deals':>7} {'CPU s/deal/bot':>13} {'cores: loop':>6} {'bots':>6} {'gen':>6} {'others':>6} "
          f"{'holds':>6}")
    results = {(level, workers): capacity(level, workers, args) for level in args.levels for workers in counts}
    print()
    print(f"{'level':>7} {'bot procs':>9} {'largest N':>9} {'late p95 ms':>12} {'ack p99 ms':>11} "
          f"{'CPU s/deal/bot':>15}")
    for (level, workers), (held, _) in results.items():
        if held is None:
            print(f"{level:>7} {workers:>9} {'none':>9} (even one table did not hold)")
        else:
            print(f"{level:>7} {workers:>9} {held.tables:>9} {1000 * held.lateness_p95:>12.0f} "
                  f"{1000 * held.ack_p99:>11.1f} {held.cpu_per_deal_per_bot:>15.2f}")
    for (level, workers), (_, limit) in results.items():
        which = "the first step that did not hold" if not limit.holds else "the largest step tried (it held)"
        print(f"\nwhat limits {level} with {workers} bot processes (N={limit.tables}, {which}): CPU in cores, "
              f"of {os.cpu_count()}: "
              + ", ".join(f"{part} {cores:.2f}" for part, cores in limit.cores.items()))
        print(f"  {verdict(limit)}")
        if limit.profile:
            print("  py-spy counts a thread waiting in native code (uvloop's poll, a queue's get) as running:"
                  " read these shares against the cores above")
        for line in limit.profile:
            print(line)


if __name__ == "__main__":
    main()
