"""Long-work run (``make bench``): does an attacker using every long-work quota slow the tables?

One server process with production settings (long-work quotas, rate limits; only the bot and deal
pauses removed, so a strong bot acts as soon as it has thought). In each round two tables are
measured: a table of three strong bots, the same seeded deals every round (its time per action: from
its first action event to its last in the round, as a spectator receives them, over the actions) and
a table of three scripted players making random legal moves 0.1 s after their turn comes (every
command's time to its acknowledgement).

Rounds come in pairs on a fresh server each (a queue the attacker filled would otherwise keep the next
quiet round busy): a quiet round, then an attack round. The attacker is its own process, at the lowest
CPU priority (its CPU is not the server's), with two guest accounts on each of four addresses, every
account using all its quotas at once: the accuracy of finished 12-deal matches (deal analyses queued
until refused), what-if lines (different ones, so nothing is remembered) as fast as they are answered,
and hints at a learner table of its own (a hint, then a random move, so each hint is a new position).
Refused, it waits the refusal's ``retry_after`` (``--ignore-retry-after``: it asks again at once, which
turns it into a flood of refused requests, the load ``benchmarks/flood_bench.py`` measures).

``--burner``: the attack round's attacker is replaced by one process that only spins the CPU at long
work's priority (``longwork.lower_priority``: nice 19 and ``SCHED_IDLE``), sending no request: what any
long work running beside the tables costs them on this machine, whatever the quotas.

Printed per round: the strong table's median time per action, the human table's acknowledgement p50
and p95, and what the attacker got done and was refused; at the end the medians of the attack rounds
over those of the quiet rounds (the goal: both within 1.20).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
import uvloop

from ulti.client import GameClient, ServerError
from ulti.server.longwork import lower_priority

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.flood_bench import LIVE_ARGS, THINK, p95
from benchmarks.load_bench import cpu_seconds
from ulti.seating import three_players
from ulti.serverprocess import ServerProcess

#: the attacker's addresses (all of 127/8 is loopback) and accounts on each
ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
ACCOUNTS_PER_ADDRESS = 2
#: finished matches the attacker asks the analyses of (12 deals each: more than its quotas allow)
TARGET_MATCHES = 8
RANDOM_BOTS = [{"kind": "bot", "level": "random"}] * 3
#: the strong bots' table's seed
STRONG_SEED = 2026


# ---------------------------------------------------------------- the measured tables


async def human_player(client: GameClient, stop_at: float, latencies: list[float], rng_seed: int) -> None:
    """Play the client's seat until ``stop_at``: a random legal move ``THINK`` s after the turn comes, and
    "Next deal" after each deal; each move's time to its acknowledgement goes to ``latencies``."""
    salt = 0
    while time.monotonic() < stop_at and not client.match_over():
        if not (client.my_turn() or client.must_ready()):
            with contextlib.suppress(TimeoutError):
                await client.wait_for(lambda: client.match_over() or client.my_turn() or client.must_ready(),
                                      max(0.05, stop_at - time.monotonic()))
            continue
        await asyncio.sleep(THINK)  # a quick player (not part of the latency)
        try:
            if client.must_ready():
                await client.ready()
                continue
            if not client.my_turn():
                continue
            salt += 1
            action = client.random_action(f"{rng_seed}:{salt}")
            started = time.perf_counter()
            await client.act(action)
            latencies.append(time.perf_counter() - started)
        except ServerError as exc:
            if exc.code not in ("not_your_turn", "no_deal", "illegal"):
                raise


async def strong_table(base_url: str, stop_at: float, intervals: list[float], name: str) -> None:
    """Watch a fresh table of three strong bots until ``stop_at``; the intervals between its actions."""
    watcher = GameClient(base_url)
    await watcher.login(name)
    # the same seed every round (a practice table may choose it): the same deals, bids and cards, so the
    # rounds compare the same thinking
    config = {"deals": 12, "seats": [{"kind": "bot", "level": "strong"}] * 3, "move_seconds": 0, "seed": STRONG_SEED}
    table_id = (await watcher.http("POST", "/api/tables", config))["table_id"]
    await watcher.connect()
    await watcher.open_table(table_id)
    seen = 0
    last: float | None = None

    def new_action() -> bool:
        nonlocal seen, last
        count = sum(1 for m in watcher.received if m.get("type") == "event" and m["event"]["type"] == "action")
        if count == seen:
            return False
        now = time.monotonic()
        if last is not None:
            intervals.extend([(now - last) / (count - seen)] * (count - seen))
        seen, last = count, now
        return True

    await watcher.http("POST", f"/api/tables/{table_id}/start", {})
    while time.monotonic() < stop_at and not watcher.match_over():
        with contextlib.suppress(TimeoutError):
            await watcher.wait_for(new_action, max(0.05, stop_at - time.monotonic()))
    await watcher.close()


