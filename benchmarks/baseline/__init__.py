"""Baselines for old-against-new figures measured in one run (benchmarks only, never imported by ``ulti``).

- ``old_solver()``: the double-dummy search as it was before the DDS-style search (``_dd_old.pyx``, a
  verbatim copy of the old ``ulti/bots/solver/_dd.pyx``), compiled on first use into
  ``build/bench-baseline`` (Cython, pinned in ``requirements-dev.txt``). Its ``solve_internal`` takes
  the same arguments as the current one, so ``using_old_solver()`` swaps it under the unchanged Python
  wrapper ``ulti.bots.solver.solve`` (the wrapper's conversion work is then the same on both sides).
- ``OldDeal`` (``benchmarks.baseline.old_deal``): ``Deal`` with the old card-play path, settling with the
  old ``settle`` (``benchmarks.baseline.old_scoring``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import ulti.bots.solver

HERE = Path(__file__).resolve().parent
BUILD = HERE.parent.parent / "build" / "bench-baseline"
_loaded: ModuleType | None = None


def _built_path() -> Path:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return BUILD / f"_dd_old{suffix}"


def _build() -> None:
    """Compile ``_dd_old.pyx`` into ``BUILD`` (the same flags as ``setup.py`` gives the current one)."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension  # type: ignore[import-untyped]

    BUILD.mkdir(parents=True, exist_ok=True)
    extensions = cythonize(  # type: ignore[no-untyped-call]
        [Extension("_dd_old", [str(HERE / "_dd_old.pyx")], extra_compile_args=["-O3"])],
        build_dir=str(BUILD / "c"),
        compiler_directives={"language_level": "3"},
        quiet=True,
    )
    dist = Distribution({"ext_modules": extensions})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(BUILD)
    cmd.build_temp = str(BUILD / "tmp")
    dist.run_command("build_ext")


def old_solver() -> ModuleType:
    """The old compiled search (built on first use, rebuilt when its source is newer)."""
    global _loaded
    if _loaded is not None:
        return _loaded
    path = _built_path()
    source = HERE / "_dd_old.pyx"
    if not path.exists() or path.stat().st_mtime < source.stat().st_mtime:
        _build()
    spec = importlib.util.spec_from_file_location("_dd_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.setdefault("_dd_old", module)
    _loaded = module
    return module


@contextlib.contextmanager
def using_old_solver() -> Iterator[None]:
    """Within the block, ``ulti.bots.solver.solve`` (and every bot through it) runs the old search."""
    api: ModuleType = sys.modules[ulti.bots.solver.__name__]  # the wrapper reads its ``_dd`` at each call
    namespace = vars(api)
    old = old_solver()
    current = namespace["_dd"]
    namespace["_dd"] = old
    try:
        yield
    finally:
        namespace["_dd"] = current


def pin_to_one_core() -> None:
    """Run on one core so that figures compare across machines of this kind."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
