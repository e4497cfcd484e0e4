"""The analysis of a finished deal (ulti/analysis): costs, best alternatives, double-dummy values."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.analysis.deals import BETLI_CHOICE_INDEX, betli_discard_record, betli_record
from tests.conftest import EXAMPLES
from ulti.analysis.pricing import DISCARD_CANDIDATES, action_key, discard_classes, price_view
from ulti.analysis.review import (
    analyse_deal,
    analyse_record,
    decision_indices,
    discard_index,
    finished_deal,
    match_totals,
    price_decisions,
)
from ulti.bots.solver import Objective, Position, solve
from ulti.engine.actions import Kind
from ulti.engine.cards import card_str, iter_cards, parse_card
from ulti.engine.deal import Deal
from ulti.engine.errors import RecordError
from ulti.engine.play import NO_TRUMP
from ulti.engine.record import deal_from_record


def example(name: str) -> dict[str, Any]:
    """An example record of tests/data/examples."""
    record: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return record


def decision_at(analysis: dict[str, Any], index: int) -> dict[str, Any]:
    """The decision object of action ``index``."""
    return next(d for d in analysis["decisions"] if d["index"] == index)


def test_taking_a_trick_in_a_betli_when_a_safe_card_existed_is_a_blunder_of_40() -> None:
    analysis = analyse_record(betli_record("AS"), worlds=8)
    d = decision_at(analysis, BETLI_CHOICE_INDEX)
    assert (d["seat"], d["key"], d["best"]) == (0, "AS", "9S")
    # hands are open after trick 1: one world, exact values; made betli +20, lost -20 per defender
    assert d["values"] == {"9S": 20.0, "AS": -20.0}
    assert d["cost"] == 40.0 and d["error"] == 0.0
    assert d["label"] == "blunder"
    assert d["dd"] == -20  # the betli ended lost with that card
    declarer = analysis["seats"][0]
    assert declarer["cost"] >= 40.0 and declarer["labels"]["blunder"] >= 1


def test_the_safe_card_costs_nothing() -> None:
    analysis = analyse_record(betli_record("9S"), worlds=8)
    d = decision_at(analysis, BETLI_CHOICE_INDEX)
    assert (d["key"], d["best"], d["cost"], d["label"]) == ("9S", "9S", 0.0, "")


def test_the_defender_lead_that_let_the_betli_through_is_named() -> None:
    # seat 2 led the 7S to trick 8; the JS forces the declarer's AS (it must beat) and wins the deal back
    analysis = analyse_record(betli_record("9S"), worlds=8)
    d = decision_at(analysis, BETLI_CHOICE_INDEX - 1)
    assert (d["seat"], d["key"], d["best"], d["cost"], d["label"]) == (2, "7S", "JS", 40.0, "blunder")


def test_a_card_best_in_every_world_costs_zero() -> None:
    deal = finished_deal(example("02-ulti-kontra-chain.json"))
    replay = Deal(deal.dealt, deal.dealer)
    checked = 0
    for index, action in enumerate(deal.history):
        if action.kind is Kind.PLAY and replay.legal_card_mask().bit_count() > 1:
            view = replay.seat_view(action.seat)
            priced = price_view(view, 12, random.Random(index), kind=Kind.PLAY, legal_cards=replay.legal_card_mask())
            assert priced is not None
            chosen = action_key(action)
            rows = list(zip(*priced.samples.values(), strict=True))
            mine = priced.samples[chosen]
            if all(mine[w] >= max(row) for w, row in enumerate(rows)):
                assert priced.cost(chosen) == (0.0, 0.0)
                assert priced.best(prefer=chosen) == chosen
                checked += 1
        replay.apply(action)
    assert checked >= 5


def _dd_after(deal: Deal, card: int) -> int:
    after = deal.copy()
    assert after.to_move is not None  # the deal is in its play
    after.play(after.to_move, card)
    if after.is_over:
        assert after.result is not None
        return after.result.per_defender
    return int(solve(Position.from_deal(after), Objective.CONTRACT, best_cards=False).value)


@pytest.mark.parametrize("name", ["04-open-durchmars-minor.json", "09-ulti-lost-without-7.json"])
def test_open_hands_are_priced_at_their_double_dummy_values(name: str) -> None:
    """Once an open contract's hands are face up the seat knows the one world: every alternative's value
    is the solver's value of the real deal after it, in the seat's own points."""
    deal = finished_deal(example(name))
    analysis = analyse_deal(deal, worlds=4)
    replay = Deal(deal.dealt, deal.dealer)
    checked = 0
    for index, action in enumerate(deal.history):
        if action.kind is Kind.PLAY and replay.hands_open() and not replay.in_chain:
            d = decision_at(analysis, index)
            sign = 1 if action.seat == deal.declarer else -1
            legal = replay.legal_card_mask()
            expected = {card_str(c): float(sign * _dd_after(replay, c)) for c in iter_cards(legal)}
            assert d["values"] == expected, index
            assert d["cost"] == max(expected.values()) - expected[d["key"]]
            checked += 1
        replay.apply(action)
    assert checked >= 10


def test_every_card_kontra_and_trump_is_a_decision() -> None:
    deal = finished_deal(example("02-ulti-kontra-chain.json"))
    analysis = analyse_deal(deal, worlds=6)
    kinds = [(d["index"], d["kind"]) for d in analysis["decisions"]]
    expected = [(i, a.kind.value) for i, a in enumerate(deal.history) if a.kind in (Kind.PLAY, Kind.KONTRA)]
    assert kinds == [(4, "discard"), *expected]  # the declarer's last discard (H-SU, 9D QC) comes first
    kontra = decision_at(analysis, 10)  # seat 0's kontra of the ulti on trick 1
    assert kontra["kind"] == "kontra" and kontra["key"] == "ulti"
    assert set(kontra["values"]) == {"none", "simple", "ulti", "simple+ulti"}  # every subset of the parts
    rekontra = decision_at(analysis, 12)
    assert rekontra["seat"] == 1 and set(rekontra["values"]) == {"none", "ulti"}
    for d in analysis["decisions"]:
        assert d["cost"] >= 0.0 and d["error"] >= 0.0
        assert d["key"] in d["values"] and d["best"] in d["values"]
        assert d["cost"] == pytest.approx(max(0.0, d["values"][d["best"]] - d["values"][d["key"]]), abs=2e-3)
        assert isinstance(d["dd"], int)
    assert analysis["graph"][-1]["value"] == deal.result.per_defender if deal.result else False


def test_the_trump_and_the_give_up_are_priced() -> None:
    analysis = analyse_record(example("05-give-up.json"), worlds=8)
    (d,) = analysis["decisions"]
    assert d["kind"] == "trump" and d["key"] == "give_up"
    assert set(d["values"]) == {"C", "S", "D", "give_up"}
    assert d["values"]["give_up"] == -2.0  # a give-up costs the declarer 2 per defender
    assert analysis["graph"] == []


def test_the_double_dummy_graph_starts_at_the_play_and_ends_at_the_result() -> None:
    record = betli_record("9S")
    deal = deal_from_record(record)
    analysis = analyse_deal(deal, worlds=2)
    graph = analysis["graph"]
    assert graph[0]["index"] == 4  # after the last pass of the auction: the start of play
    assert graph[-1] == {"index": len(deal.history), "value": 20}
    assert [p["index"] for p in graph] == list(range(4, len(deal.history) + 1))


def test_the_same_record_gives_the_same_analysis_whole_or_in_chunks() -> None:
    deal = finished_deal(example("07-hearts-20-100-ulti.json"))
    whole = analyse_deal(deal, worlds=6)
    indices = decision_indices(deal)
    chunks = [price_decisions(deal, indices[k : k + 7], worlds=6) for k in range(0, len(indices), 7)]
    assert [d for chunk in chunks for d in chunk] == whole["decisions"]
    assert analyse_deal(deal, worlds=6) == whole


def test_an_unfinished_record_is_refused_naming_the_action() -> None:
    record = example("02-ulti-kontra-chain.json")
    record["actions"] = record["actions"][:20]
    with pytest.raises(RecordError, match=r"^action 20: the deal is not finished"):
        analyse_record(record)


def test_seat_totals_and_accuracy() -> None:
    analysis = analyse_record(betli_record("AS"), worlds=8)
    for seat in analysis["seats"]:
        mine = [d for d in analysis["decisions"] if d["seat"] == seat["seat"]]
        assert seat["cost"] == pytest.approx(sum(d["cost"] for d in mine))
        real = [d for d in mine if not d["forced"]]
        assert seat["decisions"] == len(real)
        assert seat["accuracy"] == pytest.approx(100 * sum(d["cost"] < 0.5 for d in real) / len(real), abs=1e-3)


def test_the_worker_functions_give_the_whole_analysis() -> None:
    from ulti.analysis.review import assemble_record, count_decisions, price_record_chunk

    record = example("07-hearts-20-100-ulti.json")
    total = count_decisions(record)
    parts = [d for first in range(0, total, 5) for d in price_record_chunk(record, first, 5, 6)]
    assert assemble_record(record, parts, 6) == analyse_record(record, 6)


def test_keeping_an_ace_in_a_betli_discard_is_a_blunder_and_laying_both_away_is_best() -> None:
    analysis = analyse_record(betli_discard_record(("8S", "AH")), worlds=16)
    d = decision_at(analysis, 0)  # the bid with the discard
    assert (d["seat"], d["kind"], d["key"], d["trick"]) == (0, "discard", "8S+AH", None)
    assert d["action"] == {"seat": 0, "action": "bid", "bid": "N-B", "discard": ["8S", "AH"]}
    assert d["best"] == "AS+AH" and d["values"]["AS+AH"] == 5.0  # the betli is made in every world
    assert d["values"]["8S+AH"] < 0 and d["cost"] >= 5.0 and d["label"] == "blunder"
    assert d["cost"] == pytest.approx(d["values"]["AS+AH"] - d["values"]["8S+AH"], abs=2e-3)
    assert 2 <= len(d["values"]) <= 1 + DISCARD_CANDIDATES and isinstance(d["dd"], int)
    assert analysis["seats"][0]["labels"]["blunder"] >= 1


def test_laying_both_aces_away_costs_nothing() -> None:
    analysis = analyse_record(betli_discard_record(("AS", "AH")), worlds=16)
    d = decision_at(analysis, 0)
    assert (d["kind"], d["key"], d["best"], d["cost"], d["label"]) == ("discard", "AS+AH", "AS+AH", 0.0, "")
    assert d["dd"] == 5  # the real deal, solved at the start of play with that talon


def test_only_the_declarers_last_discard_is_priced() -> None:
    # seat 1 bid M-40 laying 9D QS away, took the talon back and bid H-SU laying 9D QC away: the last one
    deal = finished_deal(example("02-ulti-kontra-chain.json"))
    assert discard_index(deal) == 4 and deal.history[4].discard is not None
    assert decision_indices(deal) == sorted(
        [4] + [i for i, a in enumerate(deal.history) if a.kind in (Kind.PLAY, Kind.KONTRA, Kind.TRUMP)]
    )
    # seat 0 laid 8S 8C away with M-S, seat 2 bid H-20U over it without the talon: the declarer laid nothing
    assert discard_index(finished_deal(example("07-hearts-20-100-ulti.json"))) is None
    # a give-up names no trump to price its discard for
    assert discard_index(finished_deal(example("05-give-up.json"))) is None


def test_equal_discards_are_valued_once() -> None:
    # the three lowest clubs are equal cards: laying any two of them away is one class
    hand = 0
    for code in ["7C", "8C", "9C", "7D", "8D", "9D", "7H", "8H", "7S", "8S", "AS", "AH"]:
        hand |= 1 << parse_card(code)
    classes = discard_classes(hand, NO_TRUMP)
    clubs = {(parse_card(a), parse_card(b)) for a, b in (("7C", "8C"), ("7C", "9C"), ("8C", "9C"))}
    assert sum(1 for pair in classes.values() if pair in clubs) == 1
    assert len(classes) < 66


def test_the_match_figures_pool_the_deals_decisions() -> None:
    first = analyse_record(betli_record("AS"), worlds=4)
    second = analyse_record(betli_record("9S"), worlds=4)
    totals = match_totals([first, second])
    for seat in range(3):
        a, b = first["seats"][seat], second["seats"][seat]
        n = a["decisions"] + b["decisions"]
        assert totals[seat]["decisions"] == n and totals[seat]["accurate"] == a["accurate"] + b["accurate"]
        # pooled: a deal with more decisions weighs more than in the mean of the two percentages
        assert totals[seat]["accuracy"] == pytest.approx(100 * (a["accurate"] + b["accurate"]) / n, abs=1e-3)
        assert totals[seat]["cost"] == pytest.approx(a["cost"] + b["cost"], abs=1e-3)
    assert totals[0]["accuracy"] < 100  # the declarer's blunder of the first deal counts
    empty = [{"seat": s, "cost": 0.0, "decisions": 0, "accurate": 0, "accuracy": None} for s in range(3)]
    assert match_totals([]) == empty


def test_at_a_table_of_four_the_match_figures_are_by_table_seat() -> None:
    first = analyse_record(betli_record("AS"), worlds=4)
    second = analyse_record(betli_record("9S"), worlds=4)
    # deal 0: table seat 0 sits out (seats 1, 2, 3 play); deal 1: table seat 1 sits out (2, 3, 0 play)
    totals = match_totals([first, second], [(1, 2, 3), (2, 3, 0)])
    assert [t["seat"] for t in totals] == [0, 1, 2, 3]
    assert totals[0]["decisions"] == second["seats"][2]["decisions"]
    assert totals[1]["decisions"] == first["seats"][0]["decisions"]
    for seat, (a, b) in {2: (1, 0), 3: (2, 1)}.items():
        n = first["seats"][a]["decisions"] + second["seats"][b]["decisions"]
        assert totals[seat]["decisions"] == n
        assert totals[seat]["cost"] == pytest.approx(first["seats"][a]["cost"] + second["seats"][b]["cost"], abs=1e-3)
