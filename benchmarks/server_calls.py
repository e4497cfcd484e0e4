"""The server's Python calls per stored event under the load run, a git revision against the working tree.

    python -m benchmarks.server_calls [REV] [--tables 100] [--seconds 20] [--think 1]

Timed CPU per action at light load moves by 10% between runs on a shared machine; the number of Python
calls the server makes per stored event does not. This runs ``benchmarks.load_bench`` (one process,
SQLite) in ``REV``'s tree (default ``HEAD``, built once by ``benchmarks/git_tree.py``) and in the working
tree, each server profiled by cProfile over a window of the measured run (``serverprofile/sitecustomize.py``),
and prints the calls per stored event (``TableActor.emit``) of both, new/old, and the functions whose calls
per event changed most. cProfile's own times are printed too, but profiling distorts them: the counts are
the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.git_tree import tree_at

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(__file__).resolve().parent / "serverprofile"
#: seconds from the server's start to the profile's start: the load run seats its tables first
SETUP_SECONDS = 8.0

Profile = dict[str, list[float]]


def profile_tree(tree: Path, tables: int, seconds: float, think: float) -> Profile:
    """The server's profile (function -> [calls, own seconds]) over a window of a load run in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "profile.json"
        env = {**os.environ, "PYTHONPATH": f"{SITE}:{tree}", "ULTI_SERVER_PROFILE": str(out),
               "ULTI_PROFILE_DELAY": str(SETUP_SECONDS), "ULTI_PROFILE_SECONDS": str(max(1.0, seconds - 4))}
        subprocess.run(
            [sys.executable, "benchmarks/load_bench.py", "--tables", str(tables),
             "--seconds", str(seconds + SETUP_SECONDS), "--think", str(think),
             "--processes", "0", "--rounds", "1", "--no-ceiling"],
            cwd=tree, env=env, check=True, capture_output=True,
        )
        profile: Profile = json.loads(out.read_text())
        return profile


def stored_events(profile: Profile) -> float:
    """How many events the profiled window stored (calls of ``TableActor.emit``)."""
    return sum(calls for key, (calls, _own) in profile.items() if key.endswith("actor.py:emit"))


def report(old: Profile, new: Profile, top: int = 15) -> list[str]:
    """The lines comparing two profiles per stored event: calls, own time and the largest changes."""
    per_old, per_new = stored_events(old), stored_events(new)
    calls_old = sum(c for c, _ in old.values()) / per_old
    calls_new = sum(c for c, _ in new.values()) / per_new
    own_old = 1e6 * sum(t for _, t in old.values()) / per_old
    own_new = 1e6 * sum(t for _, t in new.values()) / per_new
    lines = [
        f"stored events profiled: old {per_old:.0f}, new {per_new:.0f}",
        f"Python calls per stored event: old {calls_old:.1f}, new {calls_new:.1f}, new/old {calls_new / calls_old:.3f}",
        f"profiled own time per stored event (distorted by the profiler): old {own_old:.0f} us, new {own_new:.0f} us",
        "largest changes in calls per stored event (old -> new):",
    ]

    def change(key: str) -> float:
        return abs(new.get(key, [0, 0])[0] / per_new - old.get(key, [0, 0])[0] / per_old)

    for key in sorted(set(old) | set(new), key=change, reverse=True)[:top]:
        before, after = old.get(key, [0, 0])[0] / per_old, new.get(key, [0, 0])[0] / per_new
        lines.append(f"  {key[:72]:<72} {before:7.2f} -> {after:7.2f}")
    return lines


def main() -> None:
    """Profile the load run in ``REV``'s tree and in the working tree; print calls per stored event."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0)
    args = parser.parse_args()
    old = profile_tree(tree_at(args.rev), args.tables, args.seconds, args.think)
    new = profile_tree(ROOT, args.tables, args.seconds, args.think)
    print(f"server calls under the load run: {args.tables} tables, think {args.think:g} s, "
          f"{args.rev} against the working tree")
    print("\n".join(report(old, new)))


if __name__ == "__main__":
    main()
