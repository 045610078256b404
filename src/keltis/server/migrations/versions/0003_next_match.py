"""Playing again: a finished match names the next one its players asked for.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("next_match", sa.String(32), nullable=True))
        batch.add_column(sa.Column("previous_match", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("previous_match")
        batch.drop_column("next_match")
