"""Duplicate events: one seed, many tables, matchpoints, the ``ulti-event/1`` record (docs/record.md).

Pure functions over the engine (no I/O, never the server): ``deals`` derives an event's deals from
its seed, ``matchpoints`` scores a cross-table as in bridge, ``record`` builds and checks the record.
"""

from ulti.events.deals import event_first_dealer, event_hands
from ulti.events.matchpoints import Standing, deal_matchpoints, seat_matchpoints, standings
from ulti.events.record import EVENT_FORMAT, build_event_record, score_event

__all__ = [
    "EVENT_FORMAT",
    "Standing",
    "build_event_record",
    "deal_matchpoints",
    "event_first_dealer",
    "event_hands",
    "score_event",
    "seat_matchpoints",
    "standings",
]
