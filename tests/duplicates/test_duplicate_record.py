"""The ulti-event/1 record: built from tables' matches, checked by ``score_duplicate`` and ``ulti score``."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ulti.bots.random_bot import RandomBot
from ulti.duplicates import build_duplicate_record, duplicate_first_dealer, duplicate_hands, score_duplicate
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.errors import RecordError
from ulti.engine.match import Match
from ulti.engine.record import match_to_record

SEED = 4242


def event_match(seed: int, deals: int, play_seed: int) -> dict[str, Any]:
    """A table of the event: its deals from the seed, played by random bots of its own."""
    match = Match(deals, duplicate_first_dealer(seed), [f"P{play_seed}-{s}" for s in range(3)])
    rng = random.Random(play_seed)
    for index in range(deals):
        dealer, hands = duplicate_hands(seed, index)
        deal = match.new_deal([[parse_card(c) for c in h] for h in hands])
        assert deal.dealer == dealer
        bot = RandomBot(rng)
        while not deal.is_over:
            deal.apply(bot.act(deal.seat_view(deal.to_move)))
    return match_to_record(match)


def event_record(tables: int = 3) -> dict[str, Any]:
    matches = [event_match(SEED, 6, play) for play in range(tables)]
    bots = [[False, True, True]] * tables
    return build_duplicate_record("ev1", 6, duplicate_first_dealer(SEED), matches, bots, seed=SEED)


def deal_from(seat_cards: list[list[str]], dealer: int) -> Deal:
    return Deal([[parse_card(c) for c in h] for h in seat_cards], dealer)


def test_every_table_gets_the_same_cards_from_the_seed_whatever_is_played() -> None:
    one, two = event_match(SEED, 6, 1), event_match(SEED, 6, 2)
    for a, b in zip(one["deals"], two["deals"], strict=True):
        assert (a["dealer"], a["hands"]) == (b["dealer"], b["hands"])
    assert [d["actions"] for d in one["deals"]] != [d["actions"] for d in two["deals"]]  # played apart


def test_a_built_record_scores_and_its_matchpoints_are_the_recomputed_ones() -> None:
    record = event_record()
    scored = score_duplicate(json.loads(json.dumps(record)))
    assert scored["complete"] and scored["tables"] == 3
    assert scored["matchpoints"] == record["matchpoints"] and scored["standings"] == record["standings"]
    for index, per_table in enumerate(scored["matchpoints"]):
        for seat in range(3):
            scores = [scored["scores"][index][t][seat] for t in range(3)]
            for t in range(3):
                mine = scores[t]
                want = sum(2 if mine > o else 1 if mine == o else 0 for j, o in enumerate(scores) if j != t)
                assert per_table[t][seat] == want


def test_a_table_whose_cards_differ_is_refused_naming_the_deal_and_the_table() -> None:
    record = event_record()
    bad = copy.deepcopy(record)
    hands = bad["tables"][1]["match"]["deals"][3]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # one card swapped between two seats
    bad.pop("seed")
    with pytest.raises(RecordError, match=r"^deal 3: table 2: cards differ from table 1's"):
        score_duplicate(bad)


def test_cards_that_do_not_come_from_the_seed_are_refused() -> None:
    record = event_record(tables=1)
    record["seed"] = SEED + 1
    with pytest.raises(RecordError, match=r"^deal 0: table 1: cards do not come from the event's seed"):
        score_duplicate(record)


def test_stated_matchpoints_that_differ_are_refused() -> None:
    record = event_record()
    record["matchpoints"][2][1][0] += 1
    with pytest.raises(RecordError, match=r"^deal 2: table 2: matchpoints \[[^]]*\] stated, \[[^]]*\] computed"):
        score_duplicate(record)


def test_ulti_score_checks_an_event_record(tmp_path: Path) -> None:
    record = event_record()
    good, bad = tmp_path / "event.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(good)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["standings"] == record["standings"]
    tampered = copy.deepcopy(record)
    hands = tampered["tables"][2]["match"]["deals"][4]["hands"]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    bad.write_text(json.dumps(tampered))
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "deal 4: table 3: cards differ from table 1's"
