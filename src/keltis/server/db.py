"""The server's tables (SQLAlchemy Core) and the engine for a database URL.

Three tables: ``matches`` (one row per match: its record without the actions, options,
status, the ply stored, the seat to move and when its decision began), ``seats`` (one row
per seat: who plays it, the hashes of its secret token and invite code, when its player was
last seen, a bot standing in) and ``actions`` (one row per match and ply, primary key
``(match_id, ply)``: two racing actions for the same ply cannot both land). Alembic creates
and migrates them (:func:`migrate`); the metadata here is what the migrations build.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

metadata = sa.MetaData()

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("header", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("to_move", sa.Integer, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # when the decision now due began (the turn clock runs from here): set when the match
    # starts, each time an action is stored or taken back, and when a player takes their
    # seat back from a stand-in
    sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True),
    # playing again: the match its players asked for after this one, and the one before
    sa.Column("next_match", sa.String(32), nullable=True),
    sa.Column("previous_match", sa.String(32), nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
    sa.Column("stand_in", sa.String(16), nullable=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("notation", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


def default_url(env: dict[str, str] | None = None) -> str:
    """SQLite in the user's data directory: ``$XDG_DATA_HOME/keltis/server.sqlite3``
    (``~/.local/share/keltis/…`` by default)."""
    env = dict(os.environ) if env is None else env
    base = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'keltis' / 'server.sqlite3'}"


def checked_url(url: str) -> str:
    """``url`` if SQLAlchemy can read it as a database URL; else ``ValueError`` saying what
    one looks like (a bare file name is not one)."""
    try:
        sa.make_url(url)
    except sa.exc.ArgumentError:
        raise ValueError(
            f"{url!r} is not a database URL: give e.g. sqlite:////path/to/keltis.sqlite3 or "
            "postgresql://user@host/keltis"
        ) from None
    return url


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names an SQLite database."""
    return sa.make_url(url).get_backend_name() == "sqlite"


def is_postgresql(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return sa.make_url(url).get_backend_name() == "postgresql"


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg (3), the driver the ``server`` extra installs."""
    parsed = sa.make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    """An engine for ``url``. SQLite: the file's folder is created, write-ahead logging (a
    reader never waits for the writer), a busy timeout instead of "database is locked", and
    commits durable against a killed process."""
    url = normalise_url(url)
    if is_sqlite(url):
        database = sa.make_url(url).database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision. On PostgreSQL an
    advisory lock keeps two processes starting together from migrating at once."""
    # Alembic is slow to import and needed once, as the server starts: keltis serve's
    # options read default_url from this module before anything is to be migrated
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(74251)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