async def measured_round(base_url: str, seconds: float, number: int) -> tuple[list[float], list[float]]:
    """Both measured tables for ``seconds``: the strong table's intervals, the human table's acknowledgements."""
    stop_at = time.monotonic() + seconds
    _, clients = await three_players(base_url, deals=12, start=True, names=f"Round {number} ")
    latencies: list[float] = []
    intervals: list[float] = []
    await asyncio.gather(
        strong_table(base_url, stop_at, intervals, f"Watcher {number}"),
        *(human_player(c, stop_at, latencies, number * 3 + i) for i, c in enumerate(clients)),
    )
    for client in clients:
        await client.close()
    return intervals, latencies


async def finished_matches(base_url: str, count: int) -> list[str]:
    """``count`` 12-deal matches of random bots, played to their end (public: anybody may analyse them)."""
    host = GameClient(base_url)
    await host.login("Organiser")
    tables = []
    for _ in range(count):
        config = {"deals": 12, "seats": RANDOM_BOTS, "move_seconds": 0}
        table_id = (await host.http("POST", "/api/tables", config))["table_id"]
        await host.http("POST", f"/api/tables/{table_id}/start", {})
        tables.append(table_id)
    for table_id in tables:
        while (await host.http("GET", f"/api/tables/{table_id}"))["table"]["status"] != "finished":
            await asyncio.sleep(0.2)
    return tables


# ---------------------------------------------------------------- the attacker (its own process)


class Tally:
    """What the attacker got done and how often it was refused."""

    def __init__(self) -> None:
        """All zero."""
        self.counts: dict[str, int] = {"analyses": 0, "whatif": 0, "hints": 0, "refused": 0, "other": 0}

    def add(self, key: str) -> None:
        """Count one ``key``."""
        self.counts[key] += 1


#: whether the attacker waits the ``retry_after`` of a refusal (``--ignore-retry-after``: it does not, and
#: its requests become a flood of refusals, what ``benchmarks/flood_bench.py`` measures on its own)
HONOUR_RETRY_AFTER = True


async def refused_pause(exc: ServerError) -> None:
    """After a ``work_quota`` refusal: its ``retry_after``, or half a second for an attacker who ignores it."""
    wait = exc.params.get("retry_after") if HONOUR_RETRY_AFTER else None
    await asyncio.sleep(float(wait) if isinstance(wait, int | float) else 0.5)


async def ask_analyses(client: GameClient, tables: list[str], stop_at: float, tally: Tally) -> None:
    """Ask for the accuracy of every target match, again and again as the page polls it: each asking queues
    what the quotas allow."""
    while time.monotonic() < stop_at:
        for table_id in tables:
            try:
                await client.http("GET", f"/api/tables/{table_id}/analysis")
                tally.add("analyses")
            except ServerError as exc:
                tally.add("refused")
                await refused_pause(exc)
        await asyncio.sleep(1.5)  # the page's pace (web/js/view/analysis.js)


async def ask_lines(client: GameClient, tables: list[str], stop_at: float, tally: Tally, rng: random.Random) -> None:
    """What-if lines of the target matches' deals, each a new one, as fast as they are answered."""
    while time.monotonic() < stop_at:
        table_id, deal, at = rng.choice(tables), rng.randrange(12), rng.randrange(8, 40)
        try:
            await client.http("GET", f"/api/tables/{table_id}/deals/{deal}/whatif?at={at}")
            tally.add("whatif")
        except ServerError as exc:
            tally.add("refused" if exc.code == "work_quota" else "whatif")  # a point outside the play costs too
            if exc.code == "work_quota":
                await refused_pause(exc)


