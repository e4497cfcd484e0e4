"""The director's log: a pure fold into the tournament's state and standings; each bad event named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.tournaments.play import play_tournament
from ulti.tournaments.log import LogError, replay
from ulti.tournaments.rounds import next_round, seating_problems, teams_of
from ulti.tournaments.standings import places, standings, team_standings

NAMES = [{"name": f"P{n}"} for n in range(9)]


def base_log(**settings: Any) -> list[dict[str, Any]]:
    return [{"type": "created", "settings": {"format": "standings", "rounds": 3, **settings}},
            *({"type": "registered", **p} for p in NAMES)]


def test_standings_are_recomputed_exactly_from_the_log_after_a_json_round_trip() -> None:
    log, _ = play_tournament({"format": "standings", "rounds": 3, "seed": 4}, NAMES, seed=4)
    once = standings(replay(log))
    again = standings(replay(json.loads(json.dumps(log))))
    assert once == again and len(once) == 9
    assert once[0]["total"] >= once[-1]["total"]


def test_a_standings_tournament_obeys_its_seating_rule_every_round() -> None:
    log, _ = play_tournament({"format": "standings", "rounds": 4, "seed": 9}, NAMES, seed=9)
    assert seating_problems(log) == []


def test_a_corrected_result_changes_the_standings_and_keeps_its_reason() -> None:
    log, _ = play_tournament({"format": "everyone", "rounds": 1}, NAMES[:3], seed=2)
    before = standings(replay(log[:-1]))
    log.insert(-1, {"type": "result_corrected", "round": 1, "table": 1, "points": [9, 0, -9], "reason": "misread"})
    state = replay(log)
    assert state.rounds[0].results[1].corrections == ["misread"]
    after = standings(state)
    assert after != before and after[0]["player"] == 0 and after[0]["total"] == 9


def test_a_correction_without_a_reason_is_refused_naming_the_event() -> None:
    log, _ = play_tournament({"format": "everyone", "rounds": 1}, NAMES[:3], seed=2)
    log.insert(-1, {"type": "result_corrected", "round": 1, "table": 1, "points": [1, 0, -1]})
    with pytest.raises(LogError, match=f"event {len(log) - 2}: result_corrected: a correction needs a reason"):
        replay(log)


def test_a_second_result_for_a_table_is_refused() -> None:
    log, _ = play_tournament({"format": "everyone", "rounds": 1}, NAMES[:3], seed=2)
    log.insert(-1, {"type": "result_recorded", "round": 1, "table": 1, "points": [1, 0, -1]})
    with pytest.raises(LogError, match="has a result; correct it"):
        replay(log)


def test_nothing_follows_publication() -> None:
    log, _ = play_tournament({"format": "everyone", "rounds": 1}, NAMES[:3], seed=2)
    with pytest.raises(LogError, match="published"):
        replay([*log, {"type": "paused"}])


def test_pause_blocks_seating_until_resumed() -> None:
    log = [*base_log(), {"type": "paused"}, {"type": "round_seated", "round": 1, "tables": [[0, 1, 2]]}]
    with pytest.raises(LogError, match="paused"):
        replay(log)
    log.insert(-1, {"type": "resumed"})
    assert len(replay(log).rounds) == 1


def test_a_seating_with_a_player_twice_or_a_withdrawn_player_is_refused() -> None:
    with pytest.raises(LogError, match="player 1 is seated twice"):
        replay([*base_log(), {"type": "round_seated", "round": 1, "tables": [[0, 1, 2], [1, 3, 4]]}])
    with pytest.raises(LogError, match="player 2 has withdrawn"):
        replay([*base_log(), {"type": "withdrew", "player": 2},
                {"type": "round_seated", "round": 1, "tables": [[0, 1, 2]]}])


def test_settings_refuse_deals_that_are_not_a_multiple_of_three() -> None:
    with pytest.raises(LogError, match=r"event 0: settings\.deals_per_round"):
        replay(base_log(deals_per_round=4))


def test_withdrawn_player_is_seated_no_more_and_a_bot_takes_the_seat() -> None:
    log, _ = play_tournament({"format": "everyone", "rounds": 4}, NAMES, seed=3, withdraw={3: 4}, replace={2: 7})
    state = replay(log)
    assert state.players[4].status == "withdrawn" and state.players[7].replaced
    assert all(4 not in table for r in state.rounds[2:] for table in r.tables)
    assert sum(p is None for table in state.rounds[2].tables for p in table) == 1
    assert seating_problems(log) == []
    lines = standings(state)
    assert [ln["withdrawn"] for ln in lines].count(True) == 1


def test_placement_points_per_table_share_the_best_place_of_a_tie() -> None:
    assert places([3, 3, -6]) == [0, 0, 2]
    log = [*base_log(scoring="placement", placement_points=[4, 2, 0], rounds=1),
           {"type": "round_seated", "round": 1, "tables": [[0, 1, 2], [3, 4, 5], [6, 7, 8]]},
           {"type": "result_recorded", "round": 1, "table": 1, "points": [3, 3, -6]},
           {"type": "result_recorded", "round": 1, "table": 2, "points": [-8, 4, 4]},
           {"type": "result_recorded", "round": 1, "table": 3, "points": [1, 2, -3]}]
    totals = {ln["player"]: ln["total"] for ln in standings(replay(log))}
    assert totals == {0: 4, 1: 4, 2: 0, 3: 0, 4: 4, 5: 4, 6: 2, 7: 4, 8: 0}


def test_duplicate_rounds_score_each_seat_by_matchpoints_against_the_same_cards() -> None:
    log, matches = play_tournament({"format": "duplicate", "rounds": 2, "seed": 11}, NAMES, seed=11)
    for number in (1, 2):
        hands = [[(d["dealer"], d["hands"]) for d in matches[f"r{number}t{t}"]["deals"]] for t in (1, 2, 3)]
        assert hands[0] == hands[1] == hands[2]  # every table of a round held the same cards
    lines = standings(replay(log))
    rounds, deals, tables = 2, 6, 3
    # on each deal and seat, the three tables' results share n (n - 1) matchpoints (2 per comparison)
    assert sum(ln["total"] for ln in lines) == rounds * deals * 3 * tables * (tables - 1)
    assert all(0 <= ln["total"] <= rounds * deals * 2 * (tables - 1) for ln in lines)


def test_team_tournament_seats_letters_together_and_totals_teams() -> None:
    players = [{"name": f"{team}{letter}", "team": team, "letter": letter} for team in "XYZ" for letter in "ABC"]
    log, _ = play_tournament({"format": "teams", "rounds": 1}, players, seed=6)
    state = replay(log)
    assert len(teams_of(state)) == 3
    for table in state.rounds[0].tables:
        assert len({state.players[p].letter for p in table if p is not None}) == 1
    teams = team_standings(state)
    members = {ln["player"]: ln["total"] for ln in standings(state)}
    assert {t["team"]: t["total"] for t in teams} == {
        team: sum(members[n] for n, p in enumerate(state.players) if p.team == team) for team in "XYZ"
    }
    assert seating_problems(log) == []


def test_next_round_refuses_arena_and_rounds_beyond_the_settings() -> None:
    with pytest.raises(ValueError, match="arena"):
        next_round(replay(base_log(format="arena")))
    log, _ = play_tournament({"format": "everyone", "rounds": 1}, NAMES[:3], seed=2)
    with pytest.raises(ValueError, match="1 rounds"):
        next_round(replay(log[:-1]))


def test_arena_refuses_to_seat_a_player_whose_table_plays_on_and_scores_by_place() -> None:
    log = [*base_log(format="arena", rounds=9, scoring="points", placement_points=[2, 1, 0]),
           {"type": "round_seated", "round": 1, "tables": [[0, 1, 2], [3, 4, 5]]},
           {"type": "result_recorded", "round": 1, "table": 1, "points": [30, -10, -20]},
           {"type": "round_seated", "round": 2, "tables": [[0, 1, 6]]}]
    state = replay(log)  # table 2 of wave 1 plays on while the first finishers meet again
    assert {ln["player"]: ln["total"] for ln in standings(state)}[0] == 2
    with pytest.raises(LogError, match="player 3 is still playing a table"):
        replay([*log, {"type": "round_seated", "round": 3, "tables": [[3, 7, 8]]}])
