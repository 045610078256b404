"""What storing one action costs the game server's database layer, without a server: one
thread stores ``--actions`` actions of one match one after another through
:meth:`keltis.server.store.Store.append_action` (the first two as a person's first move), as
the server does after each accepted move (docs/server.md, "Load").

Prints one JSON object: per action the wall time's p50/p99/max in milliseconds, the CPU time
of this process (SQLAlchemy, the driver) and, on PostgreSQL, of the database's server
processes serving it, and the round trips (statements, ``BEGIN`` and ``COMMIT`` included)
PostgreSQL counted (``pg_stat_statements`` where the server loads it, else ``null``).

    python benchmarks/store_append.py                                  # SQLite in a temp dir
    python benchmarks/store_append.py --postgres postgresql://keltis@127.0.0.1:5432/postgres

To compare two trees, run each tree's copy of this file in turn, alternating, a few times:
the machine's noise moves both alike. ``--synchronous-commit off`` runs PostgreSQL's commits
without waiting for the disk (what durability costs; the server never sets it).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from keltis.server.db import make_engine, migrate
from keltis.server.store import FirstMove, Store


@contextmanager
def database(postgres: str | None) -> Iterator[str]:
    """A fresh database: SQLite in a temporary folder, or one on ``postgres``'s server
    (dropped afterwards)."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    import psycopg

    name = f"keltis_bench_{secrets.token_hex(4)}"
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(postgres, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def backend_cpu(admin: str, name: str) -> float:
    """CPU seconds the PostgreSQL server processes serving database ``name`` used so far
    (read from /proc: the server must run on this machine), asked through ``admin``."""
    import psycopg

    with psycopg.connect(admin, autocommit=True) as connection:
        pids = [
            row[0]
            for row in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)
            )
        ]
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def round_trips(admin: str, name: str) -> int | None:
    """The statements PostgreSQL ran in database ``name`` so far, by
    ``pg_stat_statements`` in ``admin``'s database (``None`` where it is not there)."""
    import psycopg

    try:
        with psycopg.connect(admin, autocommit=True) as connection:
            found = connection.execute(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = "
                "(SELECT oid FROM pg_database WHERE datname = %s)",
                (name,),
            ).fetchone()
    except psycopg.Error:
        return None
    return None if found is None else int(found[0])


def run(
    url: str, admin: str | None, actions: int, synchronous_commit: str | None
) -> dict[str, Any]:
    name = sa.make_url(url).database or ""
    postgres = sa.make_url(url).get_backend_name() == "postgresql"
    if postgres and synchronous_commit is not None:  # every connection's setting
        url = (
            sa.make_url(url)
            .update_query_dict({"options": f"-c synchronous_commit={synchronous_commit}"})
            .render_as_string(hide_password=False)
        )
    engine = make_engine(url)
    migrate(engine)
    store = Store(engine)
    store.create_match(
        "bench",
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
    assert store.start("bench", 0)
    store.append_action("bench", 1, 0, "G1", 1, None, FirstMove(0, "192.0.2.1"))
    trips_before = round_trips(admin, name) if admin else None
    backend_before = backend_cpu(admin, name) if admin else 0.0
    times: list[float] = []
    cpu_before = time.process_time()
    for ply in range(2, actions + 2):
        first = FirstMove(1, "192.0.2.2") if ply == 2 else None
        began = time.perf_counter()
        store.append_action("bench", ply, (ply + 1) % 2, "G1", ply % 2, None, first)
        times.append(time.perf_counter() - began)
    cpu = time.process_time() - cpu_before
    backend = backend_cpu(admin, name) - backend_before if admin else None
    trips_after = round_trips(admin, name) if admin else None
    engine.dispose()
    times.sort()

    def ms(seconds: float) -> float:
        return round(seconds * 1000, 3)

    per_action = (
        None
        if trips_before is None or trips_after is None
        else round((trips_after - trips_before) / actions, 2)
    )
    return {
        "database": engine.dialect.name,
        "actions": actions,
        "synchronous_commit": synchronous_commit if postgres else None,
        "wall_ms": {
            "p50": ms(times[len(times) // 2]),
            "p99": ms(times[int(len(times) * 0.99)]),
            "max": ms(times[-1]),
            "mean": ms(sum(times) / len(times)),
        },
        "client_cpu_ms_per_action": ms(cpu / actions),
        "postgres_cpu_ms_per_action": None if backend is None else ms(backend / actions),
        "statements_per_action": per_action,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server (else SQLite)")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default=None)
    args = parser.parse_args(argv)
    if args.actions < 1:
        parser.error("--actions must be at least 1")
    with database(args.postgres) as url:
        result = run(url, args.postgres, args.actions, args.synchronous_commit)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
