"""Accounts, log-in sessions, ratings, the lobby's seeks, chat, mutes, moderation's log,
e-mails sent, the servers' shared key; seats played by accounts, with a bank and a timeout;
rated matches and the deadline of a time control.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TABLES = (
    "accounts",
    "login_sessions",
    "ratings",
    "rating_history",
    "seeks",
    "seek_players",
    "chat",
    "mutes",
    "admin_log",
    "mail_log",
    "server_keys",
)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_turns", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("suspended_reason", sa.String(200), nullable=True),
        sa.Column("failed_logins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.String(24),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_login_sessions_account_id", "login_sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player", "game", "at"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rating_min", sa.Float, nullable=True),
        sa.Column("rating_max", sa.Float, nullable=True),
        sa.Column("bots_after", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.create_index("ix_seeks_account_id", "seeks", ["account_id"])
    op.create_table(
        "seek_players",
        sa.Column("seek_id", sa.String(16), sa.ForeignKey("seeks.id"), primary_key=True),
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(None), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_match", "chat", ["match_id", "id"])
    op.create_table(
        "mutes",
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("muted_id", sa.String(24), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "admin_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("detail", sa.String(None), nullable=False),
    )
    op.create_table(
        "mail_log",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    # plain ALTER TABLE ADD COLUMN (no batch "move and copy"): SQLite adds these columns in
    # place, where recreating "matches" would break the seats' foreign keys to it
    op.add_column("seats", sa.Column("account_id", sa.String(24), nullable=True))
    op.add_column("seats", sa.Column("bank", sa.Float, nullable=True))
    op.add_column(
        "seats", sa.Column("timed_out", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column(
        "matches", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("matches", sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_matches_deadline", "matches", ["deadline"])
    keys = sa.table("server_keys", sa.column("name"), sa.column("value"))
    op.bulk_insert(keys, [{"name": "derive", "value": secrets.token_urlsafe(48)}])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_deadline")
        batch.drop_column("deadline")
        batch.drop_column("rated_at")
        batch.drop_column("rated")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("timed_out")
        batch.drop_column("bank")
        batch.drop_column("account_id")
    for name in reversed(_TABLES):
        op.drop_table(name)
