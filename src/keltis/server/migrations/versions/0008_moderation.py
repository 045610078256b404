"""Reports, blocks and moderators: accounts' moderator role and moderators' mutes, blocks
between accounts, reports of players, warnings an account sees, voided rated results, and
the moderators' actions in the log (who, about which report or match).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ADD COLUMN (no batch "move and copy"): SQLite adds these columns in
    # place, where recreating "matches" or "accounts" would break the foreign keys to them
    op.add_column("accounts", sa.Column("moderator_since", sa.DateTime(timezone=True)))
    op.add_column("accounts", sa.Column("muted_until", sa.DateTime(timezone=True)))
    op.add_column("matches", sa.Column("voided_at", sa.DateTime(timezone=True)))
    op.add_column("admin_log", sa.Column("actor_account", sa.String(24)))
    op.add_column("admin_log", sa.Column("report_id", sa.Integer))
    op.add_column("admin_log", sa.Column("match_id", sa.String(32)))
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("blocked_id", sa.String(24), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_id", sa.String(24), nullable=True),
        sa.Column("reporter", sa.String(32), nullable=False),
        sa.Column("reported_id", sa.String(24), nullable=True),
        sa.Column("reported", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.String(32), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_status", "reports", ["status", "id"])
    op.create_index("ix_reports_reporter", "reports", ["reporter_id", "at"])
    op.create_table(
        "warnings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_warnings_account_id", "warnings", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_warnings_account_id", table_name="warnings")
    op.drop_table("warnings")
    op.drop_index("ix_reports_reporter", table_name="reports")
    op.drop_index("ix_reports_status", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    with op.batch_alter_table("admin_log") as batch:
        batch.drop_column("match_id")
        batch.drop_column("report_id")
        batch.drop_column("actor_account")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("voided_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("muted_until")
        batch.drop_column("moderator_since")