async def ask_hints(client: GameClient, stop_at: float, tally: Tally) -> None:
    """At a learner table of its own: on each turn a hint (a new position each time), then a random move."""
    seats = [{"kind": "me"}, *RANDOM_BOTS[:2]]
    table_id = (await client.http("POST", "/api/tables", {"deals": 12, "learner": True, "seats": seats,
                                                          "move_seconds": 0}))["table_id"]
    await client.connect()
    await client.open_table(table_id)
    await client.http("POST", f"/api/tables/{table_id}/start", {})
    asked = 0
    while time.monotonic() < stop_at and not client.match_over():
        with contextlib.suppress(TimeoutError):
            await client.wait_for(lambda: client.my_turn() or client.must_ready() or client.match_over(),
                                  max(0.05, stop_at - time.monotonic()))
        if time.monotonic() >= stop_at:
            break
        with contextlib.suppress(ServerError, TimeoutError):
            if client.must_ready():
                await client.ready()
                continue
            if not client.my_turn():
                continue
        asked += 1
        await client.send({"type": "hint", "id": f"hint-{asked}"})
        answer = await client.wait_for_message(lambda m, n=asked: m.get("id") == f"hint-{n}", 120)
        code = answer.get("code")
        tally.add("hints" if answer["type"] == "hint" else "refused" if code == "work_quota" else "other")
        with contextlib.suppress(ServerError, TimeoutError):
            await client.act(client.random_action())
    await client.close()


async def attack(base_url: str, tables: list[str], seconds: float, kinds: str) -> dict[str, int]:
    """Every account of every address uses all its long-work quotas at once for ``seconds`` (of ``kinds``)."""
    stop_at = time.monotonic() + seconds
    tally = Tally()
    jobs = []
    for a, address in enumerate(ADDRESSES):
        for k in range(ACCOUNTS_PER_ADDRESS):
            transport = httpx2.AsyncHTTPTransport(local_address=address)
            client = GameClient(base_url, httpx2.AsyncClient(transport=transport, timeout=120))
            await client.login(f"Attacker {a}{k}")
            rng = random.Random(a * 10 + k)
            if "analysis" in kinds:
                jobs.append(ask_analyses(client, tables, stop_at, tally))
            if "whatif" in kinds:  # two lines at once: the quota
                jobs += [ask_lines(client, tables, stop_at, tally, rng) for _ in range(2)]
            if "hint" in kinds:
                jobs.append(ask_hints(client, stop_at, tally))
    tasks = [asyncio.ensure_future(job) for job in jobs]
    # a request still waiting when the time is up is dropped (long work waits while the bots think)
    done, pending = await asyncio.wait(tasks, timeout=max(0.0, stop_at - time.monotonic()) + 1)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    tally.counts["other"] += sum(1 for task in done if task.exception() is not None)
    return tally.counts


def run_attacker(base_url: str, tables: list[str], seconds: float, kinds: str) -> None:
    """The attacker's process (``--attacker URL``): attack, then print its tally as JSON (lowest priority:
    on this 2-core box the attacker's own CPU would otherwise be counted against the server)."""
    os.nice(19)
    print(json.dumps(uvloop.run(attack(base_url, tables, seconds, kinds))))


def burn(seconds: float) -> None:
    """The burner process (``--burn SECONDS``): spin the CPU at long work's priority, then print an empty tally."""
    lower_priority()
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        sum(range(10_000))
    print(json.dumps({}))


def start_burner(seconds: float) -> subprocess.Popen[str]:
    """Start the burner process."""
    command = [sys.executable, "-m", "benchmarks.work_bench", "--burn", str(seconds)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent)


def start_attacker(
    base_url: str, tables: list[str], seconds: float, kinds: str, honour: bool
) -> subprocess.Popen[str]:
    """Start the attacker process (``honour``: it waits each refusal's ``retry_after``)."""
    command = [sys.executable, "-m", "benchmarks.work_bench", "--attacker", base_url, "--seconds", str(seconds),
               "--targets", ",".join(tables), "--kinds", kinds, *([] if honour else ["--ignore-retry-after"])]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent)


