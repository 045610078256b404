"""Databases for the server tests: SQLite always; PostgreSQL when
``KELTIS_TEST_POSTGRES_URL`` names a server (``.ci/run`` starts one with ``.ci/postgres``;
under ``KELTIS_REQUIRE_POSTGRES=1`` its absence fails instead of skipping)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .harness import FAST_CLIENTS, SEEDED, Server

POSTGRES = os.environ.get("KELTIS_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", "postgresql"]


def need_postgres() -> str:
    if POSTGRES:
        return POSTGRES
    if os.environ.get("KELTIS_REQUIRE_POSTGRES"):
        pytest.fail("KELTIS_REQUIRE_POSTGRES is set but KELTIS_TEST_POSTGRES_URL is not")
    pytest.skip("no PostgreSQL: set KELTIS_TEST_POSTGRES_URL (.ci/postgres start DIR prints it)")


def postgres_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (dropped afterwards)."""
    import psycopg
    import sqlalchemy as sa

    admin = need_postgres()
    name = f"keltis_test_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_database(backend: str, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'server.sqlite3'}"
    else:
        yield from postgres_database()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL of each backend."""
    yield from fresh_database(request.param, tmp_path)


@pytest.fixture(scope="module", params=BACKENDS)
def shared_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One database of each backend for a whole test module."""
    yield from fresh_database(request.param, tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="module")
def server(shared_database: str) -> Iterator[Server]:
    """A running server on the module's database (bots without delay; seeded matches
    allowed)."""
    running = Server(shared_database, "--away-after", "0", *FAST_CLIENTS, *SEEDED).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def two_servers() -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh PostgreSQL database (fast clients, seeded matches
    allowed), both killed afterwards: what one does must reach the other's clients."""
    for url in postgres_database():
        a = Server(url, *FAST_CLIENTS, *SEEDED).start()
        b = Server(url, *FAST_CLIENTS, *SEEDED).start()
        try:
            yield a, b
        finally:
            a.kill()
            b.kill()


@pytest.fixture
def servers(database: str) -> Iterator[Callable[..., Server]]:
    """Start servers on one fresh database: ``servers("--away-after", "5")`` (fast clients
    allowed unless the options set ``--rate`` again; ``files=1024``: its open-file limit);
    all are killed afterwards."""
    started: list[Server] = []

    def make(*options: str, port: int | None = None, files: int | None = None) -> Server:
        s = Server(database, *FAST_CLIENTS, *options, port=port, files=files).start()
        started.append(s)
        return s

    try:
        yield make
    finally:
        for s in started:
            s.kill()
