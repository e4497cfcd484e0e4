"""The double-dummy solver against references (ulti.bots.solver).

(a) Every position of random endgames (up to four tricks) of each contract family, kontra
    multipliers included, against a plain exhaustive minimax over the engine itself
    (``Deal.copy`` / ``Deal.play``, ``settle`` at the leaves through ``deal.result``): the value and
    the set of best cards, for the whole contract's value and for every win/lose objective.
(b) Random positions of full deals with 5–6 tricks left, win/lose objectives: the solver against
    its own plain alpha-beta mode (no transposition table, no grouping of equivalent cards).
(c) The DDS-style search's own cases: declarer-friendly betli deals (full deals and later positions),
    best-card sets, ``values_after``, and its table (kept across solves, relative-rank keys), against
    plain alpha-beta with the sure outcomes off too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

import ulti.bots.solver as solver
import ulti.bots.solver._dd as dd
from ulti.bots.heuristic import betli_risk
from ulti.bots.solver import Objective, ObjectiveKind, Position, solve
from ulti.engine.cards import (
    CARD_POINT_VALUE,
    FULL_DECK,
    PLAIN_ORDER_STRENGTH,
    POINT_CARDS,
    TRUMP_ORDER_STRENGTH,
    card_points,
    iter_cards,
    mask_of,
    parse_card,
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
    seat = deal.leader if deal.in_chain else deal.to_move
    assert seat is not None  # asked during the play only
    return seat


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
    assert contract is not None and deal.declarer is not None
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
    assert result is not None and deal.declarer is not None
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
            assert deal.declarer is not None
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


# ---------------------------------------------------------------- the DDS-style search (bounds, sure outcomes,
# relative-rank table kept across solves): agreement on the deals it prunes most, and its table's behaviour


def friendly_betli_deal(rng: random.Random) -> Deal:
    """A betli whose declarer holds low cards, as a betli bidder would (``betli_risk`` at most 1)."""
    while True:
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[i * 10 : (i + 1) * 10]) for i in range(3)]
        talon = (1 << cards[30]) | (1 << cards[31])
        low = [s for s in range(3) if betli_risk(hands[s]) <= 1]
        if low:
            declarer = low[0]
            return Deal.at_play(hands, (declarer + 2) % 3, declarer, BIDS_BY_CODE["N-B"], NO_TRUMP, talon)


def play_randomly(rng: random.Random, deal: Deal, cards: int) -> Deal | None:
    """``deal`` after ``cards`` random legal cards, or None if it ended first."""
    for _ in range(cards):
        deal.play(seat_to_play(deal), rng.choice(list(iter_cards(deal.legal_card_mask()))))
        if deal.phase is not Phase.PLAY:
            return None
    return deal


def plain(position: Position, objective: Objective) -> tuple[int, int]:
    """The reference: alpha-beta with no table, no grouping and no sure outcomes (value, best cards)."""
    dd.set_options(sure=False)
    try:
        got = solve(position, objective, transposition=False, grouping=False)
    finally:
        dd.set_options()
    return int(got.value), got.best_cards


def test_declarer_friendly_betli_deals_match_plain_alpha_beta() -> None:
    """Full deals from trick 1 and positions later in the play, value and best cards."""
    rng = random.Random("friendly-betli")
    nodes = [0, 0]
    wins = 0
    for n in range(40):
        deal = play_randomly(rng, friendly_betli_deal(rng), 0 if n < 10 else rng.randrange(3, 13))
        if deal is None:
            continue
        position = Position.from_deal(deal)
        for objective in (Objective.BETLI, Objective.CONTRACT):
            fast = solve(position, objective)
            assert (int(fast.value), fast.best_cards) == plain(position, objective), (n, objective, position)
            nodes[0] += fast.nodes
        nodes[1] += solve(position, Objective.BETLI, transposition=False, grouping=False).nodes
        wins += bool(solve(position, Objective.BETLI).value)
    assert 0 < wins < 40  # both outcomes are checked
    assert nodes[0] < nodes[1]


@pytest.mark.parametrize("code", ["M-S", "M-SU", "H-40", "M-40UD", "N-B"])
def test_best_card_sets_match_plain_alpha_beta(code: str) -> None:
    """The best-card scan (bounds and null windows) against the reference, trick starts and mid-trick."""
    rng = random.Random(f"best-{code}")
    bid = BIDS_BY_CODE[code]
    for _ in range(25):
        trump = (3 if bid.is_hearts else rng.randrange(3)) if bid.has_trumps else NO_TRUMP
        deal = random_position(rng, code, trump, rng.choice((4, 5)), rng.randrange(3))
        position = Position.from_deal(deal)
        objectives = objectives_for(deal, rng)
        for objective in objectives:
            got = solve(position, objective)
            assert (int(got.value), got.best_cards) == plain(position, objective), (code, objective, position)


@pytest.mark.parametrize("code", ["M-S", "H-SU", "M-40UD", "N-B", "N-D"])
def test_values_after_equal_solving_each_resulting_position(code: str) -> None:
    rng = random.Random(f"after-{code}")
    bid = BIDS_BY_CODE[code]
    for _ in range(8):
        trump = (3 if bid.is_hearts else rng.randrange(3)) if bid.has_trumps else NO_TRUMP
        deal = random_position(rng, code, trump, rng.choice((3, 4)), rng.randrange(3))
        cards = list(iter_cards(deal.legal_card_mask()))
        expected = []
        for card in cards:
            child = deal.copy()
            child.play(seat_to_play(child), card)
            if child.phase is Phase.PLAY:
                expected.append(solve(Position.from_deal(child), Objective.CONTRACT).value)
            else:
                assert child.result is not None
                expected.append(child.result.per_defender)
        position = Position.from_deal(deal)
        assert solver.values_after(position, cards) == expected
        # guesses (here wild ones) order the search's steps, never change a value
        guesses = [rng.choice((-40, -1, 0, 2, 17)) for _ in cards]
        assert solver.values_after(position, cards, guesses) == expected
    with pytest.raises(ValueError):
        solver.values_after(Position.from_deal(deal), [c for c in range(32) if not deal.legal_card_mask() >> c & 1][:1])


def test_the_table_is_kept_between_solves_and_cleared_on_demand() -> None:
    rng = random.Random("kept")
    position = Position.from_deal(random_position(rng, "M-S", 1, 5))
    other = Position.from_deal(random_position(rng, "H-SU", 3, 5))
    solver.clear_table()
    cold = solve(position, Objective.CONTRACT)
    solve(other, Objective.CONTRACT)  # another contract: entries under another context
    warm = solve(position, Objective.CONTRACT)
    assert (warm.value, warm.best_cards) == (cold.value, cold.best_cards)
    assert warm.nodes < cold.nodes
    solver.clear_table()
    again = solve(position, Objective.CONTRACT)
    assert (again.value, again.nodes) == (cold.value, cold.nodes)
    assert 0 < solver.table_bytes() <= 8 * 2**20


def test_positions_differing_only_in_which_equivalent_low_card_is_gone_share_an_entry() -> None:
    """Relative ranks: the 8 of a suit whose 7 is gone plays as the 7 whose 8 is gone."""
    rng = random.Random("relative")
    checked = 0
    while checked < 10:
        deal = random_position(rng, "N-B", NO_TRUMP, 5)
        gone = 0xFFFFFFFF & ~(deal.hands[0] | deal.hands[1] | deal.hands[2])
        assert deal.declarer is not None
        # a held card just above a gone card of its suit (within the suit's order): swap them
        pairs = [
            (c, c - 1) for c in iter_cards(deal.hands[deal.declarer]) if c & 7 and gone >> (c - 1) & 1
        ]
        if not pairs:
            continue
        held, low = pairs[0]
        position = Position.from_deal(deal)
        hands = list(position.hands)
        hands[deal.declarer] ^= (1 << held) | (1 << low)
        twin = replace(position, hands=(hands[0], hands[1], hands[2]))
        solver.clear_table()
        first = solve(position, Objective.BETLI, best_cards=False)
        second = solve(twin, Objective.BETLI, best_cards=False)
        assert second.value == first.value
        assert second.nodes == 1  # found in the table at the root
        dd.set_options(relative=False)
        try:
            solve(position, Objective.BETLI, best_cards=False)
            assert solve(twin, Objective.BETLI, best_cards=False).nodes > 1 or first.nodes == 1
        finally:
            dd.set_options()
        checked += 1


def test_a_bound_the_declarer_can_force_does_not_hold_after_another_lead() -> None:
    """Regression: on lead he can cash the ace and ten of clubs (two tricks, 20 points), but that lower
    bound is his choice: after another lead it may not hold, and the best cards must not include the
    leads that give it up (value -9: only the clubs' ace and ten keep it; the trump 7 is held back)."""
    hands = [mask_of(parse_card(c) for c in codes.split()) for codes in (
        "7C 9C KS 8D TD JD 9H TH JH QH", "8C TC AC 7S JS 7D 9D QD 8H KH", "QC KC 8S 9S TS AS KD AD 7H AH")]
    talon = FULL_DECK & ~(hands[0] | hands[1] | hands[2])
    position = Position.start(hands, 1, BIDS_BY_CODE["M-SU"], 2, talon)
    got = solve(position, Objective.CONTRACT)
    assert (got.value, got.best_cards) == (-9, mask_of(parse_card(c) for c in ("TC", "AC")))
    for card in iter_cards(position.hands[1] & ~(1 << parse_card("7D"))):
        expected = -9 if got.best_cards >> card & 1 else -10
        assert solver.values_after(position, [card]) == [expected]


@pytest.mark.parametrize("code", ["M-S", "M-SU", "H-SU", "M-40UD"])
def test_full_deal_best_cards_match_the_search_without_sure_outcomes(code: str) -> None:
    """From trick 1 (the declarer on lead: where his cashing tricks bound the value), the whole
    contract's best cards with every sure outcome and bound, against the search without them."""
    rng = random.Random(f"full-best-{code}")
    bid = BIDS_BY_CODE[code]
    for _ in range(30):
        trump = (3 if bid.is_hearts else rng.randrange(3)) if bid.has_trumps else NO_TRUMP
        position = Position.from_deal(random_deal(rng, code, trump))
        got = solve(position, Objective.CONTRACT)
        dd.set_options(sure=False)
        try:
            reference_result = solve(position, Objective.CONTRACT)
        finally:
            dd.set_options()
        assert (got.value, got.best_cards) == (reference_result.value, reference_result.best_cards), position
