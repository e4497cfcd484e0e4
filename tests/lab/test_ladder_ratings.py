"""The ladder's ratings: rated matches among bot levels, rated as the site rates people."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ulti.lab.ladder_ratings import (
    MatchResult,
    main,
    play_match,
    play_matches,
    rate,
    ratings,
    read_results,
    report,
    seating,
    write_results,
)

CHEAP = ["random", "heuristic", "strong-fast"]


def test_every_level_meets_every_other_in_every_seat_equally_often() -> None:
    seats = [seating(["a", "b", "c", "d"], i) for i in range(24)]
    assert len(set(seats)) == 24  # each ordered triple once per 24 matches
    for seat in range(3):
        assert sorted(s[seat] for s in seats).count("a") == 6
    with pytest.raises(ValueError, match="three or more different levels"):
        seating(["a", "b", "a"], 0)


def test_a_rated_match_is_a_whole_match_that_adds_to_zero_and_replays_from_its_seed() -> None:
    levels = seating(CHEAP, 4)
    played = play_match(levels, 6, seed=7, index=4)
    assert played.levels == levels and sum(played.totals) == 0
    assert play_match(levels, 6, seed=7, index=4) == played
    assert play_match(levels, 6, seed=8, index=4) != played  # another seed, other cards


def test_the_level_that_always_wins_rates_first_and_its_interval_stands_apart() -> None:
    order = ["top", "mid", "low"]

    def by_strength(levels: tuple[str, str, str]) -> tuple[int, int, int]:
        a, b, c = (30 - 30 * order.index(level) for level in levels)
        return a, b, c

    ranked = [MatchResult(i, seating(order, i), by_strength(seating(order, i))) for i in range(60)]
    fair = [MatchResult(r.index, r.levels, (0, 0, 0)) for r in ranked]
    lines = ratings(ranked, rounds=50)
    assert [line.level for line in lines] == ["top", "mid", "low"]
    assert lines[0].rating > 1500 > lines[2].rating
    assert lines[0].online > 1500 > lines[2].online
    for line in lines:
        assert line.low <= line.rating <= line.high and line.matches == 60
    assert lines[0].points == 30 and lines[2].points == -30
    table = report(lines)
    assert "yes" in table[1] and "yes" in table[2]
    # ties everywhere: every level stays at the mean, 1500, and the intervals overlap
    even = ratings(fair, rounds=50)
    assert {line.rating for line in even} == {1500} == {line.online for line in even}
    assert "overlap" in report(even)[1]


def test_a_level_placing_first_more_often_rates_higher_and_the_levels_average_1500() -> None:
    # a beats b in two matches of three, both beat c always: the fit orders them and centres them on 1500
    results = []
    for i in range(90):
        levels = seating(["a", "b", "c"], i)
        place = {"a": 1, "b": 2, "c": 3} if i % 3 else {"a": 2, "b": 1, "c": 3}
        x, y, z = (10 * (3 - place[level]) - 10 for level in levels)
        results.append(MatchResult(i, levels, (x, y, z)))
    lines = {line.level: line for line in ratings(results, rounds=20)}
    assert lines["a"].rating > lines["b"].rating > lines["c"].rating
    assert abs(sum(line.rating for line in lines.values()) / 3 - 1500) <= 1


def test_the_ratings_file_names_the_command_and_each_levels_interval(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "matches.jsonl"
    saved = tmp_path / "ratings.json"
    main(["--levels", *CHEAP, "--matches", "3", "--deals", "6", "--seed", "3", "--results-out", str(out)])
    main(["--results-in", str(out), "--seed", "3", "--write", str(saved)])
    written = json.loads(saved.read_text())
    assert written["matches"] == 3 and "--write" in written["command"]
    assert set(written["levels"]) == set(CHEAP)
    for level in written["levels"].values():
        assert level["low"] <= level["rating"] <= level["high"] and level["matches"] == 3
    capsys.readouterr()


def test_ratings_follow_the_matches_in_order() -> None:
    win = MatchResult(0, ("a", "b", "c"), (10, 0, -10))
    loss = MatchResult(1, ("a", "b", "c"), (-10, 0, 10))
    assert rate([win, loss])["a"].shown != rate([loss, win])["a"].shown  # the last match weighs more
    assert rate([win])["a"].shown > 1500 > rate([win])["c"].shown


def test_results_written_and_read_back_rate_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "matches.jsonl"
    main(["--levels", *CHEAP, "--matches", "3", "--deals", "6", "--seed", "3", "--results-out", str(out)])
    played = capsys.readouterr().out
    main(["--results-in", str(out), "--seed", "3"])
    assert capsys.readouterr().out == played
    results = read_results(out.read_text().splitlines())
    assert [r.index for r in results] == [0, 1, 2] and all(sum(r.totals) == 0 for r in results)
    buffer = io.StringIO()
    write_results(results, buffer)
    assert buffer.getvalue() == out.read_text()


def test_a_run_played_in_parts_is_the_run_played_at_once() -> None:
    whole = list(play_matches(CHEAP, 3, 6, seed=5, workers=1))
    parts = [*play_matches(CHEAP, 1, 6, seed=5, workers=1), *play_matches(CHEAP, 2, 6, seed=5, workers=1, start=1)]
    assert parts == whole and [r.index for r in parts] == [0, 1, 2]
