"""The store's guarantees on both databases, without a server: migrations, and two
threads storing an action for the same ply — exactly one lands."""

from __future__ import annotations

import threading

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
