"""The store's guarantees on both databases, without a server: migrations, two threads
storing an action for the same ply — exactly one lands —, and SQLite's writers taking turns
on the process's own lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from keltis.server.db import make_engine, migrate
from keltis.server.store import ConflictError, Store


def test_migrations_create_the_schema_once(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    migrate(engine)  # a second start finds the schema current
    tables = set(sa.inspect(engine).get_table_names())
    assert {"matches", "seats", "actions", "alembic_version"} <= tables
    engine.dispose()


def append(
    store: Store, gate: threading.Barrier, ply: int, notation: str, outcomes: list[str]
) -> None:
    gate.wait()
    try:
        store.append_action("m1", ply, 0, notation, 1, None)
        outcomes.append("stored")
    except ConflictError:
        outcomes.append("conflict")


def test_racing_appends_exactly_one_lands(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    store = Store(engine)
    store.create_match(
        "m1",
        "cards",
        {"game": "cards"},
        {"hints": True},
        "host",
        True,
        [
            {"kind": "person", "name": "A", "token": "a"},
            {"kind": "bot", "name": "B", "level": "easy"},
        ],
    )
    assert store.start("m1", 0)
    for ply in range(1, 21):
        gate = threading.Barrier(2)
        outcomes: list[str] = []
        threads = [
            threading.Thread(target=append, args=(store, gate, ply, n, outcomes))
            for n in ("G1", "B2")
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["conflict", "stored"], (ply, outcomes)
    stored = store.actions_since("m1", 0)
    assert [a.ply for a in stored] == list(range(1, 21))
    match = store.get_match("m1")
    assert match is not None
    assert match.ply == 20
    with pytest.raises(ConflictError):  # a gap is refused too
        store.append_action("m1", 22, 0, "G1", 1, None)
    engine.dispose()


def test_sqlite_writers_take_turns_without_sleeping(tmp_path: Path) -> None:
    """SQLite: the process's writers wait on a lock of their own (woken when it is free)
    instead of SQLite's busy handler; a failed or rolled-back transaction lets it go, and a
    reader never waits for it."""
    engine = make_engine(f"sqlite:///{tmp_path / 'writes.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)"))

    def write(worker: int) -> None:
        for _ in range(50):
            with engine.begin() as connection:
                connection.execute(sa.text("INSERT INTO t (b) VALUES (:b)"), {"b": f"{worker}"})
                connection.execute(sa.text("SELECT count(*) FROM t")).scalar_one()

    began = time.monotonic()
    threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.monotonic() - began < 20
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM t")).scalar_one() == 400
    # a write that fails, and one rolled back: the next writer is not held up
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO t (a, b) VALUES (1, 'again')"))
    with engine.connect() as connection:
        connection.execute(sa.text("UPDATE t SET b = 'x' WHERE a = 2"))
        connection.rollback()
    # a reader while another connection holds the write lock
    writer = engine.connect()
    writer.execute(sa.text("UPDATE t SET b = 'y' WHERE a = 3"))
    done = threading.Event()

    def read() -> None:
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM t")).scalar_one() == 400
        done.set()

    reader = threading.Thread(target=read)
    reader.start()
    assert done.wait(5), "a reader waited for the writer"
    writer.commit()
    writer.close()
    reader.join()
    began = time.monotonic()
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO t (b) VALUES ('last')"))
    assert time.monotonic() - began < 5  # the lock was let go at each end
    engine.dispose()
