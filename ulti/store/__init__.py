"""The event store: tables' event logs, players and finished records (SQLite by default, any SQLAlchemy URL).

It stores opaque JSON events and never imports the engine (DESIGN.md layers).
"""

from ulti.store.eventstore import EventStore, SeqConflict

__all__ = ["EventStore", "SeqConflict"]
