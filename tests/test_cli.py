"""``ulti score`` as a real subprocess (docs/record.md, "Command line").

Every refused input exits 1 with nothing on stdout and one line on stderr that names the problem
(never a traceback); ``--jsonl`` writes one line per record in order and exits 0; an incomplete
record prints the state it reached.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES

SIMPLE = json.loads((EXAMPLES / "01-simple-game-silent-100.json").read_text())
SIMPLE_RESULT = json.loads((EXAMPLES / "01-simple-game-silent-100.result.json").read_text())
CHAIN = json.loads((EXAMPLES / "02-ulti-kontra-chain.json").read_text())
MATCH = json.loads((EXAMPLES / "match-tie-break.json").read_text())


def run_score(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m ulti.cli score ARGS`` with ``stdin``; output as bytes."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "ulti.cli", "score", *args],
        input=data,
        capture_output=True,
        timeout=60,
    )


def assert_refused(proc: subprocess.CompletedProcess[bytes], *words: str) -> str:
    """Exit 1, empty stdout, one line on stderr naming ``words`` (case-insensitive), no traceback."""
    err = proc.stderr.decode()
    assert proc.returncode == 1, (proc.returncode, err)
    assert proc.stdout == b""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    line = err.strip()
    assert line
    for word in words:
        assert word.lower() in line.lower(), f"{word!r} not in {line!r}"
    return line


def with_(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of ``record`` with top-level ``changes``."""
    out = copy.deepcopy(record)
    out.update(changes)
    return out


def with_action(record: dict[str, Any], index: int, action: Any) -> dict[str, Any]:
    """``record`` with action ``index`` replaced by ``action``."""
    out = copy.deepcopy(record)
    out["actions"][index] = action
    return out


def hands_with(record: dict[str, Any], seat: int, position: int, code: object) -> dict[str, Any]:
    """``record`` with card ``position`` of ``hands[seat]`` replaced by ``code``."""
    out = copy.deepcopy(record)
    out["hands"][seat][position] = code
    return out


