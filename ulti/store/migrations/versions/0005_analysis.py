"""Deal analyses (docs/protocol/analysis.md §22): one row per analysed deal, the job's queue and its result.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``analyses``: the job (its record, status and progress) and, once done, the analysis JSON."""
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_index", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_analyses_status", "analyses", ["status", "created_at"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_analyses_status", "analyses")
    op.drop_table("analyses")
