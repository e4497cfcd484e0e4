"""Account names that read alike are one name: the name's confusables skeleton, stored unique.

Revision ID: 0007
Revises: 0006

``accounts.name_skeleton`` holds ``ulti.accounts.names.name_skeleton(name)`` (the SHA-256 of the
name's case-folded UTS #39 skeleton) under a unique index, so that two registrations of names that
read alike cannot both win, even in two processes at once. Existing accounts are backfilled here
with the same function the server uses (this migration imports it: the value must be exactly the
server's). Accounts made before this rule whose names already read alike all keep working: the
oldest keeps the skeleton, each later one is stored as ``dup-<player id>``, which is unique and
never a digest, so nobody new can register that name again.
"""

import sqlalchemy as sa
from alembic import op

from ulti.accounts.names import name_skeleton

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts.name_skeleton``, fill it for every account, then make it required and unique."""
    op.add_column("accounts", sa.Column("name_skeleton", sa.String(64), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("player_id", sa.String),
        sa.column("name", sa.String),
        sa.column("created_at", sa.BigInteger),
        sa.column("name_skeleton", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(accounts.c.player_id, accounts.c.name).order_by(accounts.c.created_at, accounts.c.player_id)
    ).all()
    taken: set[str] = set()
    for player_id, name in rows:
        digest = name_skeleton(str(name))
        value = digest if digest not in taken else f"dup-{player_id}"
        taken.add(digest)
        conn.execute(sa.update(accounts).where(accounts.c.player_id == player_id).values(name_skeleton=value))
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_skeleton", existing_type=sa.String(64), nullable=False)
    op.create_index("ux_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ux_accounts_name_skeleton", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
