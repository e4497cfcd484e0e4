"""Pieces of work for the queue's tests: each says when and in which process it ran (``ulti worker
--allow-piece tests.queue.pieces:…``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

SLOW = "tests.queue.pieces:slow"
FAILING = "tests.queue.pieces:failing"


def slow(folder: str, label: str, seconds: float) -> tuple[str, int]:
    """Sleep ``seconds``, leaving ``<label>-<pid>.started`` and then ``.finished`` in ``folder``: the
    label and this process's id."""
    base = Path(folder) / f"{label}-{os.getpid()}"
    base.with_suffix(".started").write_text(f"{time.time()}")
    time.sleep(seconds)
    base.with_suffix(".finished").write_text(f"{time.time()}")
    return label, os.getpid()


def failing(message: str) -> None:
    """Raise ``ValueError(message)``: the asker gets the worker's exception."""
    raise ValueError(message)
