"""Tables of four: the dealer sits out each deal; seating, standings, the log and the record handle them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from tests.tournaments.play import play_tournament
from ulti.engine.errors import RecordError
from ulti.tournaments.correction import correction_event
from ulti.tournaments.fours import FOUR_TABLE_DEALS, four_deal_scores, four_table_deal, four_table_seats, table_sizes
from ulti.tournaments.log import LogError, replay
from ulti.tournaments.record import build_tournament_record, score_tournament
from ulti.tournaments.seating import moves, repeats, seat_by_standings
from ulti.tournaments.settings import settings_from_json
from ulti.tournaments.standings import round_points


def test_a_table_of_four_rotates_so_everyone_sits_out_and_opens_equally() -> None:
    sits_out: Counter[int] = Counter()
    opens: Counter[int] = Counter()
    for deal in range(FOUR_TABLE_DEALS):
        seats = four_table_deal(deal)
        assert sorted([seats.sits_out, *seats.positions]) == [0, 1, 2, 3]
        assert seats.positions[0] == (seats.sits_out + 1) % 4  # the one on the dealer's left opens
        assert seats.positions[seats.dealer] == (seats.sits_out + 3) % 4  # engine dealer: the dealer's right
        sits_out[seats.sits_out] += 1
        opens[seats.positions[0]] += 1
    assert set(sits_out.values()) == set(opens.values()) == {FOUR_TABLE_DEALS // 4}


def test_four_table_seats_name_who_sits_out_and_who_plays_each_engine_seat() -> None:
    assert four_table_seats([10, 11, 12, 13], 2) == (12, (13, 10, 11))
    assert four_deal_scores(2, [6, -3, -3]) == [-3, -3, 0, 6]
    with pytest.raises(ValueError, match="four players"):
        four_table_seats([1, 2, 3], 0)


@pytest.mark.parametrize("players", [n for n in range(3, 41) if n != 5])
def test_tables_of_four_seat_everyone_without_a_bot_and_come_last(players: int) -> None:
    sizes = table_sizes(players, True)
    assert sum(sizes) == players and sizes == sorted(sizes) and sizes.count(4) == players % 3


def test_five_players_cannot_sit_at_tables_of_three_and_four() -> None:
    with pytest.raises(ValueError, match="bots fill seats"):
        table_sizes(5, True)


def seatings(order: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every seating of ``order`` at tables of ``sizes`` in which each player moves at most one table."""
    starts = [sum(sizes[:t]) for t in range(len(sizes))]
    natural = {p: max(t for t, s in enumerate(starts) if s <= r) for r, p in enumerate(order)}

    def fill(t: int, left: list[int]) -> Iterator[list[tuple[int, ...]]]:
        if t == len(sizes):
            yield []
            return
        if any(natural[p] < t - 1 for p in left):  # someone was left more than a table above
            return
        for table in combinations([p for p in left if abs(natural[p] - t) <= 1], sizes[t]):
            if any(natural[p] == t - 1 and p not in table for p in left):
                continue
            for rest in fill(t + 1, [p for p in left if p not in table]):
                yield [table, *rest]

    yield from fill(0, order)


@pytest.mark.parametrize("players", [4, 7, 8, 10, 11])
def test_standings_seating_with_tables_of_four_has_no_repeat_whenever_exhaustive_search_finds_one(
    players: int,
) -> None:
    rng = random.Random(players)
    for case in range(20):
        order = list(range(players))
        rng.shuffle(order)
        met = {pair for pair in combinations(range(players), 2) if rng.random() < 0.3}
        ours = seat_by_standings(order, met, four_tables=True)
        assert [len(t) for t in ours] == table_sizes(players, True)
        assert sorted(p for t in ours for p in t if p is not None) == list(range(players))
        assert max(moves(order, ours).values()) <= 1
        best = min(repeats(s, met) for s in seatings(order, table_sizes(players, True)))
        assert repeats(ours, met) == best, (case, order, ours)


def four_tournament(rounds: int = 3) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    settings = {"format": "standings", "rounds": rounds, "deals_per_round": 12, "four_tables": True, "seed": 4}
    return play_tournament(settings, [{"name": f"P{n}"} for n in range(11)], seed=4)


def test_a_standings_tournament_with_tables_of_four_plays_its_rounds_and_its_record_checks() -> None:
    log, matches = four_tournament()
    state = replay(log)
    assert all([len(t) for t in r.tables] == [3, 4, 4] for r in state.rounds)
    record = build_tournament_record("fours", log, matches)
    assert record["settings"]["four_tables"] is True
    out = score_tournament(json.loads(json.dumps(record)))
    assert out["rounds"] == 3 and len(out["standings"]) == 11


def test_placement_at_a_table_of_four_gives_first_middle_middle_last() -> None:
    log, _ = four_tournament(1)
    state = replay([*log[:-1]])
    state.settings = settings_from_json({**state.settings.to_json(), "scoring": "placement"})
    points = round_points(state, state.rounds[0])
    table_points = state.rounds[0].results[2].points
    assert len(set(table_points)) == 4  # this seed's table of four has no tie: its places are plain
    best_first = sorted(range(4), key=lambda seat: -table_points[seat])
    assert [points[(2, seat)] for seat in best_first] == [2, 1, 1, 0]