def moved_card(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with one card moved from the opener's hand to another hand (11 and 11 cards)."""
    out = copy.deepcopy(record)
    opener = (out["dealer"] + 1) % 3
    out["hands"][(opener + 1) % 3].append(out["hands"][opener].pop())
    return out


# (id, stdin text, words the message must contain, prefix the message must start with)
REFUSED: list[tuple[str, str, tuple[str, ...], str]] = [
    ("bad-json", '{"format": "ulti-deal/1", "dealer": 0,', ("JSON",), ""),
    ("empty-input", "", ("JSON",), ""),
    ("not-an-object", "[1, 2, 3]", ("object",), ""),
    ("json-string", '"ulti-deal/1"', ("object",), ""),
    ("unknown-format", json.dumps(with_(SIMPLE, format="ulti-deal/2")), ("format", "ulti-deal/2"), ""),
    ("unknown-rules", json.dumps(with_(SIMPLE, rules="ulti-rules/9")), ("rules", "ulti-rules/9"), ""),
    ("unknown-card-in-hand", json.dumps(hands_with(SIMPLE, 0, 3, "1X")), ("card", "1X"), ""),
    ("card-not-a-string", json.dumps(hands_with(SIMPLE, 2, 0, 7)), ("card",), ""),
    (
        "unknown-card-played",
        json.dumps(with_action(SIMPLE, 5, {"seat": 1, "action": "play", "card": "ZZ"})),
        ("card", "ZZ"),
        "action 5:",
    ),
    (
        "unknown-bid",
        json.dumps(with_action(SIMPLE, 0, {"seat": 1, "action": "bid", "bid": "M-XX", "discard": ["TC", "TH"]})),
        ("bid", "M-XX"),
        "action 0:",
    ),
    (
        "unknown-part",
        json.dumps(with_action(SIMPLE, 6, {"seat": 2, "action": "kontra", "parts": ["quadruple"]})),
        ("part", "quadruple"),
        "action 6:",
    ),
    (
        "unknown-suit",
        json.dumps(with_action(SIMPLE, 4, {"seat": 1, "action": "trump", "suit": "X"})),
        ("suit",),
        "action 4:",
    ),
    ("duplicate-card-across-hands", json.dumps(hands_with(SIMPLE, 0, 0, SIMPLE["hands"][1][0])), ("twice",), ""),
    ("duplicate-card-in-a-hand", json.dumps(hands_with(SIMPLE, 0, 0, SIMPLE["hands"][0][1])), ("twice",), ""),
    ("wrong-hand-sizes", json.dumps(moved_card(SIMPLE)), ("hands[", "cards"), ""),
    ("two-hands", json.dumps(with_(SIMPLE, hands=SIMPLE["hands"][:2])), ("hands",), ""),
    ("four-hands", json.dumps(with_(SIMPLE, hands=[*SIMPLE["hands"], []])), ("hands",), ""),
    ("hands-not-a-list", json.dumps(with_(SIMPLE, hands="AH JC")), ("hands",), ""),
    ("bad-dealer", json.dumps(with_(SIMPLE, dealer=3)), ("dealer",), ""),
    ("dealer-not-an-int", json.dumps(with_(SIMPLE, dealer="0")), ("dealer",), ""),
    (
        "bad-seat",
        json.dumps(with_action(SIMPLE, 1, {"seat": 3, "action": "pass"})),
        ("seat",),
        "action 1:",
    ),
    (
        "seat-not-an-int",
        json.dumps(with_action(SIMPLE, 1, {"seat": True, "action": "pass"})),
        ("seat",),
        "action 1:",
    ),
    (
        "unknown-action-kind",
        json.dumps(with_action(SIMPLE, 3, {"seat": 1, "action": "double"})),
        ("action kind", "double"),
        "action 3:",
    ),
    (
        "action-kind-not-a-string",
        json.dumps(with_action(SIMPLE, 3, {"seat": 1, "action": {"kind": "pass"}})),
        ("action kind",),
        "action 3:",
    ),
    (
        "action-kind-a-list",
        json.dumps(with_action(SIMPLE, 3, {"seat": 1, "action": ["pass"]})),
        ("action kind",),
        "action 3:",
    ),
    ("action-not-an-object", json.dumps(with_action(SIMPLE, 2, "pass")), ("object",), "action 2:"),
    ("actions-not-a-list", json.dumps(with_(SIMPLE, actions={"0": "pass"})), ("actions",), ""),
    (
        "discard-not-a-list",
        json.dumps(with_action(SIMPLE, 0, {"seat": 1, "action": "bid", "bid": "M-S", "discard": "TC"})),
        ("discard",),
        "action 0:",
    ),
    (
        "action-after-the-end",
        json.dumps(with_(SIMPLE, actions=[*SIMPLE["actions"], {"seat": 0, "action": "pass"}])),
        ("over",),
        f"action {len(SIMPLE['actions'])}:",
    ),
    (
        "play-after-the-end",
        json.dumps(
            with_(SIMPLE, actions=[*SIMPLE["actions"], {"seat": 1, "action": "play", "card": SIMPLE["hands"][1][0]}])
        ),
        (),
        f"action {len(SIMPLE['actions'])}:",
    ),
    (
        "pass-when-obliged",
        json.dumps(with_action(SIMPLE, 0, {"seat": 1, "action": "pass"})),
        ("pass",),
        "action 0:",
    ),
    ("deep-nesting", "[" * 100000 + "]" * 100000, (), ""),
]


@pytest.mark.parametrize(("stdin", "words", "prefix"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_input_on_stdin(stdin: str, words: tuple[str, ...], prefix: str) -> None:
    line = assert_refused(run_score("-", stdin=stdin), *words)
    assert line.startswith(prefix)
    if not prefix:
        assert not line.startswith("action ")


def test_refused_input_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_action(SIMPLE, 3, {"seat": 1, "action": "double"})))
    assert assert_refused(run_score(str(path)), "action kind").startswith("action 3:")


def test_binary_garbage_on_stdin() -> None:
    assert_refused(run_score("-", stdin=b"\xff\xfe\x00\x81garbage\x00\x9c\n"))


def test_binary_garbage_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "garbage.bin"
    path.write_bytes(b"\xff\xfe\x00\x81garbage\x00\x9c\n")
    assert_refused(run_score(str(path)), "UTF-8")


def test_binary_garbage_in_a_jsonl_file(tmp_path: Path) -> None:
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(b"\xff\xfe\x00\x81garbage\x00\x9c\n")
    proc = run_score("--jsonl", str(path))
    err = proc.stderr.decode()
    assert "Traceback" not in err
    if proc.returncode == 0:  # the line was read and reported as a refused record
        assert json.loads(proc.stdout)["error"]
    else:
        assert_refused(proc, "UTF-8")


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-record.json"
    line = assert_refused(run_score(str(missing)), "cannot read")
    assert str(missing) in line
    line = assert_refused(run_score("--jsonl", str(missing)), "cannot read")


def test_a_complete_record_is_scored_from_stdin_and_from_a_file(tmp_path: Path) -> None:
    proc = run_score("-", stdin=json.dumps(SIMPLE))
    assert proc.returncode == 0 and proc.stderr == b""
    assert json.loads(proc.stdout) == SIMPLE_RESULT
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(SIMPLE))
    proc = run_score(str(path))
    assert proc.returncode == 0 and json.loads(proc.stdout) == SIMPLE_RESULT


