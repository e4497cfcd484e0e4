"""The double-dummy solver against references (ulti.bots.solver).

(a) Every position of random endgames (up to four tricks) of each contract family, kontra
    multipliers included, against a plain exhaustive minimax over the engine itself
    (``Deal.copy`` / ``Deal.play``, ``settle`` at the leaves through ``deal.result``): the value and
    the set of best cards, for the whole contract's value and for every win/lose objective.
(b) Random positions of full deals with 5–6 tricks left, win/lose objectives: the solver against
    its own plain alpha-beta mode (no transposition table, no grouping of equivalent cards).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import ulti.bots.solver as solver
import ulti.bots.solver._dd as dd
from ulti.bots.solver import Objective, ObjectiveKind, Position, solve
from ulti.engine.cards import (
    CARD_POINT_VALUE,
    PLAIN_ORDER_STRENGTH,
    POINT_CARDS,
    TRUMP_ORDER_STRENGTH,
    card_points,
    iter_cards,
)
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.deal import Deal, Phase
from ulti.engine.play import NO_TRUMP, TRICKS_PER_DEAL, seven_of
from ulti.engine.scoring import (
    HEARTS_FACTOR,
    HUNDRED,
    LAST_TRICK_BONUS,
    LOST_ULTI_EXTRA,
    SILENT_DURCHMARS,
    SILENT_HUNDRED_FACTOR,
    SILENT_ULTI_LOST,
    SILENT_ULTI_WON,
    counting_marriages,
    marriages_of,
)

# (family, bid code, trump)
FAMILIES = [
    ("simple", "M-S", 0),
    ("ulti", "M-SU", 1),
    ("40-100", "M-40", 2),
    ("20-100", "M-20", 0),
    ("durchmars-trump", "M-40UD", 1),
    ("betli", "N-B", NO_TRUMP),
    ("durchmars-no-trump", "N-D", NO_TRUMP),
    ("hearts-ulti", "H-SU", 3),
    ("hearts-20-100-ulti-durchmars", "H-20UD", 3),
]


def seat_to_play(deal: Deal) -> int:
    return deal.leader if deal.in_chain else deal.to_move


def random_deal(rng: random.Random, code: str, trump: int) -> Deal:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[i * 10 : (i + 1) * 10]) for i in range(3)]
    talon = (1 << cards[30]) | (1 << cards[31])
    declarer = rng.randrange(3)
    return Deal.at_play(hands, (declarer + 2) % 3, declarer, BIDS_BY_CODE[code], trump, talon)


def random_position(rng: random.Random, code: str, trump: int, tricks_left: int, extra_cards: int = 0) -> Deal:
    """A random deal played at random (the deal never ending early) until ``tricks_left`` remain,
    then ``extra_cards`` (0..2) more cards into the next trick; random kontra multipliers."""
    while True:
        deal = random_deal(rng, code, trump)
        target = 3 * (10 - tricks_left) + extra_cards
        played = 0
        while played < target:
            for _ in range(50):
                trial = deal.copy()
                step = min(3 - len(trial.trick), target - played)
                for _ in range(step):
                    trial.play(seat_to_play(trial), rng.choice(list(iter_cards(trial.legal_card_mask()))))
                if trial.phase is Phase.PLAY:
                    deal, played = trial, played + step
                    break
            else:
                break
        if played == target:
            assert deal.contract is not None
            for part, _ in deal.contract.parts:
                deal.levels[part] = rng.randrange(4)  # multipliers 1, 2, 4, 8
            return deal


def objectives_for(deal: Deal, rng: random.Random) -> list[Objective]:
    contract = deal.contract
    assert contract is not None
    if not contract.has_trumps:
        own = Objective.BETLI if contract.has(Part.BETLI) else Objective.DURCHMARS
        return [Objective.CONTRACT, own]
    forty, twenties = marriages_of(deal.start_hands[deal.declarer], deal.trump)
    marriages = counting_marriages(contract, True, forty, twenties)
    threshold = rng.choice([10, 30, 50, 60, 80, 100])
    return [
        Objective.CONTRACT,
        Objective.DURCHMARS,
        Objective.BETLI,
        Objective.ULTI,
        Objective.points(threshold, marriages),
    ]


def leaf_value(deal: Deal, objective: Objective) -> int:
    """The objective of a finished deal (the trick predicates are folded in along the way)."""
    result = deal.result
    assert result is not None
    kind = objective.kind
    if kind is ObjectiveKind.CONTRACT:
        return result.per_defender
    if kind in (ObjectiveKind.DURCHMARS, ObjectiveKind.BETLI):
        return 1  # no trick left: the per-trick conditions were checked on the way
    last = deal.tricks[-1]
    if kind is ObjectiveKind.ULTI:
        return int(last.winner == deal.declarer and last.card_of(deal.declarer) == seven_of(deal.trump))
    taken = 0
    for trick in deal.tricks:
        if trick.winner == deal.declarer:
            taken |= sum(1 << c for c in trick.cards)
    total = card_points(taken) + (LAST_TRICK_BONUS if last.winner == deal.declarer else 0) + objective.marriages
    if not deal.won[deal.declarer]:
        total = 0
    return int(total >= objective.threshold)


Memo = list[tuple[Deal, list[int], list[int]]]


def reference(deal: Deal, objectives: list[Objective], memo: Memo) -> list[int]:
    """Exhaustive minimax over the engine: the value of each objective; records every position."""
    if deal.phase is Phase.DONE:
        return [leaf_value(deal, o) for o in objectives]
    seat = seat_to_play(deal)
    children: dict[int, list[int]] = {}
    for card in iter_cards(deal.legal_card_mask()):
        child = deal.copy()
        tricks_before = len(child.tricks)
        child.play(seat, card)
        values = list(reference(child, objectives, memo))
        if len(child.tricks) > tricks_before:  # this card completed a trick
            winner = child.tricks[-1].winner
            for i, o in enumerate(objectives):
                lost_trick = winner != deal.declarer if o.kind is ObjectiveKind.DURCHMARS else False
                won_trick = winner == deal.declarer if o.kind is ObjectiveKind.BETLI else False
                if lost_trick or won_trick:
                    values[i] = 0
        children[card] = values
    pick: Callable[..., int] = max if seat == deal.declarer else min
    out = [pick(v[i] for v in children.values()) for i in range(len(objectives))]
    best = [sum(1 << c for c, v in children.items() if v[i] == out[i]) for i in range(len(objectives))]
    memo.append((deal, out, best))
    return out


@pytest.mark.parametrize(("family", "code", "trump"), FAMILIES)
def test_every_position_of_random_endgames_matches_exhaustive_minimax(family: str, code: str, trump: int) -> None:
    rng = random.Random(f"endgame-{family}")
    checked = 0
    for tricks_left, extra, games in ((4, 0, 2), (4, 1, 1), (3, 0, 4), (2, 2, 4), (1, 0, 4)):
        for _ in range(games):
            deal = random_position(rng, code, trump, tricks_left, extra)
            objectives = objectives_for(deal, rng)
            memo: Memo = []
            reference(deal, objectives, memo)
            for position_deal, values, best in memo:
                position = Position.from_deal(position_deal)
                for i, objective in enumerate(objectives):
                    got = solve(position, objective)
                    assert (int(got.value), got.best_cards) == (values[i], best[i]), (
                        family, objective, position, values[i], bin(best[i]), got,
                    )
                    checked += 1
    assert checked > 500


def test_contract_value_at_the_last_trick_equals_settle_for_every_card_order() -> None:
    """Leaf values: trick 10 from every seat to lead, every contract family, random kontra."""
    rng = random.Random("leaves")
    for _family, code, trump in FAMILIES:
        for _ in range(60):
            deal = random_position(rng, code, trump, 1, rng.randrange(3))
            before = Position.from_deal(deal)
            got = solve(before, Objective.CONTRACT)
            while deal.phase is Phase.PLAY:
                deal.play(seat_to_play(deal), next(iter_cards(deal.legal_card_mask())))
            assert deal.result is not None
            assert got.value == deal.result.per_defender


WIN_LOSE = {
    "M-S": [Objective.DURCHMARS, Objective.BETLI, Objective.ULTI, Objective.points(50), Objective.points(80, 20)],
    "M-SU": [Objective.ULTI, Objective.DURCHMARS, Objective.points(60)],
    "H-40": [Objective.points(60, 40), Objective.ULTI, Objective.DURCHMARS],
    "M-40UD": [Objective.DURCHMARS, Objective.ULTI],
    "N-B": [Objective.BETLI],
    "N-HD": [Objective.DURCHMARS],
}


@pytest.mark.parametrize("code", sorted(WIN_LOSE))
def test_win_lose_objectives_match_plain_alpha_beta_on_full_deal_positions(code: str) -> None:
    rng = random.Random(f"plain-{code}")
    bid = BIDS_BY_CODE[code]
    nodes = [0, 0]
    for _ in range(50):
        trump = (3 if bid.is_hearts else rng.randrange(3)) if bid.has_trumps else NO_TRUMP
        deal = random_position(rng, code, trump, rng.choice((5, 6)), rng.randrange(3))
        position = Position.from_deal(deal)
        for objective in WIN_LOSE[code]:
            fast = solve(position, objective)
            plain = solve(position, objective, transposition=False, grouping=False)
            assert (fast.value, fast.best_cards) == (plain.value, plain.best_cards), (code, objective, position)
            nodes[0] += fast.nodes
            nodes[1] += plain.nodes
    assert nodes[0] < nodes[1]


def test_full_deals_solve_and_best_cards_are_legal() -> None:
    rng = random.Random("full")
    for _family, code, trump in FAMILIES:
        for _ in range(3):
            deal = random_deal(rng, code, trump)
            position = Position.from_deal(deal)
            result = solve(position, Objective.CONTRACT)
            assert result.best_cards
            assert result.best_cards & ~deal.legal_card_mask() == 0
            # playing a best card keeps the value
            child = deal.copy()
            child.play(deal.declarer, next(iter_cards(result.best_cards)))
            if child.phase is Phase.PLAY:
                assert solve(Position.from_deal(child), Objective.CONTRACT).value == result.value


def test_rejects_positions_it_cannot_solve() -> None:
    rng = random.Random("reject")
    deal = random_deal(rng, "N-B", NO_TRUMP)
    with pytest.raises(ValueError):
        solve(Position.from_deal(deal), Objective.ULTI)
    with pytest.raises(ValueError):
        solve(Position.from_deal(deal), Objective.DURCHMARS)
    finished = random_position(rng, "M-S", 0, 1)
    while finished.phase is Phase.PLAY:
        position = Position.from_deal(finished)
        finished.play(seat_to_play(finished), next(iter_cards(finished.legal_card_mask())))
    with pytest.raises(ValueError):
        Position.from_deal(finished)
    assert position.tricks_done == 9


def test_the_rule_constants_come_from_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrapper hands the search exactly the engine's constants (none is written in ``_dd.pyx``)."""
    calls: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    real = dd.solve_internal

    def spy(*args: Any) -> tuple[int, int, int]:
        calls.append((args[6], args[12], args[13]))  # trump, rules, contract
        return real(*args)

    monkeypatch.setattr(dd, "solve_internal", spy)
    rng = random.Random("constants")
    for _family, code, trump in FAMILIES:
        solve(Position.from_deal(random_position(rng, code, trump, 2)), Objective.CONTRACT)
    assert len(calls) == len(FAMILIES)
    for (_family, code, _), (trump, rules, contract) in zip(FAMILIES, calls, strict=True):
        fwd, back = solver._MAPS[trump]
        points, card_value, last_trick, hundred, tricks, trump7 = rules
        assert solver._map_mask(points, back) == POINT_CARDS
        assert (card_value, last_trick, hundred) == (CARD_POINT_VALUE, LAST_TRICK_BONUS, HUNDRED)
        assert tricks == TRICKS_PER_DEAL
        assert trump7 == (fwd[seven_of(trump)] if trump != NO_TRUMP else -1)
        strength = PLAIN_ORDER_STRENGTH if trump == NO_TRUMP else TRUMP_ORDER_STRENGTH
        assert all(fwd[c] == (c & ~7) | strength[c & 7] for c in range(32))
        if BIDS_BY_CODE[code].has_trumps:
            factor = HEARTS_FACTOR if BIDS_BY_CODE[code].is_hearts else 1
            assert contract[4] == LOST_ULTI_EXTRA * factor
            assert contract[10:14] == (
                SILENT_ULTI_WON * factor, SILENT_ULTI_LOST * factor, SILENT_DURCHMARS * factor, SILENT_HUNDRED_FACTOR,
            )


def test_the_search_counts_the_last_trick_bonus_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the last-trick bonus raised to 1000, "at least 1000 points" holds exactly when the
    declarer takes the last trick; with the engine's 10 it never does."""
    rng = random.Random("last-trick")
    seen = set()
    for _ in range(30):
        deal = random_position(rng, "M-S", rng.randrange(3), 1)
        position = Position.from_deal(deal)
        assert solve(position, Objective.points(1000)).value is False
        while deal.phase is Phase.PLAY:  # one card each: the last trick is forced
            deal.play(seat_to_play(deal), next(iter_cards(deal.legal_card_mask())))
        takes_last = deal.tricks[-1].winner == deal.declarer
        with monkeypatch.context() as patch:
            patch.setattr(solver, "LAST_TRICK_BONUS", 1000)
            assert solve(position, Objective.points(1000)).value is takes_last
        seen.add(takes_last)
    assert seen == {True, False}
