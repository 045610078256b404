"""The schema's migrations on a database that already holds matches: a server upgraded in
place keeps its data (a fresh database is what every other test starts from)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

import keltis.server.db as db
from keltis.server.db import make_engine, migrate


def test_upgrading_a_database_with_matches_keeps_them(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO matches (id, game, status, header, options, host_hash, public, ply,"
                " to_move, created_at, updated_at) VALUES ('m1', 'cards', 'open', '{}', '{}',"
                " 'h', 1, 0, 0, '2026-01-01', '2026-01-01')"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO seats (match_id, seat, kind, name) VALUES ('m1', 0, 'person', 'A')"
            )
        )
    migrate(engine)  # foreign keys on: recreating "matches" would fail here
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT id, rated FROM matches")).all() == [("m1", 0)]
        assert connection.execute(sa.text("SELECT name, account_id FROM seats")).all() == [
            ("A", None)
        ]
    engine.dispose()
