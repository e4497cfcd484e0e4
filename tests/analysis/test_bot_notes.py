"""A built-in bot's reason for its bid (learner tables' bidding log): the strong bot's own simulation,
the heuristic bot's hand strength, nothing for a random bot or an action that is not a bid."""

from __future__ import annotations

import random

from ulti.analysis.coach import noted_bot_action
from ulti.bots.heuristic import trump_strength
from ulti.engine.actions import Kind
from ulti.engine.cards import SUIT_LETTERS
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.phase import Phase
from ulti.server.tablebots import bot_action


def auction_views(level: str, seeds: range) -> list[tuple[Deal, str]]:
    """Every auction decision of deals bid by three bots of ``level`` (the deal before it, and the seed)."""
    out = []
    for seed in seeds:
        deal = Deal(deal_hands(random.Random(seed), seed % 3), seed % 3)
        for step in range(12):
            if deal.phase is not Phase.AUCTION:
                break
            key = f"{seed}:{step}"
            out.append((deal.copy(), key))
            action, _ = noted_bot_action(level, deal.seat_view(deal.to_move), key)
            deal.apply(action)
    return out


def test_a_strong_bots_bid_carries_its_own_estimate_and_nothing_else_does() -> None:
    bids = 0
    for deal, seed in auction_views("strong", range(3)):
        view = deal.seat_view(deal.to_move)
        action, note = noted_bot_action("strong", view, seed)
        if action.kind is Kind.BID:
            assert note is not None and note["basis"] == "simulation"
            assert 1 <= note["worlds"] <= 8 and 0 <= note["made"] <= note["worlds"]  # the bot's 8 auction worlds
            bids += 1
        else:
            assert note is None
    assert bids >= 3


def test_the_note_never_changes_the_bots_action() -> None:
    for deal, seed in auction_views("heuristic", range(4)):
        view = deal.seat_view(deal.to_move)
        assert noted_bot_action("heuristic", view, seed)[0] == bot_action("heuristic", view, seed)


def test_a_heuristic_bid_is_explained_by_its_trump_strength() -> None:
    seen = 0
    for deal, seed in auction_views("heuristic", range(6)):
        view = deal.seat_view(deal.to_move)
        action, note = noted_bot_action("heuristic", view, seed)
        if action.kind is not Kind.BID or action.bid is None or not action.bid.has_trumps:
            assert note is None
            continue
        assert note is not None and note["basis"] == "strength"
        hand = view.hand
        if action.discard is not None:
            hand &= ~((1 << action.discard[0]) | (1 << action.discard[1]))
        suit = SUIT_LETTERS.index(note["suit"])
        assert note["strength"] == round(trump_strength(hand, suit), 1)
        if action.bid.is_hearts:
            assert note["suit"] == "H"
        seen += 1
    assert seen >= 3


def test_a_random_bot_explains_nothing() -> None:
    for deal, seed in auction_views("random", range(3)):
        assert noted_bot_action("random", deal.seat_view(deal.to_move), seed)[1] is None
