"""What a worker may run (ulti/queue/pieces.py), and ``ulti worker``'s refusal of a queue it cannot use."""

from __future__ import annotations

import subprocess
import sys

from ulti.queue.pieces import PIECES, name_of, resolve


def test_every_listed_piece_names_a_function_that_exists() -> None:
    for name in PIECES:
        fn = resolve(name)
        assert callable(fn) and name_of(fn) == name


def test_ulti_worker_refuses_a_queue_it_cannot_reach_naming_the_option() -> None:
    done = subprocess.run([sys.executable, "-m", "ulti", "worker", "--queue", "mysql://x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--queue" in done.stderr and "mysql://x" in done.stderr
