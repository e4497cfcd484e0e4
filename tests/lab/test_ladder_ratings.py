"""The ladder's ratings: rated matches among bot levels, rated as the site rates people."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ulti.lab.ladder_ratings import (
    MatchResult,
    main,
    play_match,
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
    assert lines[0].shown > 1500 > lines[2].shown
    for line in lines:
        assert line.low <= line.shown <= line.high
        assert line.matches == 60 and line.model_low < line.shown < line.model_high
    assert lines[0].points == 30 and lines[2].points == -30
    table = report(lines)
    assert "yes" in table[1] and "yes" in table[2]
    # ties everywhere: nobody moves from the newcomer's 1500 and the intervals overlap
    even = ratings(fair, rounds=50)
    assert {line.shown for line in even} == {1500}
    assert "overlap" in report(even)[1]


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
