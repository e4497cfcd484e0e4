"""The database schema (SQLAlchemy 2 Core tables). Alembic migrations in ``migrations/`` create it."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("status", String(16), nullable=False),  # open | playing | finished
    Column("summary", Text, nullable=False),  # JSON for the lobby list
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

table_players = Table(
    "table_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    UniqueConstraint("table_id", "seat", "player_id"),
)

kv = Table(
    "kv",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
