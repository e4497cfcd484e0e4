"""docs/design.md, the layers: the engine imports only the standard library and itself, does no I/O,
and builds its classes from collaborators, not from mixins that share one object's state."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

import ulti.engine

ENGINE_DIR = Path(ulti.engine.__file__).parent
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"os", "io", "socket", "asyncio", "subprocess", "random", "time", "pathlib", "sys"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_imports_only_stdlib_and_itself() -> None:
    files = sorted(ENGINE_DIR.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert name.startswith("ulti.engine") or top in sys.stdlib_module_names, f"{path.name} imports {name}"
            assert top not in FORBIDDEN_MODULES or (top == "random" and path.name == "dealing.py"), (
                f"{path.name} imports {name}: the engine does no I/O and has no hidden randomness"
            )


def test_engine_calls_no_io_builtins() -> None:
    for path in sorted(ENGINE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_engine_has_no_mixins() -> None:
    # A class of ours built on another class of ours shares all its state with it (the old
    # Deal(DealViews(KontraChain)) re-declared the deal's attributes in each part): the engine's
    # classes stand alone and work with collaborators. Exceptions may form a hierarchy.
    seen = 0
    for path in sorted(ENGINE_DIR.glob("*.py")):
        module = importlib.import_module(f"ulti.engine.{path.stem}" if path.stem != "__init__" else "ulti.engine")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            seen += 1
            ours = [base for base in cls.__mro__[1:] if base.__module__.startswith("ulti.")]
            if issubclass(cls, BaseException):
                continue
            assert not ours, f"{cls.__module__}.{cls.__name__} inherits from {ours[0].__module__}.{ours[0].__name__}"
    assert seen >= 20
