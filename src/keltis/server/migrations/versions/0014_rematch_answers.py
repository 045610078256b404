"""A rematch declined or cancelled, and the notices of it (issue 42 §7).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematch_answers",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("next_match", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("answer", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rematch_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("next_match", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("answer", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rematch_notices_account_id", "rematch_notices", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_rematch_notices_account_id", "rematch_notices")
    op.drop_table("rematch_notices")
    op.drop_table("rematch_answers")
