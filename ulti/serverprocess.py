"""An ``ulti serve`` process on a free port, started and stopped from Python (tests, benchmarks, examples).

It runs the real command line (uvicorn via ``ulti serve``) in a child process, so what it reaches is
exactly what a deployment serves; the tests' fixtures and the benchmarks both start their servers here.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """A running ``ulti serve`` process and how to reach it."""

    db_url: str
    port: int = field(default_factory=free_port)
    args: tuple[str, ...] = ("--fast",)
    proc: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    #: what runs before ``serve ARGS``: the command line's module (a benchmark may put a script of its own)
    launcher: tuple[str, ...] = ("-m", "ulti.cli")

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, log_path: Path) -> None:
        """Start the process and wait until /healthz answers."""
        self.log_path = log_path
        # The child gets its own copy of the descriptor: ours is closed at once (no ResourceWarning).
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, *self.launcher, "serve", "--port", str(self.port), "--db", self.db_url, *self.args],
                stdout=log,
                stderr=log,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base_url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not answer /healthz within 30 s")

    def kill(self) -> None:
        """kill -9: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """A normal shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
