"""Swiss tournaments for people (issue 42 §2): the tournaments, their players and the
tables of each round.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("round_minutes", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_account_id", "tournaments", ["account_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("points", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournament_tables_match_id", "tournament_tables", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_match_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_index("ix_tournaments_account_id", table_name="tournaments")
    op.drop_table("tournaments")
