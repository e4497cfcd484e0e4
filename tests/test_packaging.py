"""The repository stands alone, and the engine installs without the server stack.

A copy of the repository as a clone would hold it (nothing that .gitignore leaves out: no virtualenv,
no compiled solver, no caches) is made in a fresh temporary directory, with no other folder of the
project beside it. Then:

- ``pip install COPY`` (no extras) into a fresh virtualenv gives a working ``ulti score`` and
  ``python -m ulti --version``, and none of the server's packages;
- the tests that read the test data and the engine's doctests pass inside the copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from ulti import __version__

#: What .gitignore leaves out of a clone (and .git itself): none of it goes into the copy.
NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache", ".mypy_cache",
    ".ruff_cache", ".hypothesis", ".coverage", ".coverage.*", "artifacts", "*.so", "*.c", "arena-records.jsonl",
)
#: The packages of the `server` extra (import names): a plain install must not bring any of them.
SERVER_STACK = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "aiosqlite", "pydantic", "websockets", "httpx2",
                "redis", "asyncpg", "orjson", "limits", "prometheus_client", "confusable_homoglyphs")
#: The tests of the copy that read tests/data (and the CLI on it), and the engine's doctests.
STANDALONE_SUBSET = ("tests/engine/test_examples.py", "tests/engine/test_perft.py", "tests/test_cli.py", "ulti/engine")


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 240) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, args))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of the repository, as a clone holds it, alone in a fresh temporary directory."""
    where = tmp_path_factory.mktemp("standalone")
    copy = where / "ulti"
    shutil.copytree(ROOT, copy, ignore=NOT_IN_A_CLONE, symlinks=True)
    # /data/ (the SQLite folder of `make run`) is ignored at the top only: tests/data is part of the clone
    shutil.rmtree(copy / "data", ignore_errors=True)
    assert not (where / "shared").exists()
    yield copy
    shutil.rmtree(where, ignore_errors=True)


def test_plain_install_gives_the_engine_and_ulti_score_without_the_server_stack(clone: Path) -> None:
    env_dir = clone.parent / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    # nor this checkout's compiled modules (ULTI_NATIVE, ulti/native.py): an installed package has none
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "ULTI_NATIVE")}
    # no extras; the build backend's requirements (setuptools, Cython) come from the index (cached by pip)
    _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(clone)], clone.parent, env,
         timeout=280)

    assert _run([python, "-m", "ulti", "--version"], clone.parent, env).stdout.strip() == f"ulti {__version__}"
    record = clone / "tests" / "data" / "examples" / "07-hearts-20-100-ulti.json"
    scored = json.loads(_run([env_dir / "bin" / "ulti", "score", record], clone.parent, env).stdout)
    assert scored == json.loads(record.with_suffix(".result.json").read_text())

    probe = (
        "import importlib.util, json, ulti, ulti.bots.solver._dd; "
        f"print(json.dumps([ulti.__file__, [m for m in {SERVER_STACK!r} if importlib.util.find_spec(m)]]))"
    )
    installed_at, server_modules = json.loads(_run([python, "-c", probe], clone.parent, env).stdout)
    assert Path(installed_at).is_relative_to(env_dir), installed_at  # the installed package, not the copy
    assert server_modules == []
    assert (Path(installed_at).parent / "py.typed").is_file()


def test_a_clone_alone_passes_the_tests_that_read_its_data(clone: Path) -> None:
    # the copy's own ulti package first on the path (ahead of this checkout's editable install)
    env = dict(os.environ, PYTHONPATH=str(clone), ULTI_NATIVE="0")  # a clone has no native build (make native)
    where = _run([sys.executable, "-c", "import ulti; print(ulti.__file__)"], clone, env).stdout.strip()
    assert Path(where).is_relative_to(clone), where
    _run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *STANDALONE_SUBSET], clone, env)
