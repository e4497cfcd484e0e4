"""Reading the other seats' cards: the table before each card, and whether that card was a best one."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ulti.bots.base import bot_for_level
from ulti.bots.expert.heuristic_reading import was_heuristic
from ulti.bots.expert.lookahead import legal_in, solver_card
from ulti.bots.expert.play_reading import (
    PlayedCard,
    play_weight,
    policy_best,
    position_before,
    read_play,
    redealt,
    was_best,
)
from ulti.bots.sampling import World, analyse
from ulti.bots.solver import Position, values_after
from ulti.engine.cards import FULL_DECK, count, iter_cards
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands


def _played(seed: int, cards: int) -> tuple[Deal, list[Position]]:
    """A deal bid and played by heuristic bots up to ``cards`` cards into the play (fewer if it ends), and
    the solver's position before each card played."""
    rng = random.Random(seed)
    deal = Deal(deal_hands(rng, seed % 3), seed % 3)
    bots = [bot_for_level("heuristic", random.Random(f"{seed}:{s}")) for s in range(3)]
    before: list[Position] = []
    while not deal.is_over and len(before) < cards:
        action = bots[deal.to_move].act(deal.seat_view(deal.to_move))
        if action.card is not None:  # a card, not a kontra said at a card turn
            before.append(Position.from_deal(deal))
        deal.apply(action)
    return deal, before


def _true_world(deal: Deal) -> World:
    return World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_read_play_rebuilds_the_table_before_each_card_of_the_other_seats(seed: int, tricks: int) -> None:
    deal, before = _played(seed, 14)
    assume(not deal.is_over and deal.phase is Phase.PLAY)  # given up or decided early: no table to read
    viewer = deal.to_move
    view = deal.seat_view(viewer)
    know = analyse(view)
    reads = read_play(view, know, tricks)
    played = [c for t in deal.tricks for c in t.cards] + list(deal.trick)
    first_trick = max(0, len(deal.tricks) + (1 if deal.trick else 0) - tricks)
    first_card = 3 * first_trick
    expected = [(i, c) for i, c in enumerate(played) if i >= first_card and before[i].to_move != viewer]
    assert [r.card for r in reads] == [c for _, c in expected]
    for read, (i, _) in zip(reads, expected, strict=True):
        assert read.seat == before[i].to_move
        pos = position_before(read, know, _true_world(deal))
        want = before[i]
        assert (pos.hands, pos.trick, pos.leader, pos.won, pos.declarer_points) == (
            want.hands,
            want.trick,
            want.leader,
            want.won,
            want.declarer_points,
        )
        # what the play before showed a seat does not hold, it did not hold then
        assert all(read.forbidden[s] & want.hands[s] == 0 for s in range(3))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_a_card_is_best_when_its_value_is_the_best_and_a_miss_costs_the_weight(seed: int) -> None:
    deal, _ = _played(seed, 5)
    assume(not deal.is_over and deal.phase is Phase.PLAY)
    know = analyse(deal.seat_view(deal.to_move))
    world = _true_world(deal)
    reads = read_play(deal.seat_view(deal.to_move), know, 2)
    # the weight of a world is ``miss`` once per read card that was not a best one there
    misses = sum(was_best(read, know, world) is False for read in reads)
    assert play_weight(reads, know, world, 0.5) == 0.5**misses
    for read in reads:
        pos = position_before(read, know, world)
        cards = list(iter_cards(legal_in(pos)))
        sign = 1 if read.seat == know.declarer else -1
        scores = [sign * v for v in values_after(pos, cards)]
        verdict = was_best(read, know, world)
        if len(set(scores)) < 2:
            assert verdict is None
            continue
        assert verdict == (scores[cards.index(read.card)] == max(scores))
        # the solver's own card is always a best one; the worst card never is
        as_solver = PlayedCard(**{**read.__dict__, "card": solver_card(pos)})
        worst = PlayedCard(**{**read.__dict__, "card": cards[scores.index(min(scores))]})
        assert was_best(as_solver, know, world) is True
        assert was_best(worst, know, world) is False
        assert play_weight([as_solver, worst, worst], know, world, 0.5) == 0.25


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3))
def test_a_redeal_keeps_the_seats_hand_the_sizes_and_what_the_play_showed(seed: int, cards_in: int) -> None:
    deal, _ = _played(seed, 6 + cards_in)
    assume(not deal.is_over and deal.phase is Phase.PLAY)
    know = analyse(deal.seat_view(deal.to_move))
    world = _true_world(deal)
    for read in read_play(deal.seat_view(deal.to_move), know, 3):
        pos = position_before(read, know, world)
        other = redealt(pos, read.seat, read.forbidden, random.Random(seed))
        if other is None:
            continue
        seat = read.seat
        hidden = [s for s in range(3) if s != seat]
        assert other.hands[seat] == pos.hands[seat]
        assert [count(other.hands[s]) for s in hidden] == [count(pos.hands[s]) for s in hidden]
        with_talon = pos.talon if seat != pos.declarer else 0
        assert (other.hands[hidden[0]] | other.hands[hidden[1]] | (other.talon if with_talon else 0)) == (
            pos.hands[hidden[0]] | pos.hands[hidden[1]] | with_talon
        )
        assert all(other.hands[s] & read.forbidden[s] == 0 for s in hidden)
        # the cards each seat has played stay in its start hand
        assert all(other.start_hands[s] & ~other.hands[s] == pos.start_hands[s] & ~pos.hands[s] for s in range(3))
    # a seat that could tell where every card lies (each hidden hand pinned by what it "showed") finds by
    # its redeals exactly the double-dummy verdict
    for read in read_play(deal.seat_view(deal.to_move), know, 3):
        pos = position_before(read, know, world)
        pool = FULL_DECK & ~pos.hands[read.seat]
        pinned = tuple(pool & ~pos.hands[s] if s != read.seat else 0 for s in range(3))
        seen_all = PlayedCard(**{**read.__dict__, "forbidden": pinned})
        assert policy_best(seen_all, know, world, 3, random.Random(seed)) == was_best(read, know, world)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(4, 24))
def test_every_card_a_heuristic_bot_played_was_the_heuristics_card_for_its_hand(seed: int, cards: int) -> None:
    deal, _ = _played(seed, cards)
    assume(deal.phase is Phase.PLAY)
    view = deal.seat_view(deal.to_move)
    know = analyse(view)
    reads = read_play(view, know, 10)
    true = World([deal.hands[0], deal.hands[1], deal.hands[2]], deal.talon if know.talon_size else 0)
    assert all(was_heuristic(played, know, true) is not False for played in reads)
    assert play_weight(reads, know, true, 0.5, reading=was_heuristic) == 1.0


def test_a_world_whose_hands_would_have_led_the_heuristic_to_other_cards_weighs_less() -> None:
    deal, _ = _played(3, 12)
    view = deal.seat_view(deal.to_move)
    know = analyse(view)
    reads = read_play(view, know, 10)
    a, b = (s for s in range(3) if s != view.seat)
    assert count(deal.hands[a]) == count(deal.hands[b])  # the rest of the hands swapped: still a world
    hands = list(deal.hands)
    hands[a], hands[b] = hands[b], hands[a]
    swapped = World(hands, deal.talon if know.talon_size else 0)
    misses = sum(was_heuristic(played, know, swapped) is False for played in reads)
    assert misses >= 1
    assert play_weight(reads, know, swapped, 0.5, reading=was_heuristic) == 0.5**misses
