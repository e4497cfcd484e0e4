"""Duplicate events: one seed, many tables, matchpoints, the ``ulti-event/1`` record (docs/record.md).

Pure functions over the engine (no I/O, never the server): ``deals`` derives an event's deals from
its seed, ``matchpoints`` scores a cross-table as in bridge, ``record`` builds and checks the record.
"""

from ulti.duplicates.deals import duplicate_first_dealer, duplicate_hands
from ulti.duplicates.matchpoints import Standing, deal_matchpoints, seat_matchpoints, standings
from ulti.duplicates.record import DUPLICATE_FORMAT, build_duplicate_record, score_duplicate

__all__ = [
    "DUPLICATE_FORMAT",
    "Standing",
    "build_duplicate_record",
    "deal_matchpoints",
    "duplicate_first_dealer",
    "duplicate_hands",
    "score_duplicate",
    "seat_matchpoints",
    "standings",
]
