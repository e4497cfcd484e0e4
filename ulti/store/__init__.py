"""The event store: tables' event logs, players and finished records (SQLite by default, any SQLAlchemy URL).

It stores opaque JSON events and never imports the engine (docs/design.md layers).
"""

from ulti.store.accounts import AccountStore, AlreadyAccount, NameTaken, StoredAccount
from ulti.store.eventstore import EventStore, SeqConflict
from ulti.store.results import RatingChange, SeatResult, SkillRow

__all__ = [
    "AccountStore",
    "AlreadyAccount",
    "EventStore",
    "NameTaken",
    "RatingChange",
    "SeatResult",
    "SeqConflict",
    "SkillRow",
    "StoredAccount",
]
