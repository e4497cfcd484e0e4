"""Long work (deal analyses, par replays, what-if lines, hints) runs below every table's bot turns.

A piece that passes the gates below becomes a job on the job queue (``ulti.queue``, docs/queue.md),
done by a worker process at the lowest priority that the server started, or by ``ulti worker`` on
another machine; without a queue (``Settings.long_work_queue = "pool"``) it runs in this process's pool.

The strong bots think in the hub's worker processes (``Hub.process_executor``); long work never goes
there, so a bot's turn never queues behind it. Long work has its own worker processes, and three
rules keep it out of the bots' way:

- **It starts no piece while a bot turn is thinking** in this process's bot workers (``BotTurns``, told
  by the bots' executor), unless it has waited ``PATIENCE`` seconds (strong bots that never rest delay
  long work but do not starve it): a bot's search has the machine to itself but for a piece of long
  work already running, and pieces are small (an analysis prices a few decisions per piece, a par
  replay plays one decision), so that overlap is short.
- **It keeps out of people's way.** While a person acts at a table of this process (an action within
  ``PEOPLE_QUIET`` seconds), a piece other than a hint (a learner at a live table waits for that one)
  waits for a pause in their play, or ``PEOPLE_PATIENCE`` seconds at most. Even at the lowest CPU
  priority a piece running beside the event loop slows its acknowledgements on a small box (a 2-core
  virtual machine measures it: ``benchmarks/work_bench.py --burner``), so on a box where people play
  without pause long work runs one piece per ``PEOPLE_PATIENCE`` (the rest belongs on worker machines).
- **Its processes run at the lowest CPU priority** (Linux's ``SCHED_IDLE`` policy where there is one,
  ``os.nice`` 19 besides): a piece that is running when a bot turn starts, or the event loop, gives way
  to them for the CPU at once rather than after its slice.
- **At most ``processes`` pieces run at once**, handed out by priority: someone waiting for the answer
  (a hint, a what-if line) before background jobs (an analysis chunk, a par decision), oldest first
  within a priority, so an interactive request waits behind one small piece at most, however many
  jobs are queued; the same holds for the jobs a restarted server finds in its store.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import heapq
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: the kinds of long work and their priority (lower runs first): a learner at a live table waits for a hint,
#: someone reviewing a deal for a what-if line, nobody for the rest; the puzzle set's growth
#: (puzzle_growth.py) comes last. It orders the pool's slots, the queue and the pause in people's play.
PRIORITY = {"hint": 0, "whatif": 1, "analysis": 2, "par": 2, "puzzles": 3}
#: the kinds of this level or a lower one (a higher priority) run beside people's play: the hint, whose
#: learner is one of those people
BESIDE_PEOPLE = 0
#: the niceness of the long-work processes: the lowest priority, so anything else on the machine goes first
NICENESS = 19
#: seconds a piece of long work waits for the bots to rest before it starts beside them anyway (at the
#: lowest priority), so that busy bots delay long work but never starve it
PATIENCE = 2.0
#: seconds after a person's action during which long work counts them as playing and waits
PEOPLE_QUIET = 1.0
#: seconds a piece of long work waits for a pause in people's play before it starts anyway
PEOPLE_PATIENCE = 15.0
#: prctl's option asking for a signal when the parent process dies (linux/prctl.h)
PR_SET_PDEATHSIG = 1


def end_with_server(server_pid: int | None = None) -> None:
    """A worker process's initializer (the bots' and long work's): on Linux, end with the server process
    (``server_pid``, when the pool knows it), so that a server killed (kill -9, out of memory) leaves no
    worker behind, computing or idle."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # the server was already gone before the request took effect (the worker was handed to init, or
        # to a subreaper; a server that is itself process 1, in a container, is told apart by its pid)
        gone = os.getppid() != server_pid if server_pid is not None else os.getppid() == 1
        if gone:
            os._exit(0)


