"""``ulti serve``'s options that size the server: a count it cannot run with is refused before it starts."""

from __future__ import annotations

import os
import subprocess
import sys

from ulti.server.config import Settings
from ulti.serverprocess import free_port


def test_the_bots_think_in_one_process_per_usable_core_by_default() -> None:
    assert Settings().bot_processes == len(os.sched_getaffinity(0)) >= 1


def test_serve_refuses_fewer_than_one_bot_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "serve", "--port", str(free_port()), "--bot-processes", "0"],
        capture_output=True, timeout=60,
    )
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "--bot-processes" in err and "at least 1" in err and "Traceback" not in err
