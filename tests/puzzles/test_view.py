"""A puzzle built from a view never shows a card the player could not know."""

from __future__ import annotations

import re
from typing import Any

from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, parse_card
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record
from ulti.puzzles.check import public
from ulti.puzzles.shipped import load

_CODE = re.compile(r"^[789TJQKA][CSDH]$")


def _codes(value: object) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if _CODE.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_codes(v) for v in value)) if value else set()
    return set()


def _known(deal: Deal, seat: int) -> CardSet:
    """What ``seat`` may know, worked out from the deal itself (not from its view): its hand, every card
    played, the cards it laid away or picked up from the talon, and after trick 1 of an open contract every
    hand."""
    known = deal.hands[seat]
    for trick in deal.tricks:
        for card in trick.cards:
            known |= 1 << card
    for card in deal.trick:
        known |= 1 << card
    talon = 0
    for action in deal.history:
        if action.kind is Kind.TAKE and action.seat == seat:
            known |= talon
        if action.discard is not None:
            talon = (1 << action.discard[0]) | (1 << action.discard[1])
            if action.seat == seat:
                known |= talon
    if deal.contract is not None and deal.contract.is_open and deal.tricks:
        # docs/rules.md §3.5: after trick 1 of an open contract all three hands are face up
        known |= deal.hands[0] | deal.hands[1] | deal.hands[2]
    return known


def check_view(puzzle: dict[str, Any]) -> None:
    """Fail unless ``puzzle`` shows only cards its seat could know and prices only the seat's own cards."""
    deal = deal_from_record(puzzle["secret"]["record"])
    seat = puzzle["seat"]
    assert puzzle["view"] == deal.seat_view(seat).to_json(), "the view is not the seat's own view"
    known = _known(deal, seat)
    shown = _codes(public(puzzle))
    unknown = sorted(code for code in shown if not (1 << parse_card(code)) & known)
    assert not unknown, f"{puzzle['id']} shows {unknown}, which seat {seat} could not know"
    first = puzzle["moves"][0]  # the cards priced are the player's own
    for code in [*first["values"], *first["open_values"]]:
        assert (1 << parse_card(code)) & deal.hands[seat]


def test_puzzle_view_never_contains_a_card_the_player_could_not_know(examples: list[dict[str, Any]]) -> None:
    for puzzle in examples:
        check_view(puzzle)


def test_shipped_puzzles_never_contain_a_card_the_player_could_not_know() -> None:
    for puzzle in load():
        check_view(puzzle)


def test_public_part_holds_no_answer_and_no_hidden_hand(examples: list[dict[str, Any]]) -> None:
    for puzzle in examples:
        shown = public(puzzle)
        assert not {"secret", "moves", "continuation", "seed"} & set(shown)
