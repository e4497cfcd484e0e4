"""The event store: tables' event logs, players and finished records (SQLite by default, any SQLAlchemy URL).

It stores opaque JSON events and never imports the engine (docs/design.md layers). Its consumers see
it through the narrow protocols of ``ulti.store.ports`` (re-exported here with the values they carry);
only the composition root builds the implementation (``ulti.store.eventstore.EventStore``).
"""

from ulti.store.ports import (
    AccountBook,
    ActorStore,
    AlreadyAccount,
    HubStore,
    MatchResults,
    NameTaken,
    RatingChange,
    SeatResult,
    SeqConflict,
    ServerStore,
    SkillRow,
    StoredAccount,
    TableLog,
)

__all__ = [
    "AccountBook",
    "ActorStore",
    "AlreadyAccount",
    "HubStore",
    "MatchResults",
    "NameTaken",
    "RatingChange",
    "SeatResult",
    "SeqConflict",
    "ServerStore",
    "SkillRow",
    "StoredAccount",
    "TableLog",
]
