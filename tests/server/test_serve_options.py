"""``ulti serve``'s options that size the server: a count it cannot run with is refused before it starts."""

from __future__ import annotations

import subprocess
import sys

from ulti.serverprocess import free_port


def test_serve_refuses_fewer_than_one_bot_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "serve", "--port", str(free_port()), "--bot-processes", "0"],
        capture_output=True, timeout=60,
    )
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "--bot-processes" in err and "at least 1" in err and "Traceback" not in err
