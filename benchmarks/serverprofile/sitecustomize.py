"""Profile an ``ulti serve`` process over a window of its run (``benchmarks/server_calls.py`` puts this
directory first on ``PYTHONPATH``; Python imports ``sitecustomize`` at start-up in every process).

Only a process whose command line holds ``serve`` is profiled, when ``ULTI_SERVER_PROFILE`` names the JSON
file to write: cProfile starts ``ULTI_PROFILE_DELAY`` seconds after start-up (after the benchmark seated its
tables) and stops ``ULTI_PROFILE_SECONDS`` later, inside the measured window, writing each function's call
count and own time. Signals switch it, since cProfile profiles the thread that enables it: the main one.
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import signal
import threading
import time
from types import FrameType


def _profiled() -> bool:
    if not os.environ.get("ULTI_SERVER_PROFILE"):
        return False
    with open("/proc/self/cmdline", "rb") as cmdline:  # sys.argv is not set yet while site runs
        return b"\0serve\0" in cmdline.read()


def _arm(out: str) -> None:
    profile = cProfile.Profile()

    def start(_signum: int, _frame: FrameType | None) -> None:
        profile.enable()

    def stop(_signum: int, _frame: FrameType | None) -> None:
        profile.disable()
        rows: dict[str, list[float]] = {}
        for (path, _line, name), (_prim, calls, own, _cum, _callers) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
            key = f"{os.path.basename(os.path.dirname(path))}/{os.path.basename(path)}:{name}"
            row = rows.setdefault(key, [0, 0.0])
            row[0] += calls
            row[1] += own
        with open(out, "w") as file:
            json.dump(rows, file)

    def timer() -> None:
        time.sleep(float(os.environ.get("ULTI_PROFILE_DELAY", "8")))
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(float(os.environ.get("ULTI_PROFILE_SECONDS", "10")))
        os.kill(os.getpid(), signal.SIGUSR2)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    threading.Thread(target=timer, daemon=True).start()


if _profiled():
    _arm(os.environ["ULTI_SERVER_PROFILE"])