def test_rules_may_be_left_out_and_codes_are_case_insensitive() -> None:
    record = copy.deepcopy(SIMPLE)
    del record["rules"]
    record["hands"] = [[c.lower() for c in hand] for hand in record["hands"]]
    for action in record["actions"]:
        if "card" in action:
            action["card"] = action["card"].lower()
    record["comment"] = "unknown keys are ignored"
    proc = run_score("-", stdin=json.dumps(record))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == SIMPLE_RESULT


# ---------------------------------------------------------------------------------- incomplete records


def cut(record: dict[str, Any], k: int) -> dict[str, Any]:
    """``record`` with only its first ``k`` actions."""
    return with_(record, actions=record["actions"][:k])


INCOMPLETE: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("no-action", cut(SIMPLE, 0), {"phase": "auction", "declarer": None, "bid": None, "trump": None, "tricks": 0}),
    ("one-bid", cut(SIMPLE, 1), {"phase": "auction", "declarer": None, "bid": "M-S", "trump": None, "tricks": 0}),
    ("after-take", cut(CHAIN, 4), {"phase": "auction", "declarer": None, "bid": "M-40", "trump": None, "tricks": 0}),
    ("minor-trump-phase", cut(SIMPLE, 4), {"phase": "trump", "declarer": 1, "bid": "M-S", "trump": None, "tricks": 0}),
    ("minor-first-card", cut(SIMPLE, 6), {"phase": "play", "declarer": 1, "bid": "M-S", "trump": "C", "tricks": 0}),
    ("minor-trick-1-done", cut(SIMPLE, 9), {"phase": "play", "declarer": 1, "bid": "M-S", "trump": "C", "tricks": 1}),
    ("hearts-play", cut(CHAIN, 8), {"phase": "play", "declarer": 1, "bid": "H-SU", "trump": "H", "tricks": 0}),
    ("hearts-in-chain", cut(CHAIN, 13), {"phase": "play", "declarer": 1, "bid": "H-SU", "trump": "H", "tricks": 1}),
]


@pytest.mark.parametrize(("record", "state"), [c[1:] for c in INCOMPLETE], ids=[c[0] for c in INCOMPLETE])
def test_incomplete_record_prints_the_state_reached(record: dict[str, Any], state: dict[str, Any]) -> None:
    proc = run_score("-", stdin=json.dumps(record))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert json.loads(proc.stdout) == {"complete": False, **state}


def test_incomplete_no_trump_record_has_no_trump() -> None:
    record = copy.deepcopy(SIMPLE)
    record["actions"] = [
        {"seat": 1, "action": "bid", "bid": "N-B", "discard": ["TC", "TH"]},
        {"seat": 2, "action": "pass"},
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "pass"},
    ]
    proc = run_score("-", stdin=json.dumps(record))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "complete": False, "phase": "play", "declarer": 1, "bid": "N-B", "trump": None, "tricks": 0
    }


# ---------------------------------------------------------------------------------- --jsonl


