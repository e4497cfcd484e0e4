"""``ulti puzzles generate`` and ``check``: records in, puzzles out, with a progress line; puzzles verified.

Records are JSON lines of ``ulti-deal/1`` (what ``ulti arena --records`` writes); a record that does not
load is reported on standard error by its line number and skipped. The same position reached by two
records (duplicate deals played alike) gives one puzzle: puzzles are kept by id once.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from ulti.engine.errors import UltiError
from ulti.puzzles.check import check_puzzle
from ulti.puzzles.cut import CutStats, cut_record

#: Seconds between two redraws of the progress line.
REDRAW_SECONDS = 0.5


def progress_line(done: int, total: int, kept: int, seconds: float, width: int = 30) -> str:
    """A progress bar with the rate, such as ``[#####.....]  10/20 records, 3 puzzles, 4.0 records/s``.

    >>> progress_line(5, 10, 2, 2.0, width=10)
    '[#####.....]  5/10 records, 2 puzzles, 2.5 records/s'
    """
    filled = width * done // total if total else width
    rate = done / seconds if seconds > 0 else 0.0
    return f"[{'#' * filled}{'.' * (width - filled)}]  {done}/{total} records, {kept} puzzles, {rate:.1f} records/s"


def generate(
    lines: Iterable[str],
    limit: int | None = None,
    stats: CutStats | None = None,
    progress: Callable[[int, int], None] | None = None,
    errors: IO[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """The puzzles of the records in ``lines`` (one JSON record per line), each id once, at most ``limit``;
    ``progress(records_done, puzzles_kept)`` after each record."""
    seen: set[str] = set()
    kept = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            puzzles = cut_record(json.loads(line), stats=stats)
        except (ValueError, UltiError) as exc:
            if errors is not None:
                errors.write(f"line {number}: {' '.join(str(exc).split())}\n")
            puzzles = []
        for puzzle in puzzles:
            if puzzle["id"] in seen:
                continue
            seen.add(puzzle["id"])
            kept += 1
            yield puzzle
            if limit is not None and kept >= limit:
                return
        if progress is not None:
            progress(number, kept)


def run_generate(source: str, out: IO[str], limit: int | None, err: IO[str] | None = None) -> tuple[CutStats, int]:
    """Write the puzzles of the records file ``source`` to ``out`` (JSON lines), a progress line on ``err``
    (standard error by default); what the cut saw and how many distinct puzzles were written."""
    err = err if err is not None else sys.stderr
    with open_text(source) as f:
        lines = f.readlines()
    total = len(lines)
    start = time.monotonic()
    stats = CutStats()
    drawn = [0.0]

    def progress(done: int, kept: int) -> None:
        now = time.monotonic()
        if done == total or now - drawn[0] >= REDRAW_SECONDS:  # a redraw per record would flood a log
            drawn[0] = now
            err.write("\r" + progress_line(done, total, kept, now - start))
            err.flush()

    written = 0
    for puzzle in generate(lines, limit, stats, progress, err):
        out.write(json.dumps(puzzle, separators=(",", ":")) + "\n")
        written += 1
    err.write("\n")
    return stats, written


def open_text(path: str, mode: str = "r") -> IO[str]:
    """``path`` opened as text, through gzip when its name ends in ``.gz`` (the shipped set is kept so)."""
    if path.endswith(".gz"):
        return gzip.open(path, "wt" if mode == "w" else "rt", encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def run_check(path: str, err: IO[str] | None = None) -> list[str]:
    """Check every puzzle of the JSON-lines file ``path``; one line per bad puzzle (its id or line and why).
    The count and rate go to ``err`` (standard error by default)."""
    err = err if err is not None else sys.stderr
    bad: list[str] = []
    with open_text(path) as f:
        lines = [line for line in f if line.strip()]
    start = time.monotonic()
    for number, line in enumerate(lines, 1):
        try:
            puzzle = json.loads(line)
        except json.JSONDecodeError as exc:
            bad.append(f"line {number}: malformed JSON: {exc.msg}")
            continue
        name = puzzle.get("id", f"line {number}") if isinstance(puzzle, dict) else f"line {number}"
        bad.extend(f"{name}: {problem}" for problem in check_puzzle(puzzle))
    rate = len(lines) / max(time.monotonic() - start, 1e-9)
    err.write(f"{len(lines)} puzzles checked, {len(bad)} bad, {rate:.1f} puzzles/s\n")
    return bad
