"""Follows, direct challenges and vacation days (issue 42 §3, §4): the ``follows`` and
``vacations`` tables, a seek's addressee (``seeks.for_account``) and three account columns
(``email_challenges``, ``hide_online``, ``seen_at``).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ADD COLUMN: SQLite adds these in place (no copy of "accounts")
    op.add_column(
        "accounts",
        sa.Column("email_challenges", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.add_column(
        "accounts",
        sa.Column("hide_online", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("accounts", sa.Column("seen_at", sa.DateTime(timezone=True)))
    op.add_column("seeks", sa.Column("for_account", sa.String(24)))
    op.create_index("ix_seeks_for_account", "seeks", ["for_account"])
    op.create_table(
        "follows",
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("followed_id", sa.String(24), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_vacations_account_id", "vacations", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_vacations_account_id", table_name="vacations")
    op.drop_table("vacations")
    op.drop_index("ix_follows_followed_id", table_name="follows")
    op.drop_table("follows")
    op.drop_index("ix_seeks_for_account", table_name="seeks")
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("for_account")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("seen_at")
        batch.drop_column("hide_online")
        batch.drop_column("email_challenges")
