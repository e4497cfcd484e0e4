"""A worker's ``Alive`` beat and the consumer's forks (ulti/queue/jobs.py): a fork waits for a beat's
write under way to end, so that no worker process starts with a lock the beating thread held."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

from ulti.queue.jobs import ALIVE_KEY, Alive, QueueSpec, make_queue

WRITE_SECONDS = 0.4


def test_a_fork_waits_for_the_alive_beats_write_to_end(tmp_path: Path) -> None:
    huey = make_queue(QueueSpec(f"sqlite:{tmp_path / 'q.db'}"), frozenset()).huey
    real_put = huey.storage.put_data
    writing, ended = threading.Event(), []

    def slow_put(key: Any, value: Any, *args: Any) -> None:  # a write that takes a while (a busy Redis)
        writing.set()
        time.sleep(WRITE_SECONDS)
        real_put(key, value, *args)
        ended.append(time.monotonic())

    huey.storage.put_data = slow_put
    alive = Alive(huey, every=10)
    alive.start()
    try:
        assert writing.wait(5)
        asked = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os._exit(0)  # the child: nothing to do but end
        forked = time.monotonic()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert ended and ended[0] <= forked  # the fork came only once the write had ended...
        assert forked - asked >= WRITE_SECONDS / 2  # ...which it waited for
        assert huey.storage.peek_data(ALIVE_KEY) is not None
    finally:
        alive.stop()
    # once stopped, a beat no longer holds forks back
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    assert time.monotonic() - started < WRITE_SECONDS / 2
    os.waitpid(pid, 0)
