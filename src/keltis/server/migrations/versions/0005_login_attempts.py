"""Log-in attempts counted per (name, address) and per name, the addresses an account has
logged in from, and each account's seat-token generation (its seats' old tokens stop working
when it changes).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_attempts",
        sa.Column("name_key", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("trusted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "accounts", sa.Column("seat_epoch", sa.Integer, nullable=False, server_default="0")
    )


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("seat_epoch")
    op.drop_table("login_attempts")
