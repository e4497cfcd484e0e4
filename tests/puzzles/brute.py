"""An exhaustive search over every card order, for checking puzzles without the solver."""

from __future__ import annotations

from ulti.engine import actions as act
from ulti.engine.cards import card_str, iter_cards, parse_card
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase


def brute_value(deal: Deal) -> int:
    """The contract's value (per defender, for the declarer) under perfect play, trying every card order."""
    if deal.phase is Phase.DONE:
        assert deal.result is not None
        return deal.result.per_defender
    assert deal.phase is Phase.PLAY
    values = []
    for card in iter_cards(deal.legal_card_mask()):
        nxt = deal.copy()
        nxt.apply(act.play(nxt.to_move, card))
        values.append(brute_value(nxt))
    return max(values) if deal.to_move == deal.declarer else min(values)


def brute_values(deal: Deal) -> dict[str, int]:
    """Each legal card of the seat on turn → the value for that seat (its own points per defender)."""
    sign = 1 if deal.to_move == deal.declarer else -1
    out = {}
    for card in iter_cards(deal.legal_card_mask()):
        nxt = deal.copy()
        nxt.apply(act.play(nxt.to_move, card))
        out[card_str(card)] = sign * brute_value(nxt)
    return out


def play_codes(deal: Deal, codes: list[str]) -> None:
    """Play the cards ``codes`` in turn on ``deal``."""
    for code in codes:
        deal.apply(act.play(deal.to_move, parse_card(code)))
