"""The mypyc build of the server's hot modules (``ulti/native.py``, ``make native``): used only when asked for,
refused when it does not match its sources, and then doing what the sources do.

``make test`` builds it first (the Makefile's ``native`` target): these tests run against that build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ulti import native

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, use_native: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ULTI_NATIVE": "1" if use_native else "0"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_a_native_build_whose_source_changed_is_refused(tmp_path: Path) -> None:
    """A build of other sources would play by other rules: asked for, it raises, naming the module."""
    copy = tmp_path / "native"
    shutil.copytree(native.NATIVE_DIR, copy)
    manifest = json.loads((copy / native.MANIFEST).read_text())
    manifest["sources"]["ulti.engine.dealviews"] = "0" * 64
    (copy / native.MANIFEST).write_text(json.dumps(manifest))
    assert set(native.checked_build(native.NATIVE_DIR)) == set(native.NATIVE_MODULES)
    with pytest.raises(native.StaleNativeBuild, match=r"ulti\.engine\.dealviews"):
        native.checked_build(copy)
    # a process asked to use it stops at once, naming it
    out = subprocess.run(
        [sys.executable, "-c", f"import os; from ulti import native; os.environ['ULTI_NATIVE'] = '1'; "
         f"from pathlib import Path; native.activate(Path({str(copy)!r}))"],
        cwd=ROOT, env={**os.environ, "ULTI_NATIVE": "0"}, capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode != 0 and "StaleNativeBuild" in out.stderr and "dealviews" in out.stderr


def test_asking_for_a_native_build_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(native.StaleNativeBuild, match="make native"):
        native.checked_build(tmp_path / "missing")


def test_without_the_environment_the_sources_are_used() -> None:
    probe = "import ulti.engine.dealviews as m, ulti.native as n; print(m.__file__, n.active())"
    out = _python(probe, use_native=False)
    assert out.returncode == 0, out.stderr
    path, active = out.stdout.split()
    assert path.endswith("dealviews.py") and active == "False"


def test_the_compiled_modules_play_deals_through_the_server_as_the_sources_do() -> None:
    """Random legal actions through a real hub and store (``command_path_bench``), then what a bot process gets
    and gives back: every compiled module is loaded from the build, and the tables' deals, their views and
    choices as sent, and the pickled values crossing to bot processes (choices, seat views, actions, each
    rebuilt equal) are the same as with the sources."""
    script = r"""
import asyncio, hashlib, json, pickle, random, re, sys
import ulti.native
from benchmarks import command_path_bench
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.bots.random_bot import random_legal_action
events = []

def keep(message):
    # the table's events up to number 250 (the last ones may still be queued when the run stops), their
    # random table id and the clock's deadlines left out: one table's actions follow from its views alone
    if message.startswith(b'{"type":"event"') and json.loads(message)["seq"] <= 250:
        events.append(re.sub(rb'"deadline":[0-9.]+', b"D", re.sub(rb"[0-9a-f]{16}", b"T", message)))

asyncio.run(command_path_bench.one_round(1, 300, 11, sink=keep))
digest = hashlib.sha256(b"\n".join(sorted(events)))  # the table's watchers are told in no set order
for name in ulti.native.NATIVE_MODULES:
    __import__(name)
files = {name: sys.modules[name].__file__ for name in ulti.native.NATIVE_MODULES}
deal = Deal(deal_hands(random.Random(5), 0), 0)
rng = random.Random(6)
while not deal.is_over:
    seat = deal.to_move
    choices = deal.choices(seat)
    assert pickle.loads(pickle.dumps(choices)) == choices
    # the bots' worker processes are sent views and send back actions: every frozen record round-trips
    for viewer in (0, 1, 2, None):
        view = deal.seat_view(viewer)
        assert pickle.loads(pickle.dumps(view)) == view
    action = random_legal_action(deal, rng)
    assert pickle.loads(pickle.dumps(action)) == action
    assert pickle.loads(pickle.dumps(deal)).view(None) == deal.view(None)  # the laboratory's workers get deals
    deal.apply(action)
shown = deal.seat_view(0)
assert pickle.loads(pickle.dumps(shown)).to_json() == shown.to_json()  # the end: the result and the tally
print(json.dumps({"files": files, "digest": digest.hexdigest(), "events": len(events), "result": repr(deal.result)}))
"""
    runs = {}
    for use_native in (False, True):
        out = _python(script, use_native)
        assert out.returncode == 0, out.stderr[-3000:]
        runs[use_native] = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(path.endswith(".py") for path in runs[False]["files"].values())
    compiled = runs[True]["files"]
    assert all(str(native.NATIVE_DIR) in path and not path.endswith(".py") for path in compiled.values()), compiled
    assert runs[True]["events"] == runs[False]["events"] > 600  # three watchers, 250 events
    assert runs[True]["digest"] == runs[False]["digest"]
    assert runs[True]["result"] == runs[False]["result"]


def test_the_compiled_server_modules_have_no_docstring_examples_left_untested() -> None:
    """Under ``ULTI_NATIVE=1`` the doctest collection skips the compiled modules (conftest.py): those of the
    engine run in ``make test``'s first pass, without it; a server module's examples would run in neither."""
    for name in native.NATIVE_MODULES:
        if name.startswith("ulti.server."):
            assert ">>>" not in native.source_path(name).read_text(), name
