"""``ulti analyse`` as a real subprocess: the table, ``--json``, and the refusals ``ulti score`` makes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.analysis.deals import BETLI_CHOICE_INDEX, betli_discard_record, betli_record
from tests.conftest import EXAMPLES
from ulti.analysis.review import analyse_record


def run_analyse(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ulti.cli analyse ARGS``."""
    return subprocess.run(
        [sys.executable, "-m", "ulti.cli", "analyse", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_json_lists_every_decision_with_its_cost_and_best(tmp_path: Path) -> None:
    path = tmp_path / "betli.json"
    path.write_text(json.dumps(betli_record("AS")))
    proc = run_analyse(str(path), "--json", "--worlds", "8")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == analyse_record(betli_record("AS"), worlds=8)
    d = next(d for d in out["decisions"] if d["index"] == BETLI_CHOICE_INDEX)
    assert {"seat", "index", "action", "best", "cost", "values", "dd"} <= d.keys()
    assert (d["seat"], d["action"], d["best"], d["cost"], d["dd"]) == (
        0, {"seat": 0, "action": "play", "card": "AS"}, "9S", 40.0, -20
    )


def test_the_table_names_the_blunder(tmp_path: Path) -> None:
    proc = run_analyse("-", "--worlds", "8", stdin=json.dumps(betli_record("AS")))
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.split()[:1] == [str(BETLI_CHOICE_INDEX)])
    assert "AS" in line and "9S" in line and "40.00" in line and "blunder" in line
    assert "seat 0 (declarer): total cost" in proc.stdout


def test_an_unfinished_deal_is_refused_in_one_line_naming_the_action() -> None:
    record = json.loads((EXAMPLES / "02-ulti-kontra-chain.json").read_text())
    record["actions"] = record["actions"][:20]
    proc = run_analyse("-", stdin=json.dumps(record))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("action 20: ")


def test_an_illegal_record_is_refused_as_ulti_score_refuses_it() -> None:
    path = EXAMPLES / "refused-must-follow.json"
    proc = run_analyse(str(path))
    expected = (EXAMPLES / "refused-must-follow.txt").read_text().strip()
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == expected


def test_the_declarers_discard_is_a_decision_of_the_table_and_the_json() -> None:
    record = json.dumps(betli_discard_record(("8S", "AH")))
    proc = run_analyse("-", "--worlds", "8", stdin=record)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.split()[:1] == ["0"])
    assert "discard 8S AH" in line and "discard AS AH" in line and "blunder" in line
    proc = run_analyse("-", "--worlds", "8", "--json", stdin=record)
    first = json.loads(proc.stdout)["decisions"][0]
    assert (first["kind"], first["key"], first["best"]) == ("discard", "8S+AH", "AS+AH")
    assert {"seat", "index", "action", "best", "cost", "values", "dd"} <= first.keys()
