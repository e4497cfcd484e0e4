"""A finished deal's replay: the spectator's view after each action, with every hand face up.

A page that animates a past deal draws these frames and decides nothing: trick winners, the kontra
state, trumps, tricks won and the result all come from ``Deal.view``. Frame ``i`` is the position
after the first ``i`` actions (frame 0 is the deal as dealt)::

    {"index": i,
     "action": action i - 1 as the finished deal's public log shows it (null in frame 0),
     "view": Deal.view(None) after it,
     "hands": [the cards each seat holds then],
     "talon": [the talon cards lying face down then]}

``action`` is a record action (docs/record.md) with the discards shown and, on ``take``, the ``cards``
taken; a ``kontra`` also names its ``step`` (``kontra``, ``rekontra``, …). A spectator's view hides
the hands and the talon until the end, so the frame adds them: the deal is over, nothing is secret.
"""

from __future__ import annotations

from typing import Any

from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, card_str, iter_cards
from ulti.engine.contracts import KONTRA_STEP_NAMES
from ulti.engine.deal import Deal
from ulti.engine.record import deal_from_record


def _cards(mask: CardSet) -> list[str]:
    return [card_str(c) for c in iter_cards(mask)]


def _frame(deal: Deal, index: int, action: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "index": index,
        "action": action,
        "view": deal.view(None),
        "hands": [_cards(h) for h in deal.hands],
        "talon": _cards(deal.talon),
    }


def replay_frames(deal: Deal) -> list[dict[str, Any]]:
    """The frames of the finished ``deal``: the opening position, then one after each action.

    Raises ``ValueError`` for a deal in progress: its replay would show hidden hands.
    """
    if not deal.is_over:
        raise ValueError("only a finished deal has a replay: a replay shows every hand")
    replay = Deal(deal.dealt, deal.dealer)
    frames = [_frame(replay, 0, None)]
    for index, action in enumerate(deal.history):
        entry = dict(deal.public_entry(index, None))  # a copy: the deal caches its log entries
        if action.kind is Kind.KONTRA:
            # the step this kontra says; a trick-1 decline when every part is doubled is a kontra's
            entry["step"] = replay.choices(action.seat).kontra_step or KONTRA_STEP_NAMES[1]
        replay.apply(action)
        frames.append(_frame(replay, index + 1, entry))
    return frames


def replay_record(record: object) -> list[dict[str, Any]]:
    """The frames of a finished deal's ``ulti-deal/1`` record (``UltiError`` if it does not load)."""
    return replay_frames(deal_from_record(record))
