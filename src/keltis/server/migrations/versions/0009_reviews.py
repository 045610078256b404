"""Reviews of finished matches: one row per match, its steps' results stored as they come
and the claim (lease) of the server process computing it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("budget", sa.JSON, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("results", sa.JSON, nullable=False),
        sa.Column("review", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("cpu_seconds", sa.Float, nullable=False, server_default="0"),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_reviews_status", "reviews", ["status"])


def downgrade() -> None:
    op.drop_index("ix_reviews_status", table_name="reviews")
    op.drop_table("reviews")
