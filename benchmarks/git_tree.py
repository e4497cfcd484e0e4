"""The project's tree at a past commit, exported from git and built, for a benchmark that runs it beside
the current tree (benchmarks only, never imported by ``ulti``).

``tree_at(commit)`` exports the commit's files (``git archive``) into ``build/trees/<sha>`` and builds its
compiled solver there with that tree's own ``setup.py`` (Cython, pinned in ``requirements-dev.txt``), once;
a benchmark then runs the old side in a subprocess with that directory first on ``sys.path``. A clone
without the commit (a shallow one, say) raises ``MissingCommit`` saying so, and the benchmark skips that
comparison only.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "build" / "trees"


class MissingCommit(LookupError):
    """The commit a comparison needs is not in this clone's history."""


def commit_sha(commit: str) -> str:
    """The full hash of ``commit`` in this clone (``MissingCommit`` when it is not there)."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise MissingCommit(
            f"commit {commit} is not in this clone's history (a shallow clone? 'git fetch --unshallow' brings it)"
        )
    return found.stdout.strip()


def tree_at(commit: str) -> Path:
    """The directory holding the project at ``commit`` with its solver built (exported and built once)."""
    sha = commit_sha(commit)
    dest = TREES / sha
    if (dest / ".built").exists():
        return dest
    work = TREES / f"{sha}.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", sha], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later: refuse links and paths out of ``work``
            tar.extractall(work, filter="data")
        else:  # pragma: no cover - older interpreters; the archive is git's own, of this clone
            tar.extractall(work)
    env = {**os.environ, "PYTHONPATH": str(work)}
    built = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work, env=env, capture_output=True, text=True
    )
    if built.returncode != 0:
        raise RuntimeError(f"building the solver of {commit} failed:\n{built.stdout[-2000:]}{built.stderr[-2000:]}")
    (work / ".built").touch()
    shutil.rmtree(dest, ignore_errors=True)
    work.rename(dest)
    return dest
