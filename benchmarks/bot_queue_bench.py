"""A bot's turn in the hub's own bot process against the same turn as a job on the queue (docs/queue.md).

The same decisions (every seat's views of heuristic deals, a spread sample) are asked of a bot level
twice in one run, alternately first: in a one-process pool as ``Hub.process_executor`` makes it, and on
the job queue (``QueueExecutor``, as ``ulti serve --bots-on-queue`` does) with one ``ulti worker`` at
normal priority beside this process. It prints the medians and p95 of the time from the turn's
submission to its answer, the median of the paired differences (what the queue adds to a turn), and how
many turns of each took longer than the bots' pacing (0.7 s), the only ones whose answer comes late.

    .venv/bin/python -m benchmarks.bot_queue_bench --level strong --turns 40
    .venv/bin/python -m benchmarks.bot_queue_bench --queue redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from ulti.analysis.coach import noted_bot_action
from ulti.engine.view import SeatView
from ulti.lab.positions import positions
from ulti.queue.botturns import QueueExecutor
from ulti.queue.jobs import QueueSpec
from ulti.queue.runner import QueueRunner

#: the bots' pacing (``Settings.bot_delay``): a turn thought within it is answered on time
PACING = 0.7


def p95(times: list[float]) -> float:
    """The 95th percentile of ``times``."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def timed(executor: Executor, level: str, view: SeatView, seed: str) -> float:
    """Seconds from submitting a turn to ``executor`` to its answer."""
    began = time.perf_counter()
    await asyncio.get_running_loop().run_in_executor(executor, noted_bot_action, level, view, seed)
    return time.perf_counter() - began


async def compare(level: str, views: list[SeatView], queue_url: str) -> None:
    """Time every view's turn in the pool and on the queue, alternately first, and print both."""
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    runner = QueueRunner(QueueSpec(queue_url), local_workers=0)
    queued = QueueExecutor(runner, 10.0)
    worker = subprocess.Popen([sys.executable, "-m", "ulti", "worker", "--queue", queue_url],
                              stdin=subprocess.DEVNULL)
    try:
        for first in (pool, queued):  # the first turn imports the bots in the worker: not counted
            await timed(first, level, views[0], "warm")
        in_pool: list[float] = []
        on_queue: list[float] = []
        for i, view in enumerate(views):
            seed = f"bench:{i}"
            pair: list[tuple[Executor, list[float]]] = [(pool, in_pool), (queued, on_queue)]
            for executor, times in pair if i % 2 == 0 else pair[::-1]:
                times.append(await timed(executor, level, view, seed))
    finally:
        worker.terminate()
        worker.wait(10)
        runner.close()
        pool.shutdown()
    added = [q - p for p, q in zip(in_pool, on_queue, strict=True)]
    kind = queue_url.split(":")[0]
    print(f"{level}: {len(views)} turns, each in the pool and on the queue ({kind}), alternately first")
    for name, times in (("pool ", in_pool), ("queue", on_queue)):
        late = sum(1 for t in times if t > PACING)
        print(f"  {name}  median {statistics.median(times) * 1000:7.1f} ms  p95 {p95(times) * 1000:7.1f} ms"
              f"  over {PACING} s: {late}")
    print(f"  the queue adds (median of paired differences) {statistics.median(added) * 1000:.1f} ms a turn;"
          f" ratio of medians {statistics.median(on_queue) / statistics.median(in_pool):.2f}")


def main() -> None:
    """Parse the arguments and run the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--queue", default=None, help="redis://… or sqlite:PATH (default: a new SQLite file)")
    args = parser.parse_args()
    views = positions(6, args.seed)
    step = max(1, len(views) // args.turns)
    sample = views[::step][: args.turns]
    with tempfile.TemporaryDirectory() as folder:
        url = args.queue or f"sqlite:{Path(folder) / 'queue.db'}"
        asyncio.run(compare(args.level, sample, url))


if __name__ == "__main__":
    main()
