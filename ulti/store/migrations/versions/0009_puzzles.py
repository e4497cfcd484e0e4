"""Puzzles (issue 41): the set, each puzzle's and player's puzzle rating, every attempt, the deals cut.

Revision ID: 0009
Revises: 0008

The tables are described in ``ulti/store/puzzles.py``. The server adds the shipped puzzles the table lacks
when it starts (``ulti/server/puzzle_growth.py``), not here: a migration keeps to the schema. A player's
rows go with the player's (a deleted account): the foreign keys cascade.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``puzzles``, ``puzzle_mistakes``, ``puzzle_players``, ``puzzle_attempts`` and ``puzzle_sources``."""
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("themes", sa.String(256), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Integer, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_puzzles_shown", "puzzles", ["shown"])
    op.create_table(
        "puzzle_mistakes",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("deal_index", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "puzzle_players",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("cards", sa.Text, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=True),
        sa.Column("rating_after", sa.Integer, nullable=True),
        sa.Column("puzzle_before", sa.Integer, nullable=True),
        sa.Column("puzzle_after", sa.Integer, nullable=True),
        sa.Column("started_at", sa.BigInteger, nullable=False),
        sa.Column("finished_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_puzzle_attempts_player", "puzzle_attempts", ["player_id", "started_at"])
    op.create_index("ix_puzzle_attempts_player_puzzle", "puzzle_attempts", ["player_id", "puzzle_id"])
    op.create_table(
        "puzzle_sources",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_index", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("puzzles", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("puzzle_sources")
    op.drop_index("ix_puzzle_attempts_player_puzzle", "puzzle_attempts")
    op.drop_index("ix_puzzle_attempts_player", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_mistakes")
    op.drop_index("ix_puzzles_shown", "puzzles")
    op.drop_table("puzzles")