def lower_priority(server_pid: int | None = None) -> None:
    """The long-work workers' initializer: give up CPU to every process of normal priority, and end
    with the server process (``end_with_server``; ``server_pid`` when the caller knows it)."""
    os.nice(NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        # runs only on a core nothing else wants: a niced process still takes a slice of a busy core, and
        # the event loop's acknowledgements wait those milliseconds (benchmarks/work_bench.py)
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    end_with_server(server_pid)


class BotTurns:
    """The bot turns thinking in the bots' worker processes now; long work waits until there are none.

    ``started`` is called on the event loop as a turn is handed to a worker; ``ended`` from whatever
    thread sees it finish (the executor's), so the count is locked and the loop is woken safely.
    """

    def __init__(self) -> None:
        """No turn thinking."""
        self._count = 0
        self._lock = threading.Lock()
        self._idle: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def thinking(self) -> int:
        """Bot turns thinking now."""
        return self._count

    def started(self) -> None:
        """A bot turn was handed to a worker (on the event loop)."""
        with self._lock:
            self._count += 1
        if self._idle is not None:
            self._idle.clear()


    def ended(self) -> None:
        """A bot turn finished (any thread)."""
        with self._lock:
            self._count -= 1
            idle = self._count == 0
        if idle and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        if self._count == 0 and self._idle is not None:
            self._idle.set()

    async def wait_idle(self) -> None:
        """Return once no bot turn is thinking (at once if none is)."""
        while self._count > 0:
            if self._idle is None:
                self._loop = asyncio.get_running_loop()
                self._idle = asyncio.Event()
            self._idle.clear()
            if self._count > 0:
                await self._idle.wait()


class PeopleAtPlay:
    """When a person last acted at a table of this process; long work waits for a pause in their play.

    Pieces that wait out their patience while people play on pass one at a time, ``patience`` seconds
    apart, however many are waiting: people who never pause get one piece beside them per ``patience``,
    and that piece is the waiting one of the highest priority (``PRIORITY``: the lowest level), the oldest
    among equals, so a what-if line someone waits for is not kept behind a queue of analysis chunks.
    """

    def __init__(self, quiet: float = PEOPLE_QUIET, clock: Callable[[], float] = time.monotonic) -> None:
        """Nobody has acted yet; an action counts as play for ``quiet`` seconds of ``clock``."""
        self.quiet = quiet
        self.clock = clock
        self._last: float | None = None
        self._forced: float | None = None  # when the last piece passed while people played
        self._waiters: list[tuple[int, int, float]] = []  # (level, order, since) of the calls waiting
        self._order = itertools.count()

    def acted(self) -> None:
        """A person's action was stored (on the event loop)."""
        self._last = self.clock()

    def playing(self) -> bool:
        """Whether a person acted within the last ``quiet`` seconds."""
        return self._last is not None and self.clock() - self._last < self.quiet

    def _pause_in(self) -> float:
        """Seconds until people's play pauses (0 or less: it has)."""
        return -1.0 if self._last is None else self._last + self.quiet - self.clock()

    async def wait_pause(self, patience: float, level: int = 0) -> None:
        """Return once no person has acted for ``quiet`` seconds, or, while they play on, once a waiting
        call has waited ``patience`` seconds, no piece passed in the last ``patience`` seconds, and this
        call is the first waiting by ``level`` (lower first), then by age."""
        me = (level, next(self._order), self.clock())
        heapq.heappush(self._waiters, me)
        try:
            while (pause_in := self._pause_in()) > 0:
                # the forced piece's time: the longest waiter's patience, and ``patience`` after the last one
                longest = min(since for *_, since in self._waiters)
                allowed = max(longest, self._forced if self._forced is not None else longest) + patience
                if self.clock() >= allowed and self._waiters[0] is me:
                    self._forced = self.clock()
                    return
                # a short nap when the slot is due but another waiter is first: it takes it, then we look again
                nap = min(pause_in, allowed - self.clock()) if self.clock() < allowed else min(pause_in, 0.01)
                await asyncio.sleep(nap)
        finally:
            self._waiters.remove(me)
            heapq.heapify(self._waiters)


class CountedExecutor(Executor):
    """An executor that tells ``turns`` of each call it runs (the bots' worker processes)."""

    def __init__(self, inner: Executor, turns: BotTurns) -> None:
        """Calls run in ``inner``; ``turns`` counts them while they run."""
        self.inner = inner
        self.turns = turns

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` in the inner executor, counted until it ends."""
        self.turns.started()
        try:
            future = self.inner.submit(fn, *args, **kwargs)
        except BaseException:
            self.turns.ended()
            raise
        future.add_done_callback(lambda _: self.turns.ended())
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut the inner executor down."""
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


class Runner(Protocol):
    """Where a piece of long work runs once it passed the gates (``ulti.queue.runner.QueueRunner``)."""

    #: jobs on the queue not yet taken by a worker (every server's)
    depth: int
    #: told of each job enqueued again because its worker stopped renewing its lease
    on_requeue: Callable[[], None] | None

    @property
    def workers_missing(self) -> bool:
        """Whether jobs wait with no worker showing life (``ulti.queue.runner.NO_WORKER_SECONDS``)."""
        ...

    async def run(
        self, kind: str, fn: Callable[..., Any], *args: Any, priority: float | None = None,
        lease: float | None = None,
    ) -> tuple[Any, float]:
        """``fn(*args)`` done elsewhere (at ``priority`` if given, else its kind's; under a lease of ``lease``
        seconds if given): its value and the seconds it ran."""
        ...

    def close(self) -> None:
        """Stop what was started."""
        ...


class LongWork:
    """This process's long-work pool and its priority dispatcher (``Settings.long_work_processes``)."""

    def __init__(
        self, processes: int, on_run: Callable[[str], None] | None = None, bots: BotTurns | None = None,
        people: PeopleAtPlay | None = None, queue: Runner | None = None,
    ) -> None:
        """At most ``processes`` calls run at once, each in a low-priority worker process, none starting
        while one of ``bots``' turns is thinking or (hints aside) while ``people`` are playing.

        With ``queue`` (``ulti.queue.runner.QueueRunner``) a call that passes those gates is a job on the
        job queue, done by whichever worker takes it (the server's own or an ``ulti worker`` elsewhere);
        without, it runs in this process's own pool.

        ``on_run`` is told the kind of each call as it starts (the metrics count them); ``timed``, if set,
        of each call that ran: its kind, the seconds it waited before starting and the seconds it ran.
        """
        self.processes = max(1, processes)
        self.on_run = on_run
        self.bots = bots if bots is not None else BotTurns()
        self.people = people if people is not None else PeopleAtPlay()
        self.queue = queue
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._at_gate = 0  # calls waiting for a pause in people's play
        self.timed: Callable[[str, float, float], None] | None = None

    @property
    def waiting(self) -> int:
        """Calls waiting for a worker or for a pause in people's play."""
        return self._at_gate + sum(1 for *_, fut in self._waiting if not fut.done())

    def pool(self) -> ProcessPoolExecutor:
        """The low-priority worker processes (made on first use)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def call(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a long-work worker, once a worker is free and no call of a higher priority waits."""
        asked = time.perf_counter()
        if PRIORITY[kind] > BESIDE_PEOPLE:
            # a pause in people's play first (without holding a worker, so a hint need not wait for it)
            self._at_gate += 1
            try:
                await self.people.wait_pause(PEOPLE_PATIENCE, PRIORITY[kind])
            finally:
                self._at_gate -= 1
        await self._acquire(PRIORITY[kind])
        try:
            # a bot's turn first; but a server whose strong bots never rest still gets its long work done
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.bots.wait_idle(), PATIENCE)
            if self.on_run is not None:
                self.on_run(kind)
            started = time.perf_counter()
            if self.queue is not None:
                value, ran = await self.queue.run(kind, fn, *args)
                if self.timed is not None:  # the wait is the gates' and the queue's, the run the worker's
                    self.timed(kind, time.perf_counter() - asked - ran, ran)
                result: T = value
                return result
            try:
                return await asyncio.get_running_loop().run_in_executor(self.pool(), fn, *args)
            finally:
                if self.timed is not None:
                    self.timed(kind, started - asked, time.perf_counter() - started)
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
        """Stop the workers; calls not started are dropped (a stored job is taken up again after a restart).

        Waits for the piece running, if any (pieces are small): a pool left behind without waiting has its
        workers killed as the server exits, and Python's resource tracker then reports the pool's
        semaphores as leaked."""
        if self.queue is not None:
            self.queue.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
