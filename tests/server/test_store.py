"""The store's guarantees on both databases, without a server: migrations, two threads
storing an action for the same ply — exactly one lands —, and SQLite's writers taking turns
on the process's own lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from keltis.server import db
from keltis.server.db import make_engine, migrate
from keltis.server.store import ConflictError, FirstMove, Store

from .conftest import postgres_database


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


def _two_seats(store: Store, match_id: str) -> None:
    store.create_match(
        match_id,
        "cards",
        {"game": "cards"},
        {},
        "host",
        True,
        [
            {"kind": "person", "name": "A", "token": "a"},
            {"kind": "person", "name": "B", "token": "b"},
        ],
    )
    assert store.start(match_id, 0)


def _moved(engine: sa.Engine, match_id: str) -> list[tuple[int, bool, str | None]]:
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(db.seats.c.seat, db.seats.c.moved, db.seats.c.address)
            .where(db.seats.c.match_id == match_id)
            .order_by(db.seats.c.seat)
        ).all()
    return [(int(r.seat), bool(r.moved), r.address) for r in rows]


def test_a_first_move_is_marked_with_its_action_and_only_if_stored(database: str) -> None:
    """A person's first move marks the seat ``moved`` (and keeps its address) in the same
    write as the action (on PostgreSQL one statement); an action refused as stale marks
    nothing."""
    engine = make_engine(database)
    migrate(engine)
    store = Store(engine)
    _two_seats(store, "m1")
    store.append_action("m1", 1, 0, "G1", 1, None, FirstMove(0, "203.0.113.7"))
    assert _moved(engine, "m1") == [(0, True, "203.0.113.7"), (1, False, None)]
    with pytest.raises(ConflictError):  # ply 1 again: stale, seat 1 not marked
        store.append_action("m1", 1, 1, "B2", 0, None, FirstMove(1, "198.51.100.1"))
    assert _moved(engine, "m1") == [(0, True, "203.0.113.7"), (1, False, None)]
    store.append_action("m1", 2, 1, "B2", 0, None, FirstMove(1, None))  # address unknown
    store.append_action("m1", 3, 0, "G2", 1, None)
    assert _moved(engine, "m1") == [(0, True, "203.0.113.7"), (1, True, None)]
    assert [a.notation for a in store.actions_since("m1", 0)] == ["G1", "B2", "G2"]
    engine.dispose()


def test_a_postgresql_connection_closed_while_resting_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool pings a connection that rested (``db.PING_AFTER``) before handing it out:
    one whose server process ended meanwhile (a restart, an idle timeout) is replaced;
    without the ping the first request after it would fail."""
    for url in postgres_database():
        engine = make_engine(url)

        def end_pooled_backend(engine: sa.Engine = engine) -> None:
            with engine.connect() as connection:  # the pool's one connection
                pid = connection.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
            with engine.pool._creator() as killer:  # type: ignore[attr-defined]
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))

        try:
            end_pooled_backend()
            monkeypatch.setattr(db, "PING_AFTER", 1e9)  # rested too little to be pinged
            with pytest.raises(sa.exc.OperationalError), engine.connect() as connection:
                connection.execute(sa.text("SELECT 1"))
            end_pooled_backend()
            monkeypatch.setattr(db, "PING_AFTER", 0.0)  # pinged: replaced unseen
            with engine.connect() as connection:
                assert connection.execute(sa.text("SELECT 1")).scalar_one() == 1
        finally:
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
