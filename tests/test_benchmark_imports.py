"""The benchmarks run from a checkout without the tests: they take their servers, players and
throwaway databases from ``ulti`` (``serverprocess``, ``seating``, ``throwaway``), never from ``tests``."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def imports_of_tests(path: Path) -> set[str]:
    """The modules of ``tests`` that the file at ``path`` imports (at any depth of its code)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "tests"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "tests":
            found |= {f"{node.module}.{alias.name}" if node.module == "tests.server" else node.module
                      for alias in node.names}
    return found


def test_benchmarks_import_nothing_of_tests() -> None:
    benches = sorted(BENCHMARKS.glob("*.py"))
    assert len(benches) > 10
    found = {path.name: imports for path in benches if (imports := imports_of_tests(path))}
    assert found == {}


def test_the_import_check_sees_an_import_of_tests(tmp_path: Path) -> None:
    bench = tmp_path / "x_bench.py"
    bench.write_text("def main() -> None:\n    from tests.server.conftest import ServerProcess\n")
    assert imports_of_tests(bench) == {"tests.server.conftest"}
