"""A worker: huey's consumer running the queue's pieces of long work (``ulti worker``).

The server starts its own workers on one machine (``runner.LocalWorkers``: one process each, at the
lowest CPU priority, ending with the server); ``ulti worker --queue redis://…`` runs them on another
machine at normal priority, since nothing else runs there.
"""

from __future__ import annotations

import logging
import multiprocessing.process

from huey.consumer import Consumer

from ulti.queue.jobs import Alive, QueueSpec, make_queue
from ulti.queue.pieces import PIECES

#: seconds an idle consumer of a SQLite queue first waits before it looks again, and at most (it backs
#: off by ``BACKOFF`` between the two): a hint asked of an idle machine waits about this long at most.
#: A Redis queue is not polled: its consumer blocks on the queue and takes a job at once.
POLL_FIRST = 0.02
POLL_MOST = 0.25
BACKOFF = 1.5


def consumer(spec: QueueSpec, workers: int = 1, extra: frozenset[str] = frozenset()) -> Consumer:
    """huey's consumer of ``spec``: ``workers`` threads if one, else processes (the solver holds the
    interpreter lock, so several pieces at once need several processes); it runs ``PIECES`` and ``extra``."""
    queue = make_queue(spec, PIECES | extra)
    return Consumer(
        queue.huey,
        workers=max(1, workers),
        worker_type="thread" if workers <= 1 else "process",
        periodic=False,
        initial_delay=POLL_FIRST,
        backoff=BACKOFF,
        max_delay=POLL_MOST,
        check_worker_health=True,
    )


def run(
    spec: QueueSpec,
    workers: int = 1,
    extra: frozenset[str] = frozenset(),
    low_priority: bool = False,
    server_pid: int | None = None,
) -> None:
    """Run a consumer until a signal stops it (SIGINT: once the running pieces end; SIGTERM: at once).

    ``low_priority``: give way to everything else and end with the parent process, the server whose
    process id is ``server_pid`` when it says so (a worker it started after it was gone ends at once).
    """
    if low_priority:
        from ulti.server.longwork import lower_priority  # the server's own workers give way like its pool did

        lower_priority(server_pid)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s worker %(process)d %(levelname)s %(message)s")
    running = consumer(spec, workers, extra)
    # servers whose jobs wait can tell busy workers from none (jobs.py); on connections of its own: the
    # consumer forks its processes while this thread runs, and a child whose copy of a connection pool was
    # forked with the pool's lock held by this thread would wait on that lock for ever
    alive = Alive(make_queue(spec, frozenset()).huey)
    alive.start()
    try:
        running.run()
    finally:
        alive.stop()
        _end_pieces_at_once(running)


def _end_pieces_at_once(running: Consumer) -> None:
    """End the worker processes still running a piece when the consumer stops (SIGTERM: at once).

    huey interrupts a process's piece by raising in its Python code, which a piece inside the compiled
    solver reaches only when that solve returns (seconds later); and the interpreter's exit waits for every
    child. A job ended here is not lost: its lease stops moving and another worker takes it (jobs.py).
    After a graceful stop (SIGINT) the processes have ended already and nothing is left to do.
    """
    for process in [p for _, p in running.worker_threads] + [running.scheduler]:
        if isinstance(process, multiprocessing.process.BaseProcess) and process.is_alive():
            process.kill()
            process.join()
