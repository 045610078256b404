"""Password resets by e-mail and confirmed addresses: when an account's address was
confirmed (none is, to begin with: an address given before this revision was never proven
to be its owner's, so it gets no e-mail until its owner asks for a link and clicks it), the
one-time links e-mailed to accounts, and an index to find accounts by address.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ADD COLUMN: SQLite adds it in place (recreating "accounts" would
    # break the foreign keys to it); existing addresses stay unconfirmed (NULL)
    op.add_column(
        "accounts", sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_index("ix_accounts_email", "accounts", [sa.text("lower(email)")])
    op.create_table(
        "email_links",
        sa.Column(
            "account_id",
            sa.String(24),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("purpose", sa.String(16), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("day_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("day_count", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("email_links")
    op.drop_index("ix_accounts_email", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email_confirmed_at")
