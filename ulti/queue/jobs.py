"""One huey instance per deployment and the records of its jobs: a lease while a job runs, its result once.

huey delivers a job to one worker, highest priority first and then oldest first, from a SQLite file
(one machine) or from Redis (several). It does not acknowledge a job, so a worker killed in the middle
of one loses it (docs/queue.md, "What to watch with huey"); the records here close that gap, in the
same storage as the queue so that a worker needs nothing else to reach:

- ``lease:<job>:<attempt>``: a counter the worker running that attempt of the job bumps every
  ``lease_seconds / 4``; the server that asked for the job watches it and, when it has not moved for
  ``lease_seconds`` (by the server's own clock, so no two machines' clocks are compared), enqueues the
  job again as the next attempt;
- a job taken from the queue whose lease never appears (its worker died between taking it and writing
  the lease's first beat) is found by the server too: it is on the queue no more and has no lease, twice
  in a row some time apart, and is enqueued again the same way (``runner.py``);
- ``workers:alive``: every worker process writes a new value there every ``ALIVE_EVERY`` seconds, idle or
  busy, so a server whose job is not taken can tell "busy workers" from "no worker at all";
- ``result:<job>``: written with huey's ``put_if_empty`` (an ``INSERT OR ABORT`` on SQLite, ``HSETNX``
  on Redis), so that of two attempts that both finish only the first result is kept; the server reads
  it once and leaves a marker in its place for a while, so a late attempt finds the job done.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huey import PriorityRedisHuey, SqliteHuey
from huey.api import Huey
from huey.constants import EmptyData

from ulti.queue.pieces import PIECES, resolve

#: the queue's name in its storage (a table's rows on SQLite, a key prefix on Redis)
QUEUE_NAME = "ulti-long-work"
#: the task's name, the same in the server and in every worker
TASK_NAME = "ulti.piece"
#: seconds a job's lease lasts without a renewal before the job is enqueued again
LEASE_SECONDS = 10.0
#: how many times per lease a worker renews it
BEATS_PER_LEASE = 4
#: the key every worker process rewrites while it runs, and how often
ALIVE_KEY = "workers:alive"
ALIVE_EVERY = 0.5
#: the marker left in place of a result that was read (or of a job given up): a late attempt keeps it
DONE = b"done"


@dataclass(frozen=True)
class QueueSpec:
    """Where the queue lives: ``sqlite:<path>`` (one machine) or a ``redis://`` URL (several)."""

    url: str
    lease_seconds: float = LEASE_SECONDS

    @property
    def is_redis(self) -> bool:
        """Whether the queue is on Redis."""
        return self.url.startswith(("redis://", "rediss://", "unix://"))

    def path(self) -> Path:
        """The SQLite file of a ``sqlite:`` queue."""
        if not self.url.startswith("sqlite:"):
            raise ValueError(f"queue: {self.url!r} is neither sqlite:<path> nor a redis:// URL")
        return Path(self.url.removeprefix("sqlite:"))


@dataclass(frozen=True)
class Queue:
    """A huey instance and its one task, which runs a piece of long work."""

    spec: QueueSpec
    huey: Huey
    task: Any  # huey's TaskWrapper (huey has no type hints)

    @property
    def storage(self) -> Any:
        """huey's storage: the queue and the jobs' records."""
        return self.huey.storage

    def enqueue(
        self, job: str, attempt: int, name: str, args: tuple[Any, ...], priority: float, lease: float | None = None,
    ) -> None:
        """Put ``attempt`` of ``job`` on the queue: huey runs a higher ``priority`` first, then the oldest.
        ``lease``: the seconds of this job's lease (a bot's turn has a short one), else the spec's."""
        self.huey.enqueue(self.task.s(job, attempt, name, args, lease, priority=priority))

    def pending_jobs(self) -> set[str]:
        """The ids of the jobs on the queue, not yet taken by a worker (reads the whole queue)."""
        return {str(task.args[0]) for task in self.huey.pending()}

    def depth(self) -> int:
        """Jobs on the queue not yet taken by a worker (every server's)."""
        size: int = self.storage.queue_size()
        return size


def make_queue(spec: QueueSpec, allowed: frozenset[str] = PIECES) -> Queue:
    """The huey instance of ``spec`` with the one task that runs a piece of long work."""
    if spec.is_redis:
        huey: Huey = PriorityRedisHuey(QUEUE_NAME, url=spec.url, results=False)
    else:
        path = spec.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        huey = SqliteHuey(QUEUE_NAME, filename=str(path), results=False, timeout=30)

    def run_piece(job: str, attempt: int, name: str, args: tuple[Any, ...], lease: float | None = None) -> None:
        run_job(huey, spec, allowed, job, attempt, name, args, lease)

    return Queue(spec, huey, huey.task(name=TASK_NAME)(run_piece))


