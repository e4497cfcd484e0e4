"""Duplicate events (docs/protocol/duplicate.md §23): the event, its tables, the queue of solo-duplicate par replays.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``duplicate_events``, ``duplicate_event_tables`` and ``par_jobs``."""
    op.create_table(
        "duplicate_events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("host_name", sa.String(64), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("started", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "duplicate_event_tables",
        sa.Column("event_id", sa.String(32), primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
    )
    op.create_table(
        "par_jobs",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_index", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_par_jobs_status", "par_jobs", ["status", "created_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_par_jobs_status", "par_jobs")
    op.drop_table("par_jobs")
    op.drop_table("duplicate_event_tables")
    op.drop_table("duplicate_events")
