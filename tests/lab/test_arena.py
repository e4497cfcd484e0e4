"""The duplicate arena: fair seatings, valid records, and the heuristic bot beating the random one."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ulti.bots.families import FAMILIES, family
from ulti.bots.levels import Level
from ulti.engine.contracts import parse_bid
from ulti.engine.record import score_record
from ulti.lab.arena import play_set, run_arena, run_report, seatings, summarise
from ulti.lab.configs import CONFIGS


def test_duplicate_seatings_give_each_bot_each_seat_equally() -> None:
    rows = seatings()
    assert len(rows) == 6 and len(set(rows)) == 6
    for seat in range(3):
        assert Counter(row[seat] for row in rows) == {"A": 3, "B": 3}


def test_a_duplicate_set_replays_the_same_cards_and_its_records_score_to_the_results() -> None:
    result = play_set("heuristic", "random", seed=5, index=0)
    assert len(result.records) == 6
    assert len({json.dumps(r["hands"]) for r in result.records}) == 1
    assert len({r["dealer"] for r in result.records}) == 1
    totals_a = []
    for record, seating in zip(result.records, seatings(), strict=True):
        scores = score_record(record)["scores"]
        assert sum(scores) == 0
        totals_a.append(sum(s for s, who in zip(scores, seating, strict=True) if who == "A"))
    assert result.a_mean == sum(totals_a) / 6


def test_summary_interval() -> None:
    summary = summarise([1.0, 2.0, 3.0, 4.0])
    assert summary.mean == 2.5
    assert summary.low < 2.5 < summary.high
    assert summary.excludes_zero()
    assert not summarise([-1.0, 1.0, -2.0, 2.0]).excludes_zero()


def test_heuristic_beats_random_over_duplicate_deals() -> None:
    out = io.StringIO()
    summary = run_arena("heuristic", "random", sets=40, seed=3, workers=1, records_out=out)
    assert summary.mean > 0 and summary.excludes_zero()
    lines = out.getvalue().splitlines()
    assert len(lines) == 40 * 6


def test_ulti_arena_command(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "arena", "--a", "heuristic", "--b", "random", "--deals", "12",
         "--seed", "9", "--workers", "2", "--records", str(records)],
        capture_output=True, text=True, check=True,
    )
    assert "A = heuristic:" in proc.stdout and "95% interval" in proc.stdout
    assert "12/12" in proc.stderr
    lines = records.read_text().splitlines()
    assert len(lines) == 72
    scored = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "score", "--jsonl", str(records)], capture_output=True, text=True, check=True
    )
    assert all("error" not in json.loads(line) for line in scored.stdout.splitlines())


def test_cards_mode_opens_the_six_plays_with_one_auction() -> None:
    result = play_set("heuristic", "random", seed=5, index=2, mode="cards", auction_level="heuristic")
    openings = set()
    for record in result.records:
        actions = record["actions"]
        play_at = next((i for i, a in enumerate(actions) if a["action"] in ("play", "kontra")), len(actions))
        openings.add(json.dumps(actions[:play_at]))
    assert len(openings) == 1  # same bids, discards, talon takes and trump in every play
    (opening,) = openings
    assert any(a["action"] == "bid" and "discard" in a for a in json.loads(opening))
    assert result.family in FAMILIES
    # and nobody raised the stakes: card play on the contract's own value
    assert all(not a.get("parts") for r in result.records for a in r["actions"] if a["action"] == "kontra")


def test_game_mode_lets_each_seating_bid() -> None:
    # the random bot bids at random: six plays of one deal with their own auctions differ
    result = play_set("heuristic", "random", seed=5, index=2, mode="game")
    auctions = {json.dumps([a for a in r["actions"] if a["action"] in ("bid", "pass", "take")])
                for r in result.records}
    assert len(auctions) > 1


def test_families() -> None:
    assert family(parse_bid("N-B")) == "betli" and family(parse_bid("N-OB")) == "betli"
    assert family(parse_bid("M-UD")) == "durchmars" and family(parse_bid("H-SU")) == "ulti"
    assert family(parse_bid("M-40")) == "100" and family(parse_bid("M-S")) == "simple"
    assert family(parse_bid("M-S"), given_up=True) == "given up"


def test_the_same_seed_gives_the_same_report_on_one_or_two_workers() -> None:
    first = run_report("strong-fast", "heuristic", sets=3, seed=6, workers=1, records_out=None, mode="cards")
    again = run_report("strong-fast", "heuristic", sets=3, seed=6, workers=2, records_out=None, mode="cards")
    assert first == again
    assert first.safety_stops == 0
    assert sum(f.sets for f in first.families.values()) == 3


#: Plays set 187 of seed 2026 in card mode (strong bots) and prints its six records.
_SET_187 = (
    "import json; from ulti.lab.arena import play_set; "
    "print(json.dumps(play_set('strong', 'strong', 2026, 187, 'cards', 'strong').records, sort_keys=True))"
)


def test_a_set_reproduces_in_processes_whose_string_hashes_differ() -> None:
    # Python salts string hashes per process, so a set of bid codes iterates in another order in each. This
    # deal's auction ends with a bidder who takes the cheapest allowed bid, two bids sharing its price: taken
    # from a set, hash seed 0 declared M-20U and hash seed 2 N-HD, and the six plays differed
    def played(hash_seed: int) -> str:
        env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
        proc = subprocess.run([sys.executable, "-c", _SET_187], env=env, capture_output=True, text=True, check=True)
        return proc.stdout

    first = played(0)
    assert json.loads(first)  # six records
    assert played(2) == first


def test_a_safety_budget_that_never_fires_leaves_the_report_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    def level(budget: float) -> Level:
        settings = {"samples": 8, "time_budget": budget, "auction_samples": 4, "auction_budget": budget}
        return Level("strong-budget", "ulti.bots.strong:strong_bot", settings, at_tables=False)

    reports = []
    for budget in (1e9, 600.0, -1.0):
        monkeypatch.setitem(CONFIGS, "strong-budget", level(budget))
        reports.append(run_report("strong-budget", "heuristic", sets=2, seed=4, workers=1, records_out=None))
    huge, large, spent = reports
    assert huge == large and huge.safety_stops == 0
    assert spent.safety_stops > 0  # a budget spent before any work fires, and the report says so


def test_ulti_arena_cards_mode_prints_families(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "arena", "--a", "heuristic", "--b", "random", "--deals", "6",
         "--seed", "9", "--workers", "1", "--records", "", "--mode", "cards", "--auction-level", "heuristic"],
        capture_output=True, text=True, check=True,
    )
    assert "mode cards (card play, auction by heuristic)" in proc.stdout
    assert "A per contract family:" in proc.stdout and "safety stops: 0" in proc.stdout


def test_cards_mode_kept_to_one_family_plays_only_its_contracts() -> None:
    # the heuristic's auctions end in a betli in few deals: the set draws further deals until one does
    redealt = 0
    for index in range(3):
        result = play_set("heuristic", "random", seed=5, index=index, mode="cards", auction_level="heuristic",
                          only_family="betli")
        assert result.family == "betli"
        assert len({json.dumps(r["hands"]) for r in result.records}) == 1
        assert all(family(parse_bid(score_record(r)["bid"])) == "betli" for r in result.records)
        own = play_set("heuristic", "random", seed=5, index=index, mode="cards", auction_level="heuristic")
        redealt += own.records[0]["hands"] != result.records[0]["hands"]
    assert redealt > 0  # some set's own deal was not a betli: it was dealt again
    # a set whose own deal is already of the family is that deal, played as the unfiltered run plays it
    plain = play_set("heuristic", "random", seed=5, index=2, mode="cards", auction_level="heuristic")
    kept = play_set("heuristic", "random", seed=5, index=2, mode="cards", auction_level="heuristic",
                    only_family=plain.family)
    assert kept == plain


def test_a_family_filter_needs_cards_mode_and_a_known_family() -> None:
    with pytest.raises(ValueError, match="needs --mode cards"):
        play_set("heuristic", "random", seed=5, index=0, mode="game", only_family="betli")
    with pytest.raises(ValueError, match="unknown contract family 'bet'"):
        play_set("heuristic", "random", seed=5, index=0, mode="cards", only_family="bet")
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "arena", "--a", "heuristic", "--b", "random", "--deals", "2",
         "--records", "", "--mode", "game", "--family", "betli"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2 and "needs --mode cards" in proc.stderr and not proc.stdout


def test_a_run_split_into_ranges_joins_into_the_whole_run(tmp_path: Path) -> None:
    """``--first-set``: sets 0-1 and 2-3, records joined in order, are the run of sets 0-3."""

    def run(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "ulti.cli", "arena", "--a", "heuristic", "--b", "random", "--seed", "5",
             "--workers", "1", "--records", str(path), *extra], capture_output=True, text=True, check=True,
        )

    run(tmp_path / "whole.jsonl", "--deals", "4")
    run(tmp_path / "first.jsonl", "--deals", "2")
    second = run(tmp_path / "second.jsonl", "--deals", "2", "--first-set", "2")
    assert "(sets 2 to 3)" in second.stdout
    joined = (tmp_path / "first.jsonl").read_text() + (tmp_path / "second.jsonl").read_text()
    assert joined == (tmp_path / "whole.jsonl").read_text()
    assert (tmp_path / "first.jsonl").read_text() != (tmp_path / "second.jsonl").read_text()
    refused = subprocess.run([sys.executable, "-m", "ulti.cli", "arena", "--first-set", "-1"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "--first-set" in refused.stderr
