"""Fair results: which person seats made a move of their own, which had a bot standing in,
the client address a seat was taken and first played from; rated matches aborted (a person
seat never moved); rated results flagged for moderators.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ADD COLUMN (no batch "move and copy"): SQLite adds these columns in
    # place, where recreating "matches" would break the seats' foreign keys to it
    op.add_column(
        "seats", sa.Column("moved", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "seats", sa.Column("stood_in", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("seats", sa.Column("address", sa.String(64), nullable=True))
    op.add_column(
        "matches", sa.Column("aborted", sa.Boolean, nullable=False, server_default=sa.false())
    )
    # the matches stored before: a person seat with an action of its own has moved, one with
    # a bot standing in now has had one
    op.execute(
        "UPDATE seats SET moved = TRUE WHERE kind = 'person' AND EXISTS (SELECT 1 FROM actions"
        " WHERE actions.match_id = seats.match_id AND actions.seat = seats.seat)"
    )
    op.execute("UPDATE seats SET stood_in = TRUE WHERE stand_in IS NOT NULL")
    op.create_table(
        "rating_flags",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("account_a", sa.String(24), nullable=False),
        sa.Column("account_b", sa.String(24), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("matches", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index(
        "ix_rating_flags_pair", "rating_flags", ["account_a", "account_b", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_flags_pair", table_name="rating_flags")
    op.drop_table("rating_flags")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("aborted")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("address")
        batch.drop_column("stood_in")
        batch.drop_column("moved")
