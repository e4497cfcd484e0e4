"""Personal API tokens and bot accounts (the bot API, docs/bot-api.md).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``api_tokens`` (hashed tokens with their scopes) and ``bot_accounts``."""
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("accounts.player_id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(255), nullable=False),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("last_used_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])
    op.create_table(
        "bot_accounts",
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("accounts.player_id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("upgraded_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("bot_accounts")
    op.drop_index("ix_api_tokens_player_id", "api_tokens")
    op.drop_table("api_tokens")