def lease_key(job: str, attempt: int) -> str:
    """The key of the lease of ``attempt`` of ``job``."""
    return f"lease:{job}:{attempt}"


def result_key(job: str) -> str:
    """The key of the result of ``job``."""
    return f"result:{job}"


class Heartbeat:
    """Renews a lease from a thread of its own while the piece runs in the worker's thread."""

    def __init__(self, huey: Huey, key: str, every: float) -> None:
        """Bump ``key`` in ``huey``'s storage every ``every`` seconds, from ``start()`` to ``stop()``."""
        self.huey, self.key, self.every = huey, key, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="ulti-lease", daemon=True)
        self._count = 0

    def _bump(self) -> None:
        self._count += 1
        self.huey.storage.put_data(self.key, str(self._count).encode())

    def _beat(self) -> None:
        while not self._stop.wait(self.every):
            self._bump()

    def start(self) -> None:
        """Take the lease and start renewing it."""
        self._bump()
        self._thread.start()

    def stop(self) -> None:
        """Stop renewing and give the lease back."""
        self._stop.set()
        self._thread.join()
        self.huey.storage.delete_data(self.key)


#: the ``Alive`` beats running in this process, each with the lock it holds while it writes
_BEATING: set[threading.Lock] = set()


def _before_fork() -> None:
    # a fork waits for any beat's write to end: a child forked mid-write would inherit the locks the
    # writing thread held (a connection pool's, a module's import lock) with no thread to release them
    for lock in list(_BEATING):
        lock.acquire()


def _after_fork() -> None:
    for lock in list(_BEATING):
        with contextlib.suppress(RuntimeError):
            lock.release()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork, after_in_child=_after_fork)


class Alive:
    """Rewrites ``ALIVE_KEY`` from a thread of its own while a worker process runs (idle or busy).

    The worker's consumer forks its processes while this thread runs; a fork waits for a write under way
    to end (``os.register_at_fork``), so that no child starts with a lock this thread held."""

    def __init__(self, huey: Huey, every: float = ALIVE_EVERY) -> None:
        """Write a new value to ``huey``'s storage every ``every`` seconds, from ``start()`` on."""
        self.huey, self.every = huey, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="ulti-alive", daemon=True)
        self._me = f"{socket.gethostname()}:{os.getpid()}"
        self._writing = threading.Lock()

    def _beat(self) -> None:
        count = 0
        while True:
            count += 1
            # a storage out of reach for a while (Redis restarting) must not end the beat
            with self._writing, contextlib.suppress(Exception):
                self.huey.storage.put_data(ALIVE_KEY, f"{self._me}:{count}".encode())
            if self._stop.wait(self.every):
                return

    def start(self) -> None:
        """Start writing."""
        _BEATING.add(self._writing)
        self._thread.start()

    def stop(self) -> None:
        """Stop writing."""
        self._stop.set()
        self._thread.join()
        _BEATING.discard(self._writing)


def run_job(
    huey: Huey, spec: QueueSpec, allowed: frozenset[str], job: str, attempt: int, name: str, args: tuple[Any, ...],
    lease: float | None = None,
) -> None:
    """A worker's part of a job: skip it if it is done already, else run it under a lease (``lease``
    seconds, else the spec's) and offer its result (kept only if no other attempt's result came first)."""
    storage = huey.storage
    if storage.has_data_for_key(result_key(job)):
        return  # another attempt finished it, or its asker gave it up
    beat = Heartbeat(huey, lease_key(job, attempt), (lease or spec.lease_seconds) / BEATS_PER_LEASE)
    beat.start()
    started = time.perf_counter()
    try:
        try:
            outcome: tuple[str, Any, float] = ("ok", resolve(name, allowed)(*args), 0.0)
        except Exception as exc:  # the asker gets the exception, as from a process pool
            outcome = ("error", exc, 0.0)
        ran = time.perf_counter() - started
        try:
            payload = pickle.dumps((outcome[0], outcome[1], ran))
        except Exception as exc:  # an exception that does not pickle still reaches the asker, as text
            payload = pickle.dumps(("error", RuntimeError(f"{name}: {exc!r}"), ran))
        storage.put_if_empty(result_key(job), payload)
    finally:
        beat.stop()


def read_result(raw: Any) -> tuple[str, Any, float] | None:
    """A stored result as (``ok`` or ``error``, value or exception, seconds run); None for the marker."""
    if raw is EmptyData or raw is None:
        return None
    data = bytes(raw)
    if data == DONE:
        return None
    outcome: tuple[str, Any, float] = pickle.loads(data)
    return outcome
