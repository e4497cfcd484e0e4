"""The card-play path of ``Deal`` keeps the trick's led suit and top card up to date and checks legality
once: against the rules recomputed from scratch at every card of random deals (kontra chains included),
and the remembered legal cards never outlive the state they were computed for."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.engine.test_properties import random_action
from ulti.engine.cards import iter_cards
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import IllegalAction
from ulti.engine.play import (
    NO_TRUMP,
    Refusal,
    legal_cards,
    refusal_groups,
    refusal_of,
    seven_of,
    trick_winner_index,
)


def check_trick_state(deal: Deal) -> None:
    """``led_suit``, ``top_card`` and ``legal_card_mask`` equal the rules applied to the trick now."""
    trick = deal.trick
    assert deal.led_suit() == (trick[0] >> 3 if trick else -1)
    assert deal.top_card() == (trick[trick_winner_index(trick, deal.trump)] if trick else -1)
    if deal.phase is Phase.PLAY:
        seat = deal.leader if deal.in_chain else deal.to_move
        assert seat is not None  # the play always has a leader and a seat on turn
        seven = deal.seven if seat == deal.declarer else -1
        expected = legal_cards(deal.hands[seat], deal.led_suit(), deal.top_card(), deal.trump, seven)
        assert deal.legal_card_mask() == expected


@pytest.mark.parametrize("seed", range(6))
def test_random_deals_keep_the_trick_state_and_refuse_exactly_as_the_rules(seed: int) -> None:
    """Random complete deals (auction, kontra and its chain, play): before every action the trick state
    is checked, and every card the seat to play may not play is refused naming the rule, with the
    legal cards asked for first or not."""
    rng = random.Random(f"play-path-{seed}")
    for number in range(40):
        deal = Deal(deal_hands(rng, number % 3), number % 3)
        kontra_said: set[int] = set()
        while not deal.is_over:
            check_trick_state(deal)
            if deal.phase is Phase.PLAY:
                seat = deal.leader if deal.in_chain else deal.to_move
                assert seat is not None  # the play always has a leader and a seat on turn
                hand = deal.hands[seat]
                seven = deal.seven if seat == deal.declarer else -1
                legal = legal_cards(hand, deal.led_suit(), deal.top_card(), deal.trump, seven)
                if rng.random() < 0.5:
                    deal.legal_card_mask()  # remembered: play() must still refuse what it must
                for card in iter_cards(hand & ~legal):
                    refusal = refusal_of(card, hand, deal.led_suit(), deal.top_card(), deal.trump, seven)
                    assert refusal is not None
                    with pytest.raises(IllegalAction) as refused:
                        deal.play(seat, card)
                    assert refused.value.rule == refusal.value
                check_trick_state(deal)
            deal.apply(random_action(deal, rng, kontra_said))
            if deal.tricks and len(deal.tricks) > 1:
                kontra_said.clear()
        check_trick_state(deal)


def test_a_copy_keeps_its_own_trick_state() -> None:
    rng = random.Random("copy")
    hands = deal_hands(rng, 0)
    talon = 0
    for card in list(iter_cards(hands[1]))[:2]:
        talon |= 1 << card
    hands[1] &= ~talon
    deal = Deal.at_play(hands, 0, 1, BIDS_BY_CODE["M-SU"], 2, talon)
    deal.play(1, next(iter_cards(deal.legal_card_mask())))
    copy = deal.copy()
    legal_before = copy.legal_card_mask()
    assert deal.to_move is not None and copy.to_move is not None
    deal.play(deal.to_move, next(iter_cards(deal.legal_card_mask())))
    check_trick_state(deal)
    check_trick_state(copy)
    assert copy.legal_card_mask() == legal_before
    copy.play(copy.to_move, next(iter_cards(legal_before)))
    check_trick_state(copy)


def test_the_no_trump_order_decides_the_top_card() -> None:
    """In a no-trump contract the ten ranks below the jack: a led ten is topped by the jack."""
    from ulti.engine.cards import parse_card

    def cards(codes: str) -> int:
        return sum(1 << parse_card(c) for c in codes.split())

    hands = [cards("TS 7H 8H 9H TH JH QH KH AH 7D"), cards("JS 8D 9D TD JD QD KD AD 7C 8C"),
             cards("9S 9C TC JC QC KC AC 7S 8S QS")]
    deal = Deal.at_play(hands, 2, 0, BIDS_BY_CODE["N-B"], NO_TRUMP, cards("KS AS"))
    deal.play(0, parse_card("TS"))
    deal.play(1, parse_card("JS"))
    assert deal.top_card() == parse_card("JS")
    assert deal.legal_card_mask() == cards("QS")  # must beat the jack
    check_trick_state(deal)


@st.composite
def _trick_moments(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """A hand, the suit led (-1: leading), the card on top, the trump (-1: none) and the held-back 7 (-1: none)."""
    trump = draw(st.integers(-1, 3))
    led = draw(st.integers(-1, 3))
    top = -1
    if led >= 0:
        suits = [led] if trump < 0 or trump == led else [led, trump]
        top = draw(st.sampled_from(suits)) * 8 + draw(st.integers(0, 7))
    others = [c for c in range(32) if c != top]
    hand = 0
    for card in draw(st.lists(st.sampled_from(others), min_size=1, max_size=10, unique=True)):
        hand |= 1 << card
    seven = seven_of(trump)
    held = seven if seven >= 0 and hand >> seven & 1 and draw(st.booleans()) else -1
    return hand, led, top, trump, held


@given(_trick_moments())
def test_refusal_groups_name_for_every_card_the_rule_that_refuses_it(moment: tuple[int, int, int, int, int]) -> None:
    """§3.3/§3.4 for a whole hand at once (the seat on turn's choices), stated here card by card: a card the
    rules refuse only for the held-back trump 7 is ``ulti_seven``; another refused card of the led suit did
    not beat (``beat``), one of another suit while the led suit is held did not follow (``follow``); void
    in the led suit, a refused trump did not overtrump (``overtrump``), any other card did not trump. No
    legal card is in a group, no group is empty, and ``refusal_of`` names each card's group."""
    hand, led, top, trump, held = moment
    groups = refusal_groups(hand, led, top, trump, held)
    assert all(cards and cards & ~hand == 0 for _, cards in groups)
    grouped = {card: refusal for refusal, cards in groups for card in iter_cards(cards)}
    assert sum(len(list(iter_cards(cards))) for _, cards in groups) == len(grouped)  # disjoint
    legal = legal_cards(hand, led, top, trump, held)
    for card in iter_cards(hand):
        expected: Refusal | None
        if legal >> card & 1:
            expected = None
        elif legal_cards(hand, led, top, trump, -1) >> card & 1:
            expected = Refusal.ULTI_SEVEN
        elif any(c >> 3 == led for c in iter_cards(hand)):
            expected = Refusal.BEAT if card >> 3 == led else Refusal.FOLLOW
        else:
            expected = Refusal.OVERTRUMP if card >> 3 == trump else Refusal.TRUMP
        assert grouped.get(card) == expected
        assert refusal_of(card, hand, led, top, trump, held) == expected
