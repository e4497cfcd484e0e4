"""The database schema (SQLAlchemy 2 Core tables). Alembic migrations in ``migrations/`` create it."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

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

# Accounts (migration 0002). An account's id is its player id: the id that sits at tables, owns the
# past matches and will carry ratings, so a guest who registers keeps everything.
accounts = Table(
    "accounts",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(128), nullable=False, unique=True),  # NFKC + casefold: one account per name
    # migration 0007: SHA-256 of the name's case-folded confusables skeleton: names that read alike are one
    Column("name_skeleton", String(64), nullable=False),
    Index("ux_accounts_name_skeleton", "name_skeleton", unique=True),
    Column("password_hash", String(255), nullable=False),  # Argon2id, PHC string
    Column("created_at", BigInteger, nullable=False),
    Column("password_changed_at", BigInteger, nullable=False),
)

# Server-side sessions of accounts: the SHA-256 of the token, never the token itself.
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("accounts.player_id", ondelete="CASCADE"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Index("ix_account_sessions_player_id", "player_id"),
)

# Ratings (migration 0003): one row per rated account, human or bot; openskill's mu and sigma.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated_matches", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

# One row per finished match, rated or casual, inserted exactly once: its primary key is what makes
# a rating update happen once however many processes (or restarts) try to record the match.
match_results = Table(
    "match_results",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("finished_at", BigInteger, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("deals_played", Integer, nullable=False),
)

# Each seat of a finished match: who sat there, how it ended, the rating change (rated tables) and
# the seat's statistics (JSON, docs/protocol/players.md §20.4). Written with match_results.
match_players = Table(
    "match_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("is_bot", Boolean, nullable=False),
    Column("total", Integer, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 = best; ties share; leavers last
    Column("left", Boolean, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("finished_at", BigInteger, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating_before", Integer, nullable=True),  # shown values; null on casual tables
    Column("rating_after", Integer, nullable=True),
    Column("stats", Text, nullable=False),
    Index("ix_match_players_player_finished", "player_id", "finished_at"),
)

# Personal API tokens (migration 0004): the SHA-256 of the token, never the token; scopes space-separated.
api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("accounts.player_id", ondelete="CASCADE"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("scopes", String(255), nullable=False),
    Column("key", String(64), nullable=False, unique=True),
    Column("created_at", BigInteger, nullable=False),
    Column("last_used_at", BigInteger, nullable=True),
    Index("ix_api_tokens_player_id", "player_id"),
)

# Bot accounts (migration 0004): accounts that play through the bot API only, marked BOT wherever shown.
bot_accounts = Table(
    "bot_accounts",
    metadata,
    Column("player_id", String(32), ForeignKey("accounts.player_id", ondelete="CASCADE"), primary_key=True),
    Column("upgraded_at", BigInteger, nullable=False),
    # migration 0008: the account that proved it controls the bot (one of its tokens), and whether the
    # bot offers itself to every host; the waiting room lists both kinds beside the built-in levels
    Column("owner_id", String(32), nullable=True),
    Column("challenges", Boolean, nullable=False, server_default=false()),
    Index("ix_bot_accounts_owner_id", "owner_id"),
)

# Deal analyses (migration 0005): the queued job (the deal's record, so a restart needs nothing else),
# its progress in decisions, and the analysis JSON once done. Written once; served from here afterwards.
analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_index", Integer, primary_key=True),
    Column("status", String(16), nullable=False),  # queued | running | done | failed
    Column("record", Text, nullable=False),
    Column("worlds", Integer, nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Index("ix_analyses_status", "status", "created_at"),
)

# Duplicate events (migration 0006): the event (its seed fixes every table's deals), and its tables in
# order. Everything else about an event (seats, results, standings) is read from its tables' events.
duplicate_events = Table(
    "duplicate_events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("host", String(32), nullable=False),
    Column("host_name", String(64), nullable=False),
    Column("deals", Integer, nullable=False),
    Column("tables", Integer, nullable=False),
    Column("level", String(32), nullable=False),  # the bots that fill empty seats at the start
    Column("move_seconds", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),  # secret until the event is over
    Column("started", Boolean, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

duplicate_event_tables = Table(
    "duplicate_event_tables",
    metadata,
    Column("event_id", String(32), primary_key=True),
    Column("table_no", Integer, primary_key=True),  # from 1
    Column("table_id", String(32), nullable=False, unique=True),
)

# Solo duplicate (migration 0006): the queue of par replays, one per finished deal of a duplicate
# table; ``spec`` holds what the replay needs (cards, dealer, seats' bots, seeds), so a restart needs
# nothing else. The result goes to the table's own log (a ``par`` event), not here.
par_jobs = Table(
    "par_jobs",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_index", Integer, primary_key=True),
    Column("status", String(16), nullable=False),  # queued | running | done
    Column("spec", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Index("ix_par_jobs_status", "status", "created_at"),
)

# Tournaments (migration 0010): the tournament's row (for listing and for finding the ones to run) and
# its director's log, one JSON event per row numbered from 0 (``ulti.tournaments.log``). The state and
# the standings are always recomputed from the log; the row's status is a copy kept for listing.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("host", String(32), nullable=False),
    Column("host_name", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # registering | running | finished | published
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Index("ix_tournaments_status", "status", "created_at"),
)

tournament_log = Table(
    "tournament_log",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),  # from 0: the created event
    Column("body", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)
