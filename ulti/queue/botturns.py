"""Bots' turns on the job queue (``Settings.bots_on_queue``): an ``Executor`` the hub's bots submit to.

A turn is a job above every piece of long work, and among turns the one whose deadline (its submission
plus the bots' time budget, the same for every turn) is nearest goes first: its huey priority is
``BOT_BASE`` less that deadline in seconds since the epoch, far above long work's few units, and a
float in both storages (SQLite's ``priority real``, Redis's sorted-set score). A turn's lease is short
(``LEASE``, renewed four times within it): a worker killed mid-turn has the turn taken by another while
most of the bot's time budget is left, rather than after a long work's lease, when the bot is already out
of time. Off by default: on one
machine a turn on the queue costs an enqueue and two polls more than a turn in the hub's own processes
(``benchmarks/bot_queue_bench.py``); it is for bots thinking on worker machines of their own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from ulti.server.longwork import Runner

T = TypeVar("T")

#: the priority above which bots' turns sit: any deadline in seconds since the epoch is far below it
BOT_BASE = 1e10
#: seconds a turn's lease lasts without a renewal: a few beats of the worker, a small part of the budget
LEASE = 1.5


class QueueExecutor(Executor):
    """Submits each call as a job of the queue's highest priorities, nearest deadline first."""

    def __init__(self, runner: Runner, budget: float) -> None:
        """Jobs on ``runner``'s queue; a turn's deadline is ``budget`` seconds after its submission."""
        self.runner = runner
        self.budget = budget

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """``fn(*args)`` as a bot's turn on the queue (called on the event loop, as ``run_in_executor``
        does); cancelling the returned future gives the job up."""
        if kwargs:
            raise TypeError("a job on the queue takes positional arguments only")
        loop = asyncio.get_running_loop()
        deadline = time.time() + self.budget
        task = loop.create_task(self.runner.run("bot", fn, *args, priority=BOT_BASE - deadline, lease=LEASE))
        future: Future[T] = Future()

        def settle(done: asyncio.Task[tuple[Any, float]]) -> None:
            if future.done():
                return
            if done.cancelled():
                future.cancel()
            elif (exc := done.exception()) is not None:
                future.set_exception(exc)
            else:
                future.set_result(done.result()[0])

        task.add_done_callback(settle)
        future.add_done_callback(lambda f: loop.call_soon_threadsafe(task.cancel) if f.cancelled() else None)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing of its own to stop: the queue's runner is the desk's."""
