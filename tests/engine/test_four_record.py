"""A table of four's match record (docs/record.md, ``"seats": 4``): read, written, checked by ``ulti score``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from tests.engine.four_example import four_example
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.record import (
    deal_to_record,
    four_match_from_record,
    four_match_to_record,
    match_from_record,
    match_to_record,
    score_record,
)

FOUR = EXAMPLES / "match-four.json"


def four_record() -> dict[str, Any]:
    """The example record of a table of four (a fresh copy)."""
    record: dict[str, Any] = json.loads(FOUR.read_text())
    return record


def test_four_example_is_the_bots_match_it_says() -> None:
    assert four_example() == four_record()


def test_four_player_record_round_trips() -> None:
    record = four_record()
    assert four_match_to_record(four_match_from_record(record)) == record


def test_four_player_record_says_per_deal_who_sits_out() -> None:
    record = four_record()
    first = record["first_dealer"]
    assert [d["sits_out"] for d in record["deals"]] == [(first + k) % 4 for k in range(len(record["deals"]))]
    assert all(d["dealer"] == 2 for d in record["deals"])


def test_four_player_score_by_position_with_the_sitter_out_at_zero() -> None:
    scored = score_record(four_record())
    assert scored["seats"] == 4 and scored["complete"] is True
    assert len(scored["totals"]) == 4 and sum(scored["totals"]) == 0
    totals = [0, 0, 0, 0]
    for deal in scored["deals"]:
        assert deal["table_scores"][deal["sits_out"]] == 0
        assert sorted(s for p, s in enumerate(deal["table_scores"]) if p != deal["sits_out"]) == sorted(deal["scores"])
        totals = [t + s for t, s in zip(totals, deal["table_scores"], strict=True)]
    assert totals == scored["totals"]
    assert scored["winner"] == scored["totals"].index(max(scored["totals"]))


def test_a_wrong_sitter_out_is_refused_naming_the_deal() -> None:
    record = four_record()
    want = record["deals"][1]["sits_out"]
    record["deals"][1]["sits_out"] = (want + 1) % 4
    with pytest.raises(IllegalAction) as info:
        score_record(record)
    assert info.value.rule == "sits_out_rotation"
    assert str(info.value) == (
        f"deal 1: sits_out is {(want + 1) % 4}, but at a table of four the rotation gives position {want}"
    )
    del record["deals"][1]["sits_out"]
    with pytest.raises(IllegalAction, match="deal 1: sits_out is None"):
        score_record(record)


def test_a_four_deal_not_dealt_by_engine_seat_2_is_refused() -> None:
    record = four_record()
    record["deals"] = record["deals"][:1]
    first = record["deals"][0]
    h0, h1, h2 = first["hands"]
    first.update(dealer=1, hands=[h1, h2, h0], actions=[])  # a legal deal, dealt by the wrong engine seat
    with pytest.raises(IllegalAction, match="deal 0: dealer is seat 1, but the rotation gives seat 2"):
        score_record(record)


def test_four_player_record_fields_are_checked() -> None:
    for field, value, message in [
        ("deals_planned", 9, "deals_planned must be one of 12, not 9"),
        ("first_dealer", 4, "first_dealer must be one of 0, 1, 2, 3, not 4"),
        ("players", ["a", "b", "c"], "players must be a list of 4 names"),
    ]:
        record = four_record()
        record[field] = value
        with pytest.raises(RecordError, match=message):
            score_record(record)


def test_three_player_reader_refuses_a_four_player_record() -> None:
    with pytest.raises(RecordError, match="seats must be 3 for this reader"):
        match_from_record(four_record())


def test_three_player_record_stays_byte_identical() -> None:
    record = json.loads((EXAMPLES / "match-tie-break.json").read_text())
    match = match_from_record(copy.deepcopy(record))
    written = match_to_record(match)
    assert list(written) == ["format", "deals_planned", "first_dealer", "players", "deals"]
    assert written["deals"] == [deal_to_record(d) for d in match.deals]
    assert json.dumps(match_to_record(match_from_record(written))) == json.dumps(written)
    assert list(score_record(record)) == ["complete", "deals_played", "totals", "winner", "deals"]


def test_ulti_score_checks_a_four_player_record(tmp_path: Any) -> None:
    ok = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(FOUR)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["totals"] == score_record(four_record())["totals"]
    bad = four_record()
    bad["deals"][2]["sits_out"] = 0 if bad["deals"][2]["sits_out"] else 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    refused = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip().startswith("deal 2: sits_out is")
