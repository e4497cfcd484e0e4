"""On puzzles of four tricks or fewer, a search over every card order agrees with the solution.

Two searches, neither using the solver: on the true deal (the engine plays every card), which must give
each card's open value and the answer as the only best class by the gap; and on each of the move's
sampled worlds (drawn again from the puzzle's seed; the engine's rules and scoring on the world's hands),
which must give each class's mean over the worlds and the share of worlds where the answer is as good."""

from __future__ import annotations

from typing import Any

from tests.puzzles.brute import Table, brute_values, play_codes
from ulti.analysis.pricing import draw_worlds, strong_weight
from ulti.bots.sampling import analyse
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record
from ulti.puzzles.judge import MIN_GAP, MIN_SHARE, world_rng
from ulti.puzzles.shipped import load

#: Shipped puzzles searched exhaustively besides the examples (the first ones with four tricks or fewer).
SHIPPED_SAMPLE = 25
#: Of those, searched over every sampled world too (48 worlds each: the slower check).
WORLDS_SAMPLE = 10


def _short(puzzle: dict[str, Any]) -> bool:
    return 10 - sum(int(n) for n in puzzle["view"]["won"]) <= 4


def _agrees(puzzle: dict[str, Any]) -> None:
    deal: Deal = deal_from_record(puzzle["secret"]["record"])
    for number, move in enumerate(puzzle["moves"], 1):
        exact = brute_values(deal)
        assert exact == move["open_values"], f"{puzzle['id']} move {number}: values differ from every card order's"
        best = max(exact.values())
        winners = {code for code, value in exact.items() if value == best}
        assert winners == set(move["answer"]), f"{puzzle['id']} move {number}: another card is as good"
        assert all(value <= best - MIN_GAP for code, value in exact.items() if code not in winners)
        play_codes(deal, [move["answer"][0], *move["replies"]])


def test_brute_force_agrees_with_example_puzzles_of_four_tricks_or_fewer(examples: list[dict[str, Any]]) -> None:
    short = [p for p in examples if _short(p)]
    assert short
    for puzzle in short:
        _agrees(puzzle)


def test_brute_force_agrees_with_shipped_puzzles_of_four_tricks_or_fewer() -> None:
    short = [p for p in load() if _short(p)][:SHIPPED_SAMPLE]
    assert len(short) == SHIPPED_SAMPLE
    for puzzle in short:
        _agrees(puzzle)


def _agrees_over_worlds(puzzle: dict[str, Any]) -> None:
    """Every move's values over its worlds (drawn again from its seed) and its share, by every card order."""
    deal: Deal = deal_from_record(puzzle["secret"]["record"])
    seat = puzzle["seat"]
    for number, move in enumerate(puzzle["moves"]):
        view = deal.seat_view(seat)
        know = analyse(view)
        worlds = draw_worlds(view, know, move["worlds"], world_rng(puzzle["seed"], number), strong_weight)
        assert len(worlds) == move["worlds"]
        sign = 1 if seat == deal.declarer else -1
        leads = [parse_card(c[0]) for c in move["classes"]]
        per_world = []
        for world in worlds:
            start = [world.hands[s] | know.played_by[s] for s in range(3)]
            table = Table(deal, world.hands, start, world.talon)
            per_world.append([sign * table.value_after(card) for card in leads])
        best = move["classes"].index(move["answer"])
        for k, klass in enumerate(move["classes"]):
            mean = sum(values[k] for values in per_world) / len(per_world)
            assert round(mean, 3) == move["values"][klass[0]], f"{puzzle['id']} move {number + 1}: {klass[0]}"
        as_good = sum(1 for values in per_world if values[best] == max(values))
        assert round(as_good / len(per_world), 4) == move["share"]
        assert move["share"] >= MIN_SHARE
        true = Table(deal, deal.hands, deal.start_hands, deal.talon)
        assert {c: sign * true.value_after(parse_card(c)) for c in move["open_values"]} == move["open_values"]
        play_codes(deal, [move["answer"][0], *move["replies"]])


def test_brute_force_over_the_worlds_agrees_with_example_puzzles_of_four_tricks_or_fewer(
    examples: list[dict[str, Any]],
) -> None:
    for puzzle in [p for p in examples if _short(p)]:
        _agrees_over_worlds(puzzle)


def test_brute_force_over_the_worlds_agrees_with_shipped_puzzles_of_four_tricks_or_fewer() -> None:
    for puzzle in [p for p in load() if _short(p)][:WORLDS_SAMPLE]:
        _agrees_over_worlds(puzzle)
