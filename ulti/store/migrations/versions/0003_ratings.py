"""Ratings, and the result of every finished match.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``ratings``, ``match_results`` and ``match_players``."""
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rated_matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "match_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("finished_at", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("deals_played", sa.Integer, nullable=False),
    )
    op.create_table(
        "match_players",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=True),
        sa.Column("rating_after", sa.Integer, nullable=True),
        sa.Column("stats", sa.Text, nullable=False),
    )
    op.create_index("ix_match_players_player_finished", "match_players", ["player_id", "finished_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_match_players_player_finished", "match_players")
    op.drop_table("match_players")
    op.drop_table("match_results")
    op.drop_table("ratings")
