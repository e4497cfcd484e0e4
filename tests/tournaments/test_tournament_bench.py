"""The tournament benchmark (``benchmarks/tournament_bench.py``) stands without the tests package."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT

#: imports the benchmark in a fresh interpreter and lists the modules of the tests package it brought in
LISTS_TEST_MODULES = (
    "import json, sys, benchmarks.tournament_bench; "
    "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'tests')))"
)


def test_the_tournament_benchmark_imports_nothing_of_the_tests_package() -> None:
    ran = subprocess.run([sys.executable, "-c", LISTS_TEST_MODULES], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == []
