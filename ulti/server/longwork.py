"""Long work (deal analyses, par replays, what-if lines, hints) runs below every table's bot turns.

The strong bots think in the hub's worker processes (``Hub.process_executor``); long work never goes
there. It has its own worker processes, started with the lowest CPU priority the OS gives (``os.nice``
19 in each worker's initializer), so that whenever a bot's search, the event loop or any other
process of normal priority wants a core, the kernel gives it that core and the long work only gets
what is left. A bot's turn therefore never queues behind long work (it is in another pool), and
cannot lose CPU to it either.

In front of that pool a small dispatcher keeps at most ``processes`` calls in flight and hands free
workers out by priority: someone waiting for the answer (a hint, a what-if line) before background
jobs (an analysis chunk, a par decision), oldest first within a priority. Background jobs are cut
into small calls (an analysis prices a few decisions per call, a par replay plays one decision), so
an interactive request waits behind one small call at most, however many jobs are queued; the same
holds for the jobs a restarted server finds in its store.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

#: the kinds of long work and their priority (lower runs first): a person waits for the first two
PRIORITY = {"hint": 0, "whatif": 0, "analysis": 1, "par": 1}
#: the niceness of the long-work processes: the lowest priority, so anything else on the machine goes first
NICENESS = 19


def _lower_priority() -> None:
    """The long-work workers' initializer: give up CPU to every process of normal priority."""
    os.nice(NICENESS)


class LongWork:
    """This process's long-work pool and its priority dispatcher (``Settings.long_work_processes``)."""

    def __init__(self, processes: int, on_run: Callable[[str], None] | None = None) -> None:
        """At most ``processes`` calls run at once, each in a low-priority worker process.

        ``on_run`` is told the kind of each call as it starts (the metrics count them).
        """
        self.processes = max(1, processes)
        self.on_run = on_run
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        """Calls waiting for a worker."""
        return sum(1 for *_, fut in self._waiting if not fut.done())

    def pool(self) -> ProcessPoolExecutor:
        """The low-priority worker processes (made on first use)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return self._pool

    async def call(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a long-work worker, once a worker is free and no call of a higher priority waits."""
        await self._acquire(PRIORITY[kind])
        try:
            if self.on_run is not None:
                self.on_run(kind)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool(), fn, *args)
        finally:
            self._release()

    async def _acquire(self, priority: int) -> None:
        if self._busy < self.processes and not self._waiting:
            self._busy += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # the slot was handed over just as the caller gave up: pass it on
            raise

    def _release(self) -> None:
        # hand the slot to the first live waiter (by priority, then age); else free it
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return
        self._busy -= 1

    def close(self) -> None:
        """Stop the workers; calls not started are dropped (a stored job is taken up again after a restart)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
