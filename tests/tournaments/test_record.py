"""The ulti-tournament/1 record: built from the log, round-tripped, and ``ulti score`` catching a broken one."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from tests.tournaments.play import EXAMPLE, example_record, play_tournament
from ulti.bots.random_bot import RandomBot
from ulti.duplicates.deals import duplicate_hands
from ulti.engine.cards import parse_card
from ulti.engine.errors import RecordError
from ulti.engine.record import match_from_record, match_to_record
from ulti.tournaments.duplicate import round_seed
from ulti.tournaments.record import build_tournament_record, score_tournament


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_example_record_is_the_one_its_command_writes() -> None:
    assert example() == json.loads(json.dumps(example_record()))


def test_the_example_record_scores_and_its_standings_are_the_stated_ones() -> None:
    record = example()
    scored = score_tournament(record)
    assert scored["complete"] and scored["rounds"] == 4 and scored["players"] == 9
    assert scored["standings"] == record["standings"]
    assert scored["tie_breaks"] == ["total", "wins", "opponents", "best_round", "player"]


def test_record_round_trip_through_json_scores_the_same() -> None:
    log, matches = play_tournament({"format": "standings", "rounds": 3, "seed": 5},
                                   [{"name": f"P{n}"} for n in range(10)], seed=5)
    record = build_tournament_record("t", log, matches)
    assert score_tournament(json.loads(json.dumps(record))) == score_tournament(record)


def broken(change: str) -> dict[str, Any]:
    record = copy.deepcopy(example())
    if change == "seats":
        record["rounds"][1]["tables"][0]["seats"][0] = 8
    elif change == "points":
        record["rounds"][0]["tables"][0]["result"]["points"][0] += 1
    elif change == "standings":
        record["standings"][0]["total"] += 1
    elif change == "match":
        record["rounds"][0]["tables"][1]["match"]["deals"] = record["rounds"][0]["tables"][1]["match"]["deals"][:5]
    elif change == "pair_twice":  # the log seats round 2 with a pair that met in round 1
        first = next(e for e in record["log"] if e["type"] == "round_seated")
        second = next(e for e in record["log"] if e["type"] == "round_seated" and e["round"] == 2)
        second["tables"] = [list(t) for t in first["tables"]]
        record["rounds"][1]["tables"] = [dict(t, seats=list(s)) for t, s in zip(
            record["rounds"][1]["tables"], first["tables"], strict=True)]
    return record


@pytest.mark.parametrize(("change", "message"), [
    ("seats", "round 2: table 1: seats differ from the log's"),
    ("points", "round 1: table 1: points"),
    ("standings", "standings differ from the ones the results give"),
    ("match", "round 1: table 2: points .* the match record totals"),
    ("pair_twice", "round 2: players .* meet a second time"),
])
def test_score_names_what_a_broken_record_breaks(change: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        score_tournament(broken(change))


def test_ulti_score_checks_a_tournament_record_and_refuses_a_broken_one(tmp_path: Any) -> None:
    good = subprocess.run([sys.executable, "-m", "ulti", "score", str(EXAMPLE)], capture_output=True, text=True)
    assert good.returncode == 0 and json.loads(good.stdout)["format"] == "ulti-tournament/1"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken("pair_twice")), encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "ulti", "score", str(path)], capture_output=True, text=True)
    assert bad.returncode == 1 and "meet a second time" in bad.stderr and bad.stdout == ""


def test_sport_ulti_record_whose_tables_played_other_cards_is_refused() -> None:
    players = [{"name": f"P{n}"} for n in range(6)]
    log, matches = play_tournament({"format": "duplicate", "rounds": 1, "seed": 3}, players, seed=3)
    assert score_tournament(build_tournament_record("d", log, matches))["rounds"] == 1
    log[0]["settings"]["seed"] = 4  # the tables played seed 3's deals, the record claims seed 4
    with pytest.raises(RecordError, match="round 1: table 1: deal 0: cards do not come from the round's seed"):
        score_tournament(build_tournament_record("d", log, matches))


def test_a_corrected_result_keeps_its_match_record_and_score_still_checks_it() -> None:
    log, matches = play_tournament({"format": "standings", "rounds": 2, "seed": 7},
                                   [{"name": f"P{n}"} for n in range(6)], seed=7)
    recorded = next(i for i, e in enumerate(log) if e["type"] == "result_recorded")
    log.insert(recorded + 1, {"type": "result_corrected", "round": 1, "table": log[recorded]["table"],
                              "points": [100, 0, -100], "reason": "a misread sheet"})
    record = build_tournament_record("t", log, matches)
    corrected = record["rounds"][0]["tables"][log[recorded]["table"] - 1]
    assert corrected["result"]["points"] == [100, 0, -100] and corrected["result"]["corrections"]
    assert corrected["match"] == matches[log[recorded]["match"]]  # the record still holds the match
    assert score_tournament(record)["rounds"] == 2
    # and checks it against what the match scored: another table's match in its place is refused
    other = next(t for t in record["rounds"][0]["tables"] if t is not corrected)
    corrected["match"] = other["match"]
    with pytest.raises(RecordError, match=f"round 1: table {corrected['table']}: points .* the match record totals"):
        score_tournament(record)


def test_sport_ulti_record_with_a_table_decided_by_tie_break_deals_scores() -> None:
    # seed 5: table 1's random bots are level after the six planned deals, so tie-break deals follow there
    players = [{"name": f"P{n}"} for n in range(6)]
    log, matches = play_tournament({"format": "duplicate", "rounds": 1, "seed": 5}, players, seed=5)
    match = match_from_record(matches["r1t1"])
    assert not match.is_over
    bot = RandomBot(random.Random(5))
    while not match.is_over:  # as at the server's table: tie-break deals from the round's seed
        _dealer, hands = duplicate_hands(round_seed(5, 1), len(match.deals))
        deal = match.new_deal([[parse_card(c) for c in hand] for hand in hands])
        while not deal.is_over:
            deal.apply(bot.act(deal.seat_view(deal.to_move)))
    matches["r1t1"] = match_to_record(match)
    # the director records the match's totals and the planned deals' scores (the round compares those)
    result = next(e for e in log if e["type"] == "result_recorded" and e["table"] == 1)
    result["points"] = match.totals()
    record = build_tournament_record("d", log, matches)
    assert len(record["rounds"][0]["tables"][0]["match"]["deals"]) > 6
    assert score_tournament(record)["standings"] == record["standings"]