def test_the_log_refuses_a_table_of_four_when_the_settings_do_not_seat_them() -> None:
    log: list[dict[str, Any]] = [{"type": "created", "settings": {"format": "standings"}},
           *[{"type": "registered", "name": f"P{n}"} for n in range(4)],
           {"type": "round_seated", "round": 1, "tables": [[0, 1, 2, 3]]}]
    with pytest.raises(LogError, match="event 5: round_seated: table 1: a table seats three"):
        replay(log)


def test_settings_refuse_tables_of_four_outside_standings_and_deals_not_a_multiple_of_12() -> None:
    with pytest.raises(ValueError, match="only the standings format"):
        settings_from_json({"format": "everyone", "four_tables": True, "deals_per_round": 12})
    with pytest.raises(ValueError, match="multiple of 12"):
        settings_from_json({"format": "standings", "four_tables": True, "deals_per_round": 6})


def test_the_player_sitting_out_must_score_zero_for_that_deal() -> None:
    log, _ = four_tournament(1)
    event = next(e for e in log if e["type"] == "result_recorded" and len(e["points"]) == 4)
    deals = [list(d) for d in event["deals"]]
    deals[0][0], deals[0][1] = 5, deals[0][1] - 5
    event["deals"] = deals
    with pytest.raises(LogError, match=r"deal 0: the player sitting out \(position 0\) scores 0"):
        replay(log)


def test_ulti_score_names_a_four_table_whose_deals_do_not_total_its_points() -> None:
    log, matches = four_tournament(1)
    record = build_tournament_record("fours", log, matches)
    event = next(e for e in record["log"] if e["type"] == "result_recorded" and len(e["points"]) == 4)
    event["points"] = [p + d for p, d in zip(event["points"], [1, -1, 0, 0], strict=True)]
    table = record["rounds"][0]["tables"][event["table"] - 1]
    table["result"]["points"] = event["points"]
    record["standings"] = build_tournament_record("fours", record["log"], matches)["standings"]
    with pytest.raises(RecordError, match=r"table \d: points .* stated, the deals' scores total"):
        score_tournament(record)


def test_the_schedule_command_seats_tables_of_four_and_refuses_them_elsewhere() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ulti", "tournament", "schedule", *args],
                              capture_output=True, text=True)

    out = run("--players", "14", "--format", "standings", "--four", "--json")
    assert out.returncode == 0, out.stderr
    tables = json.loads(out.stdout)["rounds"][0]["tables"]
    assert [len(t["seats"]) for t in tables] == [3, 3, 4, 4] and None not in [s for t in tables for s in t["seats"]]
    bad = run("--players", "14", "--format", "everyone", "--four")
    assert bad.returncode == 2 and "--four: only the standings format" in bad.stderr
    five = run("--players", "5", "--format", "standings", "--four")
    assert five.returncode == 2 and "--four: players: 5 players cannot sit" in five.stderr


def test_ulti_score_names_tables_of_four_that_are_not_last() -> None:
    log: list[dict[str, Any]] = [
        {"type": "created", "settings": {"format": "standings", "four_tables": True, "deals_per_round": 12}},
        *[{"type": "registered", "name": f"P{n}"} for n in range(11)],
        {"type": "round_seated", "round": 1, "tables": [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9, 10]]},
    ]
    with pytest.raises(RecordError, match=r"round 1: tables of \[4, 3, 4\] seats where 11 players sit at \[3, 4, 4\]"):
        score_tournament(build_tournament_record("fours", log))


def test_a_correction_at_a_table_of_four_keeps_points_the_deals_totals() -> None:
    played, matches = four_tournament(1)
    assert played[-1]["type"] == "published"
    log, published = played[:-1], played[-1:]  # a correction comes before the publication
    state = replay(log)
    table = next(t for t, r in state.rounds[0].results.items() if len(r.points) == 4)
    recorded = state.rounds[0].results[table]
    assert recorded.deals is not None
    # corrected deals without points: the points become the corrected deals' totals
    deals = [list(d) for d in recorded.deals]
    sitter = four_table_deal(0).sits_out
    playing = [s for s in range(4) if s != sitter]
    deals[0][playing[0]] += 10
    deals[0][playing[1]] -= 10
    event = correction_event(state, 1, table, "deal 1 mis-scored", None, deals)
    assert event["points"] == [sum(d[s] for d in deals) for s in range(4)]
    fixed = replay([*log, event])
    assert fixed.rounds[0].results[table].deals == deals
    assert fixed.rounds[0].results[table].corrections == ["deal 1 mis-scored"]
    record = build_tournament_record("fours", [*log, event, *published], matches)
    score_tournament(json.loads(json.dumps(record)))  # the match still checks against what it scored
    # points that are not the deals' totals (the deals kept) are refused, naming the rule
    points = [p + d for p, d in zip(recorded.points, [1, -1, 0, 0], strict=True)]
    with pytest.raises(LogError, match="at a table of four the points are the deals' scores totalled"):
        replay([*log, correction_event(state, 1, table, "points only", points, None)])