def test_jsonl_one_line_per_record_in_order() -> None:
    illegal = with_action(SIMPLE, 14, {"seat": 0, "action": "play", "card": "ZZ"})
    lines = [
        json.dumps(SIMPLE),
        "{this is not json",
        json.dumps(cut(SIMPLE, 4)),
        json.dumps(illegal),
        json.dumps(with_(SIMPLE, actions=[*SIMPLE["actions"], {"seat": 2, "action": "pass"}])),
        "[1, 2]",
        json.dumps(CHAIN),
        json.dumps(with_(SIMPLE, rules="ulti-rules/0")),
        json.dumps(SIMPLE),
    ]
    proc = run_score("--jsonl", "-", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(out) == len(lines)
    chain_result = json.loads((EXAMPLES / "02-ulti-kontra-chain.result.json").read_text())
    assert out[0] == SIMPLE_RESULT and out[8] == SIMPLE_RESULT
    assert out[6] == chain_result
    assert out[2] == {"complete": False, "phase": "trump", "declarer": 1, "bid": "M-S", "trump": None, "tricks": 0}
    for index in (1, 3, 4, 5, 7):
        assert set(out[index]) == {"error"}, out[index]
        assert "\n" not in out[index]["error"] and "Traceback" not in out[index]["error"]
    assert "JSON" in out[1]["error"]
    assert out[3]["error"].startswith("action 14:") and "ZZ" in out[3]["error"]
    assert out[4]["error"].startswith(f"action {len(SIMPLE['actions'])}:")
    assert "object" in out[5]["error"]
    assert "rules" in out[7]["error"]


def test_jsonl_from_a_file_without_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(CHAIN) + "\n" + json.dumps(cut(CHAIN, 0)))
    proc = run_score("--jsonl", str(path))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(out) == 2
    assert out[0]["complete"] is True
    assert out[1] == {"complete": False, "phase": "auction", "declarer": None, "bid": None, "trump": None, "tricks": 0}


def test_jsonl_scores_a_match_record_per_line() -> None:
    proc = run_score("--jsonl", "-", stdin=json.dumps(MATCH) + "\n" + json.dumps(with_(MATCH, deals_planned=5)) + "\n")
    assert proc.returncode == 0, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.decode().splitlines())
    assert first["winner"] == 2 and first["totals"] == [-177, -177, 354]
    assert set(second) == {"error"} and "deals_planned" in second["error"]


# ---------------------------------------------------------------------------------- match records


def test_a_match_record_is_scored() -> None:
    proc = run_score("-", stdin=json.dumps(MATCH))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["complete"] is True and result["winner"] == 2
    assert result["deals_played"] == len(MATCH["deals"]) == len(result["deals"])
    assert [sum(d["scores"][s] for d in result["deals"]) for s in range(3)] == result["totals"]


def test_match_dealer_out_of_rotation() -> None:
    record = copy.deepcopy(MATCH)
    record["deals"][1] = copy.deepcopy(MATCH["deals"][0])  # dealt by seat 0, but deal 1 is seat 1's
    assert assert_refused(run_score("-", stdin=json.dumps(record)), "dealer").startswith("deal 1:")


@pytest.mark.parametrize("planned", [0, 3, 7, 10, 13, "9", None])
def test_match_deals_planned_not_6_9_12(planned: object) -> None:
    assert_refused(run_score("-", stdin=json.dumps(with_(MATCH, deals_planned=planned))), "deals_planned")


def test_match_deal_after_an_incomplete_one() -> None:
    record = copy.deepcopy(MATCH)
    record["deals"][1]["actions"] = record["deals"][1]["actions"][:5]
    line = assert_refused(run_score("-", stdin=json.dumps(record)))
    assert line.startswith("deal 2:")
    # the incomplete deal alone, as the last one, is fine
    record["deals"] = record["deals"][:2]
    proc = run_score("-", stdin=json.dumps(record))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["complete"] is False and result["winner"] is None and result["deals_played"] == 1
    assert result["deals"][1]["complete"] is False


def test_match_deal_after_the_decisive_one() -> None:
    record = copy.deepcopy(MATCH)
    extra = len(record["deals"])  # dealt by (0 + 13) % 3 = seat 1, like deal 1
    record["deals"].append(copy.deepcopy(MATCH["deals"][1]))
    assert (record["first_dealer"] + extra) % 3 == record["deals"][extra]["dealer"]
    assert assert_refused(run_score("-", stdin=json.dumps(record)), "decided").startswith(f"deal {extra}:")


def test_match_illegal_action_in_a_deal() -> None:
    record = copy.deepcopy(MATCH)
    record["deals"][3]["actions"][2] = {"seat": 0, "action": "fold"}
    line = assert_refused(run_score("-", stdin=json.dumps(record)), "action kind")
    assert line.startswith("deal 3: action 2:")


def test_match_deal_that_is_not_an_object() -> None:
    record = with_(MATCH, deals=[*MATCH["deals"][:2], 42])
    assert assert_refused(run_score("-", stdin=json.dumps(record)), "object").startswith("deal 2:")
