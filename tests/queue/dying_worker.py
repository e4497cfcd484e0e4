"""A real ``ulti worker`` that is killed (SIGKILL, by itself) the moment huey hands it a job, before the
job's lease has its first beat: the window in which a job has left the queue and nobody holds it.

``python -m tests.queue.dying_worker QUEUE_URL LEASE_SECONDS``
"""

from __future__ import annotations

import os
import signal
import sys

from tests.queue.pieces import FAILING, SLOW
from ulti.queue import jobs, worker


def die_before_the_first_beat(_beat: jobs.Heartbeat) -> None:
    """In place of ``Heartbeat.start``: the job is taken and no lease is written yet."""
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    setattr(jobs.Heartbeat, "start", die_before_the_first_beat)  # noqa: B010 (a method replaced for this process)
    worker.run(jobs.QueueSpec(sys.argv[1], float(sys.argv[2])), 1, frozenset({SLOW, FAILING}))
