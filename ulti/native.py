"""The server's hot modules compiled by mypyc, used instead of their Python source when asked for.

The command path of the game server (the deal, the rules' check, the table's state, the views, the patches and
the broadcast, and the engine's parts they call) is plain, fully annotated Python. mypyc (part of mypy, which
type-checks this project) compiles such modules to C extensions that do the same thing with fewer
interpreter steps. ``make native`` builds them (``scripts/build_native.py``) into ``build/native`` beside
the sources, with a manifest of the sources' hashes; ``ULTI_NATIVE=1`` in the environment makes the
``ulti`` package load them (``activate``, called when the package is imported) instead of the sources; the
bots' worker processes inherit the variable and load them too. docs/deploy.md says what keeps a module
compilable.

The sources stay the reference: without ``ULTI_NATIVE`` nothing changes (the engine's tests measure their
coverage on the Python source). A build that no longer matches its sources is refused with an error,
never used: a compiled module of an older source would play by older rules.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the compiled modules: the command path's own work per action, and the engine's parts it calls
NATIVE_MODULES = (
    "ulti.engine.actions",
    "ulti.engine.cards",
    "ulti.engine.choices",
    "ulti.engine.contracts",
    "ulti.engine.deal",
    "ulti.engine.dealviews",
    "ulti.engine.kontra",
    "ulti.engine.phase",
    "ulti.engine.play",
    "ulti.engine.record",
    "ulti.engine.view",
    "ulti.server.actionpatch",
    "ulti.server.broadcast",
    "ulti.server.patches",
    "ulti.server.tablerules",
    "ulti.server.tablestate",
    "ulti.server.tableviews",
)

#: the repository's root (the package's parent in a checkout)
ROOT = Path(__file__).resolve().parent.parent
#: where ``make native`` puts the compiled modules and their manifest
NATIVE_DIR = ROOT / "build" / "native"
MANIFEST = "manifest.json"


class StaleNativeBuild(RuntimeError):
    """``ULTI_NATIVE`` asked for the compiled modules, but they are missing or older than their sources."""


def source_path(module: str) -> Path:
    """The Python source of ``module`` (one of ``NATIVE_MODULES``) in this checkout."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_hashes() -> dict[str, str]:
    """The SHA-256 of each compiled module's source now, by module name."""
    return {name: hashlib.sha256(source_path(name).read_bytes()).hexdigest() for name in NATIVE_MODULES}


def _extension(directory: Path, module: str) -> Path | None:
    """The compiled file of ``module`` under ``directory``, if there is one."""
    stem = directory.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


class _NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled file of each of ``NATIVE_MODULES`` before the path finder finds its source."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The compiled module's spec for a name of ``NATIVE_MODULES``; None (not ours) for any other."""
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def active() -> bool:
    """Whether this process loads the compiled modules (``activate`` installed them)."""
    return any(isinstance(finder, _NativeFinder) for finder in sys.meta_path)


def activate(directory: Path = NATIVE_DIR) -> bool:
    """Load ``NATIVE_MODULES`` from their compiled build in ``directory`` from now on; whether it does.

    Done only when the environment says ``ULTI_NATIVE=1`` (else nothing is read and False is returned),
    before any of the modules is imported. Raises ``StaleNativeBuild`` when the build is missing or a
    source changed since it was made (``checked_build``).
    """
    if os.environ.get("ULTI_NATIVE") != "1" or active():
        return active()
    files = checked_build(directory)
    loaded = sorted(name for name in NATIVE_MODULES if name in sys.modules)
    if loaded:
        raise StaleNativeBuild(f"activated after {', '.join(loaded)} were imported from source")
    # mypyc's shared runtime of the build is a top-level module of its own, found on the path
    sys.path.insert(0, str(directory))
    sys.meta_path.insert(0, _NativeFinder(files))
    return True


def checked_build(directory: Path) -> dict[str, Path]:
    """The compiled file of each of ``NATIVE_MODULES`` in the build in ``directory``; ``StaleNativeBuild``
    unless every one is there and was built from the source as it is now."""
    try:
        built = json.loads((directory / MANIFEST).read_text())["sources"]
    except (OSError, ValueError, KeyError) as exc:
        raise StaleNativeBuild(f"ULTI_NATIVE=1 but no native build in {directory}: run `make native`") from exc
    changed = sorted(name for name, digest in source_hashes().items() if built.get(name) != digest)
    found = {name: _extension(directory, name) for name in NATIVE_MODULES}
    missing = sorted(name for name, file in found.items() if file is None)
    if changed or missing:
        raise StaleNativeBuild(
            f"the native build in {directory} does not match the sources ({', '.join(changed + missing)}):"
            " run `make native`"
        )
    return {name: file for name, file in found.items() if file is not None}
