"""The information-set lookahead: a card's value when the seat's own later cards cannot see the hidden hands."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.bots.expert import ExpertBot, LookaheadExpert
from ulti.bots.expert.lookahead import legal_in, lookahead_totals, shared_choice, solver_card
from ulti.bots.solver import Objective, Position, solve, values_after
from ulti.bots.strong import advance
from ulti.engine.cards import SUIT_MASKS, Card, CardSet, iter_cards
from ulti.engine.contracts import parse_bid
from ulti.engine.deal import Deal
from ulti.engine.play import NO_TRUMP
from ulti.engine.record import deal_from_record

FUSION = Path(__file__).parent.parent / "data" / "betli_defence_fusion.json"


def _betli_position(seed: int, declarer: int = 0) -> Position:
    """A betli at its first card: ten random cards each, two in the talon, the declarer to lead."""
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    hands = [sum(1 << c for c in cards[10 * s : 10 * s + 10]) for s in range(3)]
    talon = (1 << cards[30]) | (1 << cards[31])
    return Position.start(hands, declarer, parse_bid("N-B"), NO_TRUMP, talon)


def _plain(positions: Sequence[Position], cards: Sequence[Card], sign: int) -> list[int]:
    """Each card's total over the worlds, every world solved after it (plain sampling)."""
    return [sum(sign * values_after(pos, [card])[0] for pos in positions) for card in cards]


def _worlds_alike_to(pos: Position, seat: int, seed: int, count: int) -> list[Position]:
    """``count`` worlds: ``pos`` with the cards of the two other seats dealt again at random (sizes kept)."""
    others = [s for s in range(3) if s != seat]
    pool = [c for s in others for c in iter_cards(pos.hands[s])]
    rng = random.Random(seed)
    worlds = []
    for _ in range(count):
        rng.shuffle(pool)
        size = bin(pos.hands[others[0]]).count("1")
        hands = list(pos.hands)
        hands[others[0]] = sum(1 << c for c in pool[:size])
        hands[others[1]] = sum(1 << c for c in pool[size:])
        start = list(hands)
        for i, card in enumerate(pos.trick):
            start[(pos.leader + i) % 3] |= 1 << card
        worlds.append(replace(pos, hands=(hands[0], hands[1], hands[2]), start_hands=(start[0], start[1], start[2])))
    return worlds


def test_solver_card_is_one_of_the_best_and_legal_in_is_the_rules() -> None:
    pos = _betli_position(3)
    best = solve(pos, Objective.CONTRACT, best_cards=True).best_cards
    assert best >> solver_card(pos) & 1
    after = advance(pos, solver_card(pos))
    assert isinstance(after, Position)
    led = after.trick[0] >> 3
    follow: CardSet = after.hands[after.to_move] & SUIT_MASKS[led]
    # the seat to move must follow suit (and beat the card if it can): never a card of another suit then
    assert legal_in(after) & ~follow == 0 if follow else legal_in(after) == after.hands[after.to_move]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 10]))
def test_with_one_world_the_lookahead_is_the_plain_value(seed: int, turns: int) -> None:
    # a seat that knows the world has nothing to guess: the shared card is the world's best
    pos = _betli_position(seed, declarer=seed % 3)
    cards = list(iter_cards(legal_in(pos)))
    sign = 1 if pos.to_move == pos.declarer else -1
    assert lookahead_totals([pos], cards, sign, turns) == _plain([pos], cards, sign)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_the_lookahead_never_values_a_card_above_plain_sampling(seed: int) -> None:
    # the seat's later cards are one of the choices each world's solve considers: never better than them
    pos = _betli_position(seed, declarer=1)
    after = advance(pos, solver_card(pos))  # the declarer led: a defender to play, the others unknown
    assert isinstance(after, Position)
    worlds = _worlds_alike_to(after, after.to_move, seed, 12)
    cards = list(iter_cards(legal_in(after)))
    plain = _plain(worlds, cards, -1)
    for turns in (1, 3, 10):
        deeper = lookahead_totals(worlds, cards, -1, turns)
        assert all(d <= p for d, p in zip(deeper, plain, strict=True))


def test_one_shared_card_is_the_best_total_over_the_worlds() -> None:
    pos = _betli_position(7, declarer=1)
    after = advance(pos, solver_card(pos))
    assert isinstance(after, Position)
    worlds = _worlds_alike_to(after, after.to_move, 7, 10)
    card, values = shared_choice(worlds, -1)
    legal = list(iter_cards(legal_in(after)))
    totals = [-sum(values_after(w, [c])[0] for w in worlds) for c in legal]
    assert -sum(values) == max(totals) == totals[legal.index(card)]


def _fusion_decision(monkeypatch: pytest.MonkeyPatch) -> tuple[Deal, list[Any]]:
    """The betli defender's decision of tests/data/betli_defence_fusion.json (arena seed 2026, set 51), made
    by the lookahead expert; the worlds, cards and sign its lookahead was asked about."""
    deal = deal_from_record(json.loads(FUSION.read_text()))
    asked: list[Any] = []
    real = lookahead_totals

    def spy(positions: Sequence[Position], cards: Sequence[Card], sign: int, turns: int = 1) -> list[int]:
        asked.append((list(positions), list(cards), sign, turns))
        return real(positions, cards, sign, turns)

    monkeypatch.setattr("ulti.bots.expert.lookahead_totals", spy)
    bot = LookaheadExpert(random.Random("306:15"))
    bot.read_talon = False  # the worlds the decision was recorded with: before the expert read the talon
    asked.append(bot.act(deal.seat_view(deal.to_move)))
    return deal, asked


def test_a_betli_defender_sees_the_guess_plain_sampling_hides(monkeypatch: pytest.MonkeyPatch) -> None:
    deal, asked = _fusion_decision(monkeypatch)
    (positions, cards, sign, turns), action = asked
    assert deal.to_move != deal.declarer and sign == -1 and turns == 10 and len(positions) == 96
    plain = _plain(positions, cards, sign)
    deeper = lookahead_totals(positions, cards, sign, turns)
    # the card plain sampling likes best looks so only because each world's solve knows where the cards
    # lie: with the defender's later cards shared by the worlds alike to it, another card is better
    favourite = plain.index(max(plain))
    assert deeper[favourite] < plain[favourite] and deeper[favourite] < max(deeper)
    assert all(d <= p for d, p in zip(deeper, plain, strict=True))
    # so the lookahead expert plays another card than the plain expert on the same worlds
    plain_bot = ExpertBot(random.Random("306:15"))
    plain_bot.read_talon = False
    plain_action = plain_bot.act(deal.seat_view(deal.to_move))
    assert plain_action.card == cards[favourite] and action.card != plain_action.card
    assert deeper[cards.index(action.card)] == max(deeper)


def test_the_lookahead_stays_out_of_trump_contracts(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> list[int]:
        raise AssertionError("the lookahead ran in a trump contract")

    monkeypatch.setattr("ulti.bots.expert.lookahead_totals", refuse)
    record = json.loads((FUSION.parent / "examples" / "09-ulti-lost-without-7.json").read_text())
    first_card = next(i for i, a in enumerate(record["actions"]) if a["action"] == "play")
    deal = deal_from_record({**record, "actions": record["actions"][:first_card]})
    assert deal.contract is not None and deal.contract.has_trumps
    bot = LookaheadExpert(random.Random(1))
    for _ in range(6):  # the first two tricks, every seat played by the lookahead expert
        deal.apply(bot.act(deal.seat_view(deal.to_move)))
    assert deal.tricks and not deal.is_over