# ---------------------------------------------------------------- the run


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core, every process), from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds of this process and of its children already waited for (the attacker processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def server_cpu(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far of the server process, its bot workers (normal priority) and its long-work workers."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            children += [int(c) for c in (task / "children").read_text().split()]
    bots = work = 0.0
    for child in children:
        with contextlib.suppress(OSError):
            nice = int(Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[16])
            if nice > 0:
                work += cpu_seconds(child)
            else:
                bots += cpu_seconds(child)
    return cpu_seconds(pid), bots, work


def main() -> None:
    """Quiet and attack rounds in pairs, each pair on a fresh server; print each and the ratios of medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="quiet/attack pairs")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each round")
    parser.add_argument("--burner", action="store_true",
                        help="instead of the attacker, a process spinning the CPU at long work's priority")
    parser.add_argument("--burn", type=float, default=0.0, help=argparse.SUPPRESS)  # the burner process itself
    parser.add_argument("--attacker", default="", help=argparse.SUPPRESS)  # the attacker process itself
    parser.add_argument("--targets", default="", help=argparse.SUPPRESS)
    parser.add_argument("--kinds", default="analysis,whatif,hint", help="the long work the attacker asks for")
    parser.add_argument("--ignore-retry-after", action="store_true",
                        help="the attacker asks again at once after a refusal (a flood of refusals)")
    args = parser.parse_args()
    global HONOUR_RETRY_AFTER
    HONOUR_RETRY_AFTER = not args.ignore_retry_after
    if args.burn:
        burn(args.burn)
        return
    if args.attacker:
        run_attacker(args.attacker, args.targets.split(","), args.seconds, args.kinds)
        return
    per_action: dict[bool, list[float]] = {False: [], True: []}
    ack_p95: dict[bool, list[float]] = {False: [], True: []}
    print(f"{'round':>7} {'strong ms/action':>17} {'actions':>8} {'acks':>6} {'ack p50 ms':>11} {'ack p95 ms':>11} "
          f"{'attacker got / refused':>24} {'CPU s: loop':>9} {'bots':>6} {'long work':>9} {'others':>7}")
    for pair in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/work.db", args=LIVE_ARGS)
            server.start(Path(tmp) / "server.log")
            try:
                targets = uvloop.run(finished_matches(server.base_url, TARGET_MATCHES))
                for attacking in (False, True):
                    process = None
                    if attacking and args.burner:
                        process = start_burner(args.seconds + 3)
                    elif attacking:
                        process = start_attacker(server.base_url, targets, args.seconds + 3, args.kinds,
                                                 not args.ignore_retry_after)
                        time.sleep(3)  # the queue is full and every quota in use before the tables are measured
                    number = 2 * pair + attacking + 1
                    assert server.proc is not None
                    cpu_before = server_cpu(server.proc.pid)
                    machine_before, own_before = machine_busy(), own_cpu()
                    intervals, latencies = uvloop.run(measured_round(server.base_url, args.seconds, number))
                    cpu_after = server_cpu(server.proc.pid)
                    cpu = [after - before for after, before in zip(cpu_after, cpu_before, strict=True)]
                    got = json.loads(process.communicate(timeout=120)[0]) if process is not None else {}
                    # what the rest of the machine (other users' processes) took meanwhile: the noise
                    others = machine_busy() - machine_before - (own_cpu() - own_before) - sum(cpu)
                    # from its first action to its last in the round (the match may end before the round)
                    per_action[attacking].append(1000 * sum(intervals) / max(1, len(intervals)))
                    ack_p95[attacking].append(p95(latencies))
                    done = f"{got.get('analyses', 0)}a {got.get('whatif', 0)}w {got.get('hints', 0)}h" if got else "-"
                    label = ("burner" if args.burner else "attack") if attacking else "quiet"
                    print(f"{label:>7} {per_action[attacking][-1]:>17.1f} "
                          f"{len(intervals):>8} {len(latencies):>6} {1000 * statistics.median(latencies):>11.1f} "
                          f"{ack_p95[attacking][-1]:>11.1f} {done + ' / ' + str(got.get('refused', '-')):>24} "
                          f"{cpu[0]:>9.1f} {cpu[1]:>6.1f} {cpu[2]:>9.1f} {others:>7.1f}")
            finally:
                server.stop()
            log = (Path(tmp) / "server.log").read_text()
            assert "Traceback" not in log, log[-2000:]
    strong = statistics.median(per_action[True]) / statistics.median(per_action[False])
    acks = statistics.median(ack_p95[True]) / statistics.median(ack_p95[False])
    load = "burner" if args.burner else "attacker"
    print(f"strong bots' time per action with the {load} / without: {statistics.median(per_action[True]):.1f} ms / "
          f"{statistics.median(per_action[False]):.1f} ms = {strong:.2f} (goal: within 1.20)")
    print(f"human table's acknowledgement p95 with the {load} / without: {statistics.median(ack_p95[True]):.1f} ms / "
          f"{statistics.median(ack_p95[False]):.1f} ms = {acks:.2f} (goal: within 1.20)")


if __name__ == "__main__":
    main()
