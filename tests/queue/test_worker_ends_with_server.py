"""A server's own low-priority worker (``ulti worker --low-priority --server-pid PID``) lives only as long as
the server that started it: one whose parent is not that server (the server was gone, and the worker was
handed to another process, before it asked to end with it) ends at once instead of working for nobody."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from ulti.queue.jobs import QueueSpec
from ulti.queue.runner import LocalWorkers


def worker_line(queue: Path, server_pid: int) -> list[str]:
    """The command line of a low-priority worker that names ``server_pid`` as its server."""
    return [sys.executable, "-m", "ulti", "worker", "--queue", f"sqlite:{queue}", "--low-priority",
            "--server-pid", str(server_pid)]


def test_a_low_priority_worker_whose_parent_is_not_its_server_ends_at_once(tmp_path: Path) -> None:
    # process 1 is never this test: as far as the worker can tell, its server is gone
    done = subprocess.run(worker_line(tmp_path / "queue.db", 1), stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert done.returncode == 0


def test_a_low_priority_worker_started_by_its_server_keeps_working(tmp_path: Path) -> None:
    worker = subprocess.Popen(worker_line(tmp_path / "queue.db", os.getpid()), stdin=subprocess.DEVNULL)
    try:
        time.sleep(4)  # past its start: imports, the priority, the queue opened
        assert worker.poll() is None, "the worker ended although its server is alive"
    finally:
        worker.kill()
        worker.wait()


def test_a_server_names_itself_to_the_workers_it_starts(tmp_path: Path) -> None:
    line = LocalWorkers(QueueSpec(f"sqlite:{tmp_path / 'queue.db'}"), 1).command()
    assert line[line.index("--server-pid") + 1] == str(os.getpid())
    assert "--low-priority" in line
