"""Checking passwords without slowing anyone else down (docs/server.md, "Log-in limits").

An argon2id check costs tens of milliseconds of CPU and 64 MiB of memory on purpose. So that
a flood of wrong passwords cannot take the threads that do every match's database work,
hashes are made and checked in a small pool of their own (:class:`PasswordWork`): a few
threads and a short queue; a request that finds the queue full is refused at once
(``503`` ``account.busy``), before any work is done.

Before a password is checked the attempt is counted (:class:`Attempts`), in one transaction
that locks its rows, so parallel requests cannot get more checks than the limits allow:

* per (name, address): :data:`MAX_FAILURES` attempts without a success within
  :data:`WINDOW` lock that name for that address for :data:`LOCK` — the owner elsewhere is
  not locked out by an attacker's failures;
* per name, from addresses the account never logged in from: :data:`GLOBAL_FAILURES`
  attempts within :data:`WINDOW`, then such addresses are refused until the window ends (a
  slower back-off against many addresses; the owner's own addresses go on).

Names are counted whether or not an account has them, so an unknown name is answered
exactly as a real one (a wrong name and a wrong password both ``401``, both ``429`` after
the same number of tries).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from keltis.server import db
from keltis.server.answers import RefusedError
from keltis.server.store import _aware, now

T = TypeVar("T")

#: Attempts without a success from one address at one name before it is locked there …
MAX_FAILURES = 5
#: … for this long.
LOCK = timedelta(minutes=15)
#: Attempts at one name from addresses it never logged in from, within :data:`WINDOW` …
GLOBAL_FAILURES = 50
#: … the window in which attempts are counted (an older count starts again).
WINDOW = timedelta(hours=1)
#: The address of a name's row that counts attempts from all untrusted addresses.
ALL = "*"
#: How long a process trusts a lock it saw in the database before asking it again.
RECHECK = timedelta(minutes=1)
#: Rows of names nobody logged in with are forgotten after this long without an attempt.
FORGET = timedelta(days=1)

#: How much lower than the rest of the server the password threads run (their nice value,
#: added): argon2 computes its lanes on threads of its own, which take the priority of the
#: thread that starts them, so a check uses idle cores but gives way to the game's work.
PASSWORD_NICE = 10

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters
#: A hash checked when the name is unknown, so that a wrong name costs what a wrong password
#: does (an attacker cannot tell them apart by the time taken).
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (blocking: run it in :class:`PasswordWork`)."""
    return _hasher.hash(password)


def verify(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches ``password_hash``; ``None`` (no such account) checks a
    dummy hash, so that the answer takes as long (blocking)."""
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether a hash was made with other parameters than today's."""
    return _hasher.check_needs_rehash(password_hash)


def lower_priority() -> None:
    """Lower the calling thread's CPU priority by :data:`PASSWORD_NICE` (Linux, where a
    thread has a nice value of its own; elsewhere nothing is done). A password check then
    takes the cores no game's work wants: a flood of log-ins spends the checks the rate
    allows without making other players' moves wait behind them."""
    if sys.platform != "linux":
        return
    thread = threading.get_native_id()
    # a sandbox that forbids it: the checks run at the server's priority
    with contextlib.suppress(OSError):
        os.setpriority(
            os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + PASSWORD_NICE
        )


class PasswordWork:
    """A small pool of threads for password hashes, apart from the database's threads:
    ``threads`` at work and at most ``waiting`` queued, and checks of a password (not the
    hashing of a new one) at most ``rate`` a second on average, ``burst`` at once — so that
    a flood of guesses from many addresses can take no more of the machine's CPU than that.
    Beyond either a request is refused at once (``503`` ``account.busy``). The threads run
    at a lower priority than the server's others (:func:`lower_priority`)."""

    def __init__(self, threads: int, waiting: int, rate: float = 1.0, burst: int = 10) -> None:
        self.capacity = threads + waiting
        self.busy = 0
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self._executor = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="keltis-pw", initializer=lower_priority
        )

    def _refill(self) -> None:
        moment = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (moment - self._stamp) * self.rate)
        self._stamp = moment

    def admit(self, check: bool = True) -> None:
        """Refuse (``503`` ``account.busy``) while the pool is full, or — for a ``check`` of
        a password — its rate is used up: asked before anything else is done for such a
        request (its attempt then not counted). Nothing is used up here."""
        if self.busy >= self.capacity:
            raise RefusedError("account.busy", status=503)
        if check:
            self._refill()
            if self._tokens < 1.0:
                raise RefusedError("account.busy", status=503)

    async def run(self, function: Callable[..., T], *args: object, check: bool = True) -> T:
        """``function(*args)`` in the pool (the event loop's thread counts; no lock needed);
        ``check``: it checks a password, and counts against the rate."""
        self.admit(check)
        if check:
            self._tokens -= 1.0
        self.busy += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, function, *args)
        finally:
            self.busy -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def attempt_key(name_key: str) -> str:
    """The key a name's attempts are counted under (its case-folded form, cut to fit)."""
    return name_key[:64]


