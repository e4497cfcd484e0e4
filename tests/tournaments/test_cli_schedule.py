"""``ulti tournament schedule``: a format's rounds and tables without a server."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ulti", "tournament", "schedule", *args],
                          capture_output=True, text=True)


def test_schedule_everyone_meets_everyone_for_21_players_as_json() -> None:
    out = run("--players", "21", "--format", "everyone", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["rounds"]) == 10 and all(len(r["tables"]) == 7 for r in data["rounds"])
    pairs = [p for r in data["rounds"] for t in r["tables"] for p in itertools.combinations(sorted(t["seats"]), 2)]
    assert len(pairs) == len(set(pairs)) == 210
    assert min(s for r in data["rounds"] for t in r["tables"] for s in t["seats"]) == 1


def test_schedule_rounds_option_keeps_the_first_rounds_and_text_names_bots() -> None:
    out = run("--players", "10", "--format", "everyone", "--rounds", "2")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and lines[1].startswith("round 1: ") and "bot" in out.stdout


def test_schedule_standings_prints_a_seeded_first_round() -> None:
    one = run("--players", "12", "--format", "standings", "--seed", "4", "--json")
    two = run("--players", "12", "--format", "standings", "--seed", "4", "--json")
    assert one.stdout == two.stdout and len(json.loads(one.stdout)["rounds"]) == 1


def test_schedule_teams_seats_letters_together() -> None:
    data = json.loads(run("--players", "27", "--format", "teams", "--json").stdout)
    for r in data["rounds"]:
        for t in r["tables"]:
            assert len({(s - 1) % 3 for s in t["seats"]}) == 1  # one letter per table


def test_schedule_refuses_arena_and_a_bad_format_naming_the_option() -> None:
    arena = run("--players", "9", "--format", "arena")
    assert arena.returncode == 2 and "--format arena has no schedule" in arena.stderr
    bad = run("--players", "9", "--format", "swiss")
    assert bad.returncode == 2 and "--format must be one of" in bad.stderr


def test_schedule_everyone_for_16_players_takes_the_fewest_rounds_and_says_so() -> None:
    data = json.loads(run("--players", "16", "--format", "everyone", "--json").stdout)
    assert len(data["rounds"]) == 9 and "in 9 rounds (no schedule has fewer than 9)" in data["note"]
    pairs = [p for r in data["rounds"] for t in r["tables"]
             for p in itertools.combinations(sorted(s for s in t["seats"] if s is not None), 2)]
    assert len(pairs) == len(set(pairs)) == 16 * 15 // 2


def test_schedule_everyone_serves_sixty_nine_players() -> None:
    out = run("--players", "69", "--format", "everyone", "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["rounds"]) == 34
