"""Alembic's environment for the server's schema: runs on the connection that
:func:`keltis.server.db.migrate` passes in (no ini file, no URL of its own)."""

from __future__ import annotations

from alembic import context

from keltis.server.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only run through keltis.server.db.migrate
    raise RuntimeError("run the migrations with keltis.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