def attempt_address(address: str) -> str:
    """A client address as stored (cut to fit; never :data:`ALL`)."""
    return (address or "?")[:64] if address != ALL else "?"


class Attempts:
    """Counting password attempts (the module's docstring says the scheme). Each method
    runs in the caller's transaction."""

    #: Locks remembered in memory at most (a flood of new names from new addresses).
    REMEMBERED = 10_000

    def __init__(self) -> None:
        self._calls = 0
        self._locked: dict[tuple[str, str], datetime] = {}

    def refuse_locked(self, key: str, address: str, when: datetime) -> None:
        """Refuse (``429``) at once an attempt from ``address`` at ``key`` that this process
        saw locked: a flood against a lock costs no database work. (Only a success would lift
        a lock early, and a locked (name, address) has none.)"""
        until = self._locked.get((key, attempt_address(address)))
        if until is None:
            return
        if until > when:
            raise _limited(until - when)
        del self._locked[(key, attempt_address(address))]

    def _remember(self, key: str, address: str, until: datetime, when: datetime) -> None:
        """Keep a lock seen in the database for at most :data:`RECHECK` (a success in
        another process at the very moment it was set may have lifted it)."""
        if len(self._locked) >= self.REMEMBERED:
            self._locked.clear()
        self._locked[(key, address)] = min(until, when + RECHECK)

    def reserve(self, connection: sa.Connection, key: str, address: str, when: datetime) -> None:
        """Count an attempt at ``key`` from ``address`` before its password is checked, or
        refuse it (``429`` ``account.login_limited``, nothing counted) over a limit."""
        self._calls += 1
        if self._calls % 200 == 0:
            self._forget(connection, when)
        address = attempt_address(address)
        failures, start, locked, trusted = _row(connection, key, address, when)
        if locked is not None and locked > when:
            self._remember(key, address, locked, when)
            raise _limited(locked - when)
        if locked is not None or start + WINDOW <= when:
            failures, start = 0, when
        if not trusted:
            everyone, since, _locked, _trusted = _row(connection, key, ALL, when)
            if since + WINDOW <= when:
                everyone, since = 0, when
            if everyone >= GLOBAL_FAILURES:
                raise _limited(since + WINDOW - when)
            _update(connection, key, ALL, failures=everyone + 1, window_start=since)
        failures += 1
        until = when + LOCK if failures >= MAX_FAILURES else None
        _update(connection, key, address, failures=failures, window_start=start, locked_until=until)

    def succeeded(self, connection: sa.Connection, key: str, address: str) -> None:
        """The password was right: the count from ``address`` starts again, and the address
        is the account's own (exempt from the name's global back-off)."""
        address = attempt_address(address)
        self._locked.pop((key, address), None)
        _row(connection, key, address, now())
        _update(
            connection,
            key,
            address,
            failures=0,
            locked_until=None,
            trusted=True,
        )

    def forget(self, connection: sa.Connection, key: str) -> None:
        """Every count of ``key`` (its account was deleted)."""
        connection.execute(db.login_attempts.delete().where(db.login_attempts.c.name_key == key))

    def _forget(self, connection: sa.Connection, when: datetime) -> None:
        """Forget the counts of names nobody logged in with that have seen no attempt for
        :data:`FORGET` and lock nothing."""
        table = db.login_attempts.c
        connection.execute(
            db.login_attempts.delete().where(
                table.trusted.is_(False),
                table.window_start < when - FORGET,
                sa.or_(table.locked_until.is_(None), table.locked_until < when),
            )
        )


def _limited(left: timedelta) -> RefusedError:
    minutes = max(1, math.ceil(left.total_seconds() / 60))
    return RefusedError("account.login_limited", status=429, minutes=minutes)


def _row(
    connection: sa.Connection, key: str, address: str, when: datetime
) -> tuple[int, datetime, datetime | None, bool]:
    """The row of (``key``, ``address``), made if missing and locked until the transaction
    ends (PostgreSQL: the row; SQLite: the insert takes the database's write lock):
    ``(failures, window_start, locked_until, trusted)``."""
    table = db.login_attempts
    insert = pg_insert if connection.dialect.name == "postgresql" else sqlite_insert
    make = insert(table).on_conflict_do_nothing()
    connection.execute(
        make.values(name_key=key, address=address, failures=0, window_start=when, trusted=False)
    )
    row = connection.execute(
        sa.select(table.c.failures, table.c.window_start, table.c.locked_until, table.c.trusted)
        .where(table.c.name_key == key, table.c.address == address)
        .with_for_update()
    ).one()
    start = _aware(row.window_start)
    assert start is not None
    return int(row.failures), start, _aware(row.locked_until), bool(row.trusted)


def _update(connection: sa.Connection, key: str, address: str, **values: object) -> None:
    table = db.login_attempts
    connection.execute(
        table.update().where(table.c.name_key == key, table.c.address == address).values(**values)
    )
