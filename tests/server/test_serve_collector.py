"""``ulti serve`` sets the garbage collector up for serving (``ulti.cli.tune_collector``).

Run in a fresh interpreter, as the server runs: what is loaded is frozen out of the full passes,
and the young generation is large enough that a few broadcasts' views come and go without a pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from ulti.cli import GC_THRESHOLDS

_PROBE = """
import gc, json, sys
from ulti.cli import tune_collector
if sys.argv[1] == "tuned":
    tune_collector()
else:
    gc.collect()
passes = []
gc.callbacks.append(lambda phase, info: passes.append(info["generation"]) if phase == "start" else None)
views = [[{"seat": seat, "log": [{"n": n} for n in range(3)]} for seat in range(3)] for _ in range(150)]
del views
print(json.dumps({"thresholds": gc.get_threshold(), "frozen": gc.get_freeze_count(), "passes": passes}))
"""


def _probe(mode: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, check=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def test_serve_freezes_what_is_loaded_and_keeps_a_broadcasts_garbage_young() -> None:
    tuned, default = _probe("tuned"), _probe("default")
    assert tuple(tuned["thresholds"]) == GC_THRESHOLDS
    assert tuned["frozen"] > 10_000  # the libraries and the app, out of every pass
    # 150 broadcasts' worth of small views (about 2,000 containers) held and dropped: no pass ran
    # while they lived, where Python's default threshold runs a few
    assert tuned["passes"] == []
    assert default["passes"]
