"""Accounts and their server-side sessions.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``accounts`` (keyed by the player id) and ``account_sessions``."""
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("password_changed_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("accounts.player_id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_account_sessions_player_id", "account_sessions", ["player_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_account_sessions_player_id", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
