"""The server's side of the queue: enqueue a piece of long work, watch its lease, take its result once.

``QueueRunner.run`` is what ``LongWork.call`` does once its gates let a piece pass (``longwork.py``):
it gives the job an id, enqueues it with the priority of its kind, and waits. One watcher task per
server process looks at every awaited job's result and lease in one read of the storage (a thread's
SQLite select or one Redis ``HMGET``) every ``POLL`` seconds; a job whose lease stopped moving for
``lease_seconds`` is enqueued again as its next attempt (its worker died), and the first result stored
is the one returned (``jobs.py``). A job that left the queue without a lease ever appearing (its worker
died before its first beat) is enqueued again too, and a job that no worker takes while no worker shows
any life for ``NO_WORKER_SECONDS`` is refused (``no_worker``) rather than awaited for ever.
``LocalWorkers`` are the worker processes the server starts itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from huey.constants import EmptyData

from ulti.queue.jobs import ALIVE_KEY, DONE, QueueSpec, lease_key, make_queue, read_result, result_key
from ulti.queue.pieces import PIECES, name_of
from ulti.server.errors import CommandError

logger = logging.getLogger(__name__)

#: seconds between two looks at the awaited jobs' results and leases
POLL = 0.03
#: seconds between two looks at the queue's depth while this process awaits no job
IDLE_POLL = 1.0
#: seconds a read result's marker stays, so that an attempt finishing late finds its job done
LINGER = 120.0
#: huey's priority of a kind's level in ``longwork.PRIORITY`` (huey runs the highest first)
TOP = 10
#: seconds a job waits untaken while no worker writes ``ALIVE_KEY`` before it is refused; also the bound
#: after which ``workers_missing`` says so (a server's own workers start within a few seconds)
NO_WORKER_SECONDS = 10.0
#: seconds without a lease after which an awaited job is looked for on the queue: gone from it and still
#: without a lease at two such looks, its worker died between taking it and its first beat
UNLEASED_SECONDS = 1.0


def no_worker_error(seconds: float) -> CommandError:
    """The refusal of a job that no worker took: none showed life for ``seconds`` (docs/protocol/errors.md)."""
    return CommandError(
        "no_worker",
        f"no worker is taking long work: none has shown itself for {seconds:.0f} s; try again later",
        params={"seconds": round(seconds)},
    )


@dataclass
class _Awaited:
    """A job this process waits for."""

    future: asyncio.Future[tuple[Any, float]]
    name: str
    args: tuple[Any, ...]
    priority: float
    lease_seconds: float
    attempt: int = 1
    lease: Any = None  # the lease's counter last seen for this attempt
    seen: bool = False  # whether this attempt's lease was ever seen (a worker took it)
    changed: float = field(default_factory=time.monotonic)
    unleased: int = 0  # looks in a row that found this attempt neither on the queue nor leased


class LocalWorkers:
    """The worker processes the server starts on its own machine (``ulti worker … --low-priority``)."""

    def __init__(self, spec: QueueSpec, count: int, extra: frozenset[str] = frozenset()) -> None:
        """``count`` single-piece workers of ``spec``'s queue, started by ``start()``."""
        self.spec, self.count, self.extra = spec, count, extra
        self.processes: list[subprocess.Popen[bytes]] = []

    def command(self) -> list[str]:
        """The command line of one worker."""
        line = [sys.executable, "-m", "ulti", "worker", "--queue", self.spec.url, "--workers", "1",
                "--lease-seconds", str(self.spec.lease_seconds), "--low-priority", "--server-pid", str(os.getpid())]
        for name in sorted(self.extra):
            line += ["--allow-piece", name]
        return line

    def start(self) -> None:
        """Start the workers that are not running (a worker that died is started again)."""
        self.processes = [p for p in self.processes if p.poll() is None]
        while len(self.processes) < self.count:
            self.processes.append(subprocess.Popen(self.command(), stdin=subprocess.DEVNULL))

    def stop(self) -> None:
        """End the workers (a piece they were running is enqueued again by whoever waits for it)."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes = []


class QueueRunner:
    """Runs pieces of long work as jobs on the queue of ``spec``, done by any worker reaching it."""

    def __init__(
        self, spec: QueueSpec, local_workers: int = 1, extra: frozenset[str] = frozenset(),
        priority: Callable[[str], int] | None = None, scratch: Path | None = None,
    ) -> None:
        """The queue of ``spec``; ``local_workers`` workers started with the first job (0: the work is
        left to ``ulti worker``s elsewhere); ``extra`` pieces allowed beside ``PIECES``; ``priority``
        of a kind, lowest first (``longwork.PRIORITY``); ``scratch``, a temporary folder of the queue's
        file, deleted on ``close()``."""
        self.spec = spec
        self.scratch = scratch
        self.allowed = PIECES | extra
        self.queue = make_queue(spec, self.allowed)
        self.workers = LocalWorkers(spec, local_workers, extra)
        self.priority = priority if priority is not None else (lambda kind: 0)
        self._awaited: dict[str, _Awaited] = {}
        self._done: deque[tuple[float, str]] = deque()  # markers to delete after LINGER
        self._marks: list[str] = []  # results read or jobs given up, to mark on the next look
        self._watcher: asyncio.Task[None] | None = None
        #: jobs on the queue, not yet taken by a worker (every server's), as of the last look
        self.depth = 0
        #: attempts enqueued again because a worker's lease stopped
        self.requeued = 0
        #: told of each attempt enqueued again (the metrics count them)
        self.on_requeue: Callable[[], None] | None = None
        #: jobs refused because no worker showed life while they waited
        self.refused = 0
        self._alive: Any = None  # the last value of ALIVE_KEY seen
        self._alive_changed: float | None = None  # when it last changed (this process's clock)
        self._waiting_since: float | None = None  # since when an awaited job waits with no worker's life seen
        self._unleased_look = 0.0  # when the queue was last read for jobs taken without a lease

    @property
    def awaiting(self) -> int:
        """Jobs this process waits for now."""
        return len(self._awaited)

    @property
    def workers_missing(self) -> bool:
        """Whether no worker has shown life for ``NO_WORKER_SECONDS`` since this process last awaited a job
        (False before its first job); it stays so until a worker shows itself."""
        since = self._waiting_since
        return since is not None and time.monotonic() - since > NO_WORKER_SECONDS

    async def run(
        self, kind: str, fn: Callable[..., Any], *args: Any, priority: float | None = None,
        lease: float | None = None,
    ) -> tuple[Any, float]:
        """``fn(*args)`` done by a worker: its value and the seconds the worker ran it; its exception raised
        (``no_worker`` if no worker showed life while it waited untaken).

        Its place on the queue is its kind's (``TOP`` less its level), or ``priority`` (a bot's turn); its
        lease lasts ``lease`` seconds without a renewal (a bot's turn: short), else the spec's."""
        name = name_of(fn, self.allowed)
        job = uuid.uuid4().hex
        place = TOP - self.priority(kind) if priority is None else priority
        seconds = lease if lease is not None else self.spec.lease_seconds
        awaited = _Awaited(asyncio.get_running_loop().create_future(), name, args, place, seconds)
        if self.workers.count:
            self.workers.start()
        await asyncio.to_thread(self.queue.enqueue, job, 1, name, args, awaited.priority, lease)
        self._awaited[job] = awaited
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch(), name="ulti-queue-watch")
        try:
            return await asyncio.shield(awaited.future)
        except asyncio.CancelledError:
            if self._awaited.pop(job, None) is not None:
                self._marks.append(job)  # given up: a worker that has not started it skips it
            raise

    async def _watch(self) -> None:
        # runs from the first job on: every POLL while a job is awaited, else every IDLE_POLL to keep
        # ``depth`` (the metrics' queue depth, which counts every server's jobs) fresh
        while True:
            if not self._awaited and not self._marks:
                await asyncio.sleep(IDLE_POLL)
                with contextlib.suppress(Exception):  # out of reach: the gauge keeps its last figure
                    self.depth = await asyncio.to_thread(self.queue.depth)
                    if self._waiting_since is not None:  # a worker that turns up ends "workers missing"
                        alive = await asyncio.to_thread(self.queue.storage.peek_data, ALIVE_KEY)
                        if alive is not None and alive is not EmptyData and alive != self._alive:
                            self._saw_alive(alive, time.monotonic())
                continue
            jobs = dict(self._awaited)
            keys = [result_key(j) for j in jobs] + [lease_key(j, a.attempt) for j, a in jobs.items()] + [ALIVE_KEY]
            marks, self._marks = self._marks, []
            try:
                found = await asyncio.to_thread(self._look, keys, marks)
            except Exception:
                # the queue's storage is out of reach (Redis restarting, SQLite locked too long): the jobs
                # go on without us meanwhile, and their results wait in the storage; look again later
                logger.warning("job queue unreachable; looking again in %s s", IDLE_POLL, exc_info=True)
                self._marks = marks + self._marks
                await asyncio.sleep(IDLE_POLL)
                continue
            now = time.monotonic()
            self._saw_alive(found.get(ALIVE_KEY), now)
            for job, awaited in jobs.items():
                if self._awaited.get(job) is not awaited:
                    continue  # given up meanwhile
                outcome = read_result(found.get(result_key(job)))
                if outcome is not None:
                    del self._awaited[job]
                    self._marks.append(job)
                    if not awaited.future.done():
                        status, value, ran = outcome
                        if status == "ok":
                            awaited.future.set_result((value, ran))
                        else:
                            awaited.future.set_exception(value)
                    continue
                lease = found.get(lease_key(job, awaited.attempt))
                if lease is not None and lease != awaited.lease:
                    awaited.lease, awaited.seen, awaited.changed, awaited.unleased = lease, True, now, 0
                elif awaited.seen and now - awaited.changed > awaited.lease_seconds:
                    await self._again(job, awaited)
                elif not awaited.seen and self.workers_missing and now - awaited.changed > NO_WORKER_SECONDS:
                    self._refuse(job, awaited)
            await self._look_for_unleased(jobs, now)
            await asyncio.sleep(POLL)

    def _saw_alive(self, value: Any, now: float) -> None:
        """Note ``ALIVE_KEY``'s value: a new one means a worker lives; none for long, with jobs waiting,
        means none does."""
        if value is not None and value != self._alive:
            self._alive, self._alive_changed = value, now
            self._waiting_since = None
        elif self._waiting_since is None:
            # waiting with no life seen since: counted from the later of the last life and this look
            changed = self._alive_changed
            self._waiting_since = now if changed is None else max(changed, now - NO_WORKER_SECONDS / 2)

    def _refuse(self, job: str, awaited: _Awaited) -> None:
        """Fail ``job`` with ``no_worker``; a worker that comes later skips it (it is marked done)."""
        del self._awaited[job]
        self._marks.append(job)
        self.refused += 1
        if not awaited.future.done():
            awaited.future.set_exception(no_worker_error(NO_WORKER_SECONDS))

    async def _look_for_unleased(self, jobs: dict[str, _Awaited], now: float) -> None:
        """Enqueue again the jobs a worker took but died with before its first beat: neither on the queue
        nor leased at two looks ``UNLEASED_SECONDS`` apart (a job run twice is applied once)."""
        suspects = {j: a for j, a in jobs.items() if not a.seen and now - a.changed > UNLEASED_SECONDS
                    and self._awaited.get(j) is a}
        if not suspects or now - self._unleased_look < UNLEASED_SECONDS:
            return
        self._unleased_look = now
        try:
            pending = await asyncio.to_thread(self.queue.pending_jobs)
        except Exception:
            return  # out of reach: the next look tries again
        for job, awaited in suspects.items():
            awaited.unleased = 0 if job in pending else awaited.unleased + 1
            if awaited.unleased >= 2 and self._awaited.get(job) is awaited:
                logger.warning("job %s was taken by a worker that left no lease; enqueuing it again", job)
                await self._again(job, awaited)

    async def _again(self, job: str, awaited: _Awaited) -> None:
        """Enqueue the next attempt of ``job``: its worker stopped renewing the lease (killed, or hung)."""
        old = lease_key(job, awaited.attempt)
        awaited.attempt += 1
        awaited.lease, awaited.seen, awaited.changed, awaited.unleased = None, False, time.monotonic(), 0
        self.requeued += 1
        if self.on_requeue is not None:
            self.on_requeue()

        def again() -> None:
            self.queue.storage.delete_data(old)
            self.queue.enqueue(job, awaited.attempt, awaited.name, awaited.args, awaited.priority,
                               awaited.lease_seconds)

        await asyncio.to_thread(again)

    def _look(self, keys: list[str], marks: list[str]) -> dict[str, Any]:
        """One read of ``keys`` (in a thread); marks read or abandoned jobs done and forgets old marks."""
        storage = self.queue.storage
        for job in marks:
            storage.put_data(result_key(job), DONE)
            self._done.append((time.monotonic() + LINGER, job))
        while self._done and self._done[0][0] < time.monotonic():
            storage.delete_data(result_key(self._done.popleft()[1]))
        found: dict[str, Any] = storage.peek_many(keys) if keys else {}
        self.depth = self.queue.depth()
        return {k.decode() if isinstance(k, bytes) else k: v for k, v in found.items()}

    def close(self) -> None:
        """Stop the local workers; jobs awaited now fail as cancelled."""
        if self._watcher is not None:
            self._watcher.cancel()
        for awaited in self._awaited.values():
            if not awaited.future.done():
                awaited.future.cancel()
        self._awaited.clear()
        self.workers.stop()
        with contextlib.suppress(Exception):
            self.queue.storage.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
