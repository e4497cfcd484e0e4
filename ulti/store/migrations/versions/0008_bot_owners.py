"""Bot accounts get an owner and may accept challenges: the waiting room lists them to seat with a click.

Revision ID: 0008
Revises: 0007

``bot_accounts.owner_id``: the account that proved it controls the bot (by presenting one of the
bot's API tokens, ``POST /api/account/bots``); null until then, and again if the owner is deleted.
``bot_accounts.challenges``: the bot offers itself to every host (``POST /api/bot/account/challenges``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns and an index to find a host's bots."""
    with op.batch_alter_table("bot_accounts") as batch:
        batch.add_column(sa.Column("owner_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("challenges", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_bot_accounts_owner_id", "bot_accounts", ["owner_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_bot_accounts_owner_id", "bot_accounts")
    with op.batch_alter_table("bot_accounts") as batch:
        batch.drop_column("challenges")
        batch.drop_column("owner_id")
