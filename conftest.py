"""Collection across the repository: under ``ULTI_NATIVE=1`` the compiled modules are not their files.

``--doctest-modules`` collects every module of ``ulti`` from its file; a module of the native build
(``ulti/native.py``) is imported from ``build/native`` instead, which pytest refuses as an import file
mismatch. Such a module's docstring examples run in the pass without ``ULTI_NATIVE`` (the engine's, in
``make test``'s first pass); the compiled server modules have none, which ``tests/server/test_native.py``
checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ulti import native


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave a compiled module's source out of the doctest collection while the build is in use."""
    if native.active() and collection_path.suffix == ".py":
        compiled = {native.source_path(name) for name in native.NATIVE_MODULES}
        if collection_path.resolve() in compiled:
            return True
    return None
