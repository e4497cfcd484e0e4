"""What if: from a point of a finished deal, play other cards and see the double-dummy outcome of the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ulti.bots.solver import Objective, Position, solve
from ulti.engine.cards import Card, card_str, iter_cards, parse_card
from ulti.engine.deal import Deal
from ulti.engine.errors import IllegalAction, RecordError
from ulti.engine.phase import Phase
from ulti.engine.view import card_codes

#: The longest line a what-if plays (a deal has 30 cards).
MAX_LINE = 30


def parse_line(cards: Sequence[str]) -> list[Card]:
    """The cards of a what-if line, or ``ValueError`` naming the field (``line``) and the first bad code.

    Every code is read before any card is played, so a line with a bad code costs no replay or search.

    >>> parse_line(["AS", "7h"])
    [15, 24]
    >>> parse_line(["AS", "XX"])
    Traceback (most recent call last):
    ...
    ValueError: line holds 'XX', which is not a card code (a card is a rank 7 8 9 T J Q K A and a suit C S D H, e.g. AS)
    """
    if len(cards) > MAX_LINE:
        raise ValueError(f"a line has at most {MAX_LINE} cards")
    parsed: list[Card] = []
    for code in cards:
        try:
            parsed.append(parse_card(code))
        except RecordError:
            raise ValueError(
                f"line holds {code!r}, which is not a card code"
                " (a card is a rank 7 8 9 T J Q K A and a suit C S D H, e.g. AS)"
            ) from None
    return parsed


def _value(deal: Deal) -> int:
    if deal.result is not None:
        return deal.result.per_defender
    return int(solve(Position.from_deal(deal), Objective.CONTRACT, best_cards=False).value)


def _seat_to_play(deal: Deal) -> int:
    # during the kontra chain the next card is the trick-2 lead, which closes it
    seat = deal.leader if deal.in_chain else deal.to_move
    assert seat is not None  # asked during the play only, where both are set
    return seat


def what_if(deal: Deal, at: int, cards: Sequence[str]) -> dict[str, Any]:
    """Replay the finished ``deal``'s first ``at`` actions, play ``cards`` (codes) from there, and solve.

    ``at`` must reach the play (the position after the contract is settled); each card is played by
    the seat on turn and must be legal (``IllegalAction`` names the rule, ``ValueError`` a bad point or
    code). The answer: ``{"at", "line", "to_move", "value"`` (double-dummy, per defender for the
    declarer), ``"over", "result", "cards"`` (each legal card of the seat on turn → the value after it),
    ``"best"`` (the cards achieving the value for that seat's side), ``"hands", "trick", "won"}``.
    """
    if not deal.is_over:
        raise ValueError("only a finished deal can be explored")
    if not 0 <= at <= len(deal.history):
        raise ValueError(f"at must be from 0 to {len(deal.history)}")
    line_cards = parse_line(cards)
    replay = Deal(deal.dealt, deal.dealer)
    for action in deal.history[:at]:
        replay.apply(action)
    if replay.phase is not Phase.PLAY and not (replay.phase is Phase.DONE and replay.tricks):
        raise ValueError("the point must be in the play of the cards")
    line: list[str] = []
    for card in line_cards:
        if replay.is_over:
            raise IllegalAction("deal_over")
        replay.play(_seat_to_play(replay), card)
        line.append(card_str(card))
    value = _value(replay)
    options: dict[str, int] = {}
    best: list[str] = []
    seat = -1
    if not replay.is_over:
        seat = _seat_to_play(replay)
        for card in iter_cards(replay.legal_card_mask()):
            after = replay.copy()
            after.play(seat, card)
            options[card_str(card)] = _value(after)
        sign = 1 if seat == replay.declarer else -1
        top = max(sign * v for v in options.values())
        best = [code for code, v in options.items() if sign * v == top]
    return {
        "at": at,
        "line": line,
        "to_move": seat,
        "declarer": replay.declarer,
        "value": value,
        "over": replay.is_over,
        "result": replay.result.to_json() if replay.result is not None else None,
        "cards": options,
        "best": best,
        "hands": [card_codes(h) for h in replay.hands],
        "trick": {"leader": replay.leader, "cards": [card_str(c) for c in replay.trick]},
        "won": list(replay.won),
    }
