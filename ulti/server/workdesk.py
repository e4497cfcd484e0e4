"""The front desk of long work: the low-priority pool, the quotas and the answers remembered.

One ``Desk`` per hub (``Hub.desk``): the analysis queue (``analysis.AnalysisJobs``), the what-if route
and the hint message all go through it, so that every piece of long work runs below the bots' turns
(``longwork.py``) and within its asker's quotas (``workquota.py``), and an identical question asked
again (a what-if line, a hint for the same position) is answered from memory instead of computed again.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from ulti.queue.jobs import QueueSpec
from ulti.queue.runner import QueueRunner
from ulti.server.config import Settings
from ulti.server.longwork import PRIORITY, BotTurns, LongWork, PeopleAtPlay, Runner
from ulti.server.workquota import WorkLimiter, WorkQuotas

#: the name of the embedded queue's SQLite file, beside the store's (or in a folder of its own)
QUEUE_FILE = "ulti-queue.db"
#: the prefix of the temporary folder of a queue without a store's folder to sit in
SCRATCH_PREFIX = "ulti-queue-"


def queue_url(settings: Settings) -> str | None:
    """Where long work is queued (``Settings.long_work_queue``); None: this process's own pool."""
    if settings.long_work_queue == "pool":
        return None
    if settings.long_work_queue is not None:
        return settings.long_work_queue
    if settings.redis_url is not None:
        return settings.redis_url
    url = make_url(settings.db_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return f"sqlite:{Path(url.database).with_name(QUEUE_FILE)}"
    # an in-memory store (tests) or a PostgreSQL one on one machine: a file of this process's own, in a
    # folder the runner deletes as it closes
    return f"sqlite:{Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX)) / QUEUE_FILE}"


def queue_runner(settings: Settings) -> Runner | None:
    """The job queue's runner of ``settings`` with the server's own workers, or None for the pool."""
    url = queue_url(settings)
    if url is None:
        return None
    local = settings.long_work_processes if settings.long_work_local else 0
    spec = QueueSpec(url)
    scratch = None
    if settings.long_work_queue is None and not spec.is_redis and spec.path().parent.name.startswith(SCRATCH_PREFIX):
        scratch = spec.path().parent
    return QueueRunner(spec, local, priority=PRIORITY.__getitem__, scratch=scratch)


class Memo:
    """A bounded map of recent answers; the least recently used is forgotten first."""

    def __init__(self, size: int) -> None:
        """Room for ``size`` answers."""
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any | None:
        """The answer remembered for ``key``, or None."""
        if key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        """Remember ``value`` for ``key``."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        """How many answers are remembered."""
        return len(self._items)


@dataclass(frozen=True)
class Asker:
    """Who asks for long work: the session's player (None: no session) and the client's address."""

    player_id: str | None
    address: str


class Desk:
    """This process's long work: where it runs, what each asker may have, what is remembered."""

    def __init__(
        self, processes: int, quotas: WorkQuotas, on_run: Callable[[str], None] | None = None,
        bots: BotTurns | None = None, people: PeopleAtPlay | None = None, queue: Runner | None = None,
    ) -> None:
        """A pool of ``processes`` low-priority workers giving way to ``bots``' turns and ``people``'s play
        (or, with ``queue``, at most ``processes`` jobs at once on the job queue), the counters of
        ``quotas``, an empty memory."""
        self.work = LongWork(processes, on_run, bots, people, queue)
        self.limiter = WorkLimiter(quotas)
        self.memo = Memo(quotas.memo_entries)
        self._computing: dict[Hashable, asyncio.Future[Any]] = {}

    def has(self, key: Hashable) -> bool:
        """Whether the answer to ``key`` is remembered or being computed (asking for it starts no work)."""
        return key in self._computing or self.memo.get(key) is not None

    async def answer(self, key: Hashable, compute: Callable[[], Awaitable[Any]]) -> Any:
        """The answer to ``key``: remembered, or awaited from the computation already running for it, or
        ``compute()``-d now and remembered. Identical questions asked together are computed once."""
        known = self.memo.get(key)
        if known is not None:
            return known
        running = self._computing.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        # nobody else may be waiting: a refusal passed on to nobody must not be logged as never retrieved
        future.add_done_callback(lambda f: None if f.cancelled() else f.exception())
        self._computing[key] = future
        try:
            value = await compute()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._computing[key]
        future.set_result(value)
        self.memo.put(key, value)
        return value

    def close(self) -> None:
        """Stop the workers."""
        self.work.close()
