"""The rules of robber ulti (docs/rules.md) as a pure-Python library: no I/O, no hidden randomness.

The public names most callers need are re-exported here.
"""

from ulti.engine.cards import Card, Suit, card_str, parse_card
from ulti.engine.contracts import BIDS, BIDS_BY_CODE, Bid, Part
from ulti.engine.deal import Deal, Phase
from ulti.engine.errors import IllegalAction, RecordError, UltiError
from ulti.engine.fourmatch import FourMatch
from ulti.engine.match import Match
from ulti.engine.scoring import DealResult

__all__ = [
    "BIDS",
    "BIDS_BY_CODE",
    "Bid",
    "Card",
    "Deal",
    "DealResult",
    "FourMatch",
    "IllegalAction",
    "Match",
    "Part",
    "Phase",
    "RecordError",
    "Suit",
    "UltiError",
    "card_str",
    "parse_card",
]
