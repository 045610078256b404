"""Vacation for correspondence (docs/server.md, "Vacation").

An account has :data:`DAYS_PER_YEAR` days off a calendar year (UTC): a vacation counts
towards the year it began in. A vacation's days are counted in whole days of 24 hours, each
begun day one (3 hours off: 1 day; 25 hours: 2 days); while it lasts its planned days are
held, and a vacation ended early counts the days it lasted. ``POST /api/me/vacation``
starts one for ``days`` days (or, without, all the days left), ``DELETE`` ends it early;
it ends by itself at its planned end (``until``).

While an account is on vacation, the decisions of its correspondence matches (a
:func:`keltis.server.clocks.is_correspondence` time control) do not run out of time
(:func:`paused`: the timeout task passes them by) and no turn e-mail goes to it. When the
vacation ends, each of those matches whose decision is the account's gets its deadline (and
the decision's start) pushed back by the part of the vacation the decision waited through
(:func:`_push_back`), in the transaction that marks the vacation ended: of several processes
exactly one pushes them. Real-time matches are not touched. The opponents see it: a match's
seats carry ``vacation`` (until when, for a correspondence match's account seat), read
from :data:`BOOK`, which every process refreshes with its timeout checks.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keltis.server import clocks, db
from keltis.server.answers import RefusedError
from keltis.server.store import LateDecision, _aware, now

#: Days off an account has each calendar year (UTC).
DAYS_PER_YEAR = 30
DAY = timedelta(days=1)


def days_of(start: datetime, end: datetime) -> int:
    """The whole days a vacation from ``start`` to ``end`` counts: each begun 24 hours one
    (at least one)."""
    return max(1, math.ceil((end - start) / DAY - 1e-9))


def _year_start(when: datetime) -> datetime:
    return datetime(when.year, 1, 1, tzinfo=UTC)


def used_days(connection: sa.Connection, account_id: str, when: datetime) -> int:
    """The days the vacations of ``account_id`` that began in ``when``'s year count: an
    ended one its days, one not ended its planned days."""
    start = _year_start(when)
    rows = connection.execute(
        sa.select(db.vacations.c.started_at, db.vacations.c.until, db.vacations.c.ended_at).where(
            db.vacations.c.account_id == account_id,
            db.vacations.c.started_at >= start,
            db.vacations.c.started_at < start.replace(year=start.year + 1),
        )
    )
    total = 0
    for r in rows:
        began, until, ended = _aware(r.started_at), _aware(r.until), _aware(r.ended_at)
        assert began is not None
        assert until is not None
        total += days_of(began, ended if ended is not None else until)
    return total


def on_vacation(
    connection: sa.Connection, ids: Iterable[str], when: datetime
) -> dict[str, datetime]:
    """Of the accounts ``ids``, those on vacation at ``when``: until when."""
    ids = sorted(set(ids))
    if not ids:
        return {}
    rows = connection.execute(
        sa.select(db.vacations.c.account_id, db.vacations.c.until).where(
            db.vacations.c.account_id.in_(ids),
            db.vacations.c.ended_at.is_(None),
            db.vacations.c.started_at <= when,
            db.vacations.c.until > when,
        )
    )
    found: dict[str, datetime] = {}
    for r in rows:
        until = _aware(r.until)
        assert until is not None
        found[str(r.account_id)] = until
    return found


def state(engine: Engine, account_id: str) -> dict[str, Any]:
    """The account's vacation as its owner sees it: ``until`` (``null``: not on one), the
    days ``used`` and ``left`` this year, and ``per_year``."""
    when = now()
    with engine.connect() as connection:
        away = on_vacation(connection, [account_id], when).get(account_id)
        used = used_days(connection, account_id, when)
    return {
        "until": None if away is None else away.isoformat(),
        "used": used,
        "left": max(0, DAYS_PER_YEAR - used),
        "per_year": DAYS_PER_YEAR,
    }


def start(engine: Engine, account_id: str, days: int | None) -> dict[str, Any]:
    """Start a vacation of ``days`` days (``None``: all the days left) for ``account_id``.
    Refused: already on one (``409`` ``vacation.already``), no day left
    (``vacation.no_days``), more days than are left (``vacation.too_long``)."""
    when = now()
    with engine.begin() as connection:
        # the account's row locked (PostgreSQL; SQLite: the write lock): two starts at once
        # are counted one after the other
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account_id)
            .values(seen_at=db.accounts.c.seen_at)
        )
        _settle(connection, account_id, when)
        if on_vacation(connection, [account_id], when):
            raise RefusedError("vacation.already")
        left = DAYS_PER_YEAR - used_days(connection, account_id, when)
        if left <= 0:
            raise RefusedError("vacation.no_days", per_year=DAYS_PER_YEAR)
        if days is not None and days > left:
            raise RefusedError("vacation.too_long", left=left)
        connection.execute(
            db.vacations.insert().values(
                account_id=account_id,
                started_at=when,
                until=when + (left if days is None else days) * DAY,
                ended_at=None,
            )
        )
    BOOK.refresh(engine)
    return state(engine, account_id)


def end(engine: Engine, account_id: str) -> dict[str, Any]:
    """End the account's vacation now (``409`` ``vacation.none`` if it is not on one): its
    correspondence deadlines are pushed back."""
    when = now()
    with engine.begin() as connection:
        ended = _settle(connection, account_id, when)
        open_now = connection.execute(
            db.vacations.update()
            .where(
                db.vacations.c.account_id == account_id,
                db.vacations.c.ended_at.is_(None),
                db.vacations.c.started_at <= when,
            )
            .values(ended_at=when)
            .returning(db.vacations.c.started_at)
        ).all()
        if not open_now and not ended:
            raise RefusedError("vacation.none")
        for row in open_now:
            began = _aware(row.started_at)
            assert began is not None
            _push_back(connection, account_id, began, when)
    BOOK.refresh(engine)
    return state(engine, account_id)


def settle_due(engine: Engine, when: datetime) -> int:
    """End every vacation whose planned end passed by ``when`` (at its planned end), and
    push its account's deadlines back: the number ended (a conditional update: of several
    processes, one ends each)."""
    with engine.connect() as connection:
        accounts = {
            str(r.account_id)
            for r in connection.execute(
                sa.select(db.vacations.c.account_id).where(
                    db.vacations.c.ended_at.is_(None), db.vacations.c.until <= when
                )
            )
        }
    ended = 0
    for account_id in sorted(accounts):
        with engine.begin() as connection:
            ended += _settle(connection, account_id, when)
    return ended


def upkeep(engine: Engine, when: datetime) -> None:
    """What the timeout task does for vacations before it looks for late decisions (every
    ``--timeout-interval`` seconds): end those due (:func:`settle_due`) and read the ones
    going on into :data:`BOOK`."""
    settle_due(engine, when)
    BOOK.refresh(engine)


def _settle(connection: sa.Connection, account_id: str, when: datetime) -> int:
    """End the vacations of ``account_id`` whose planned end passed by ``when``, at that
    end, pushing its deadlines back; how many."""
    rows = connection.execute(
        sa.select(db.vacations.c.id, db.vacations.c.started_at, db.vacations.c.until).where(
            db.vacations.c.account_id == account_id,
            db.vacations.c.ended_at.is_(None),
            db.vacations.c.until <= when,
        )
    ).all()
    count = 0
    for row in rows:
        done = connection.execute(
            db.vacations.update()
            .where(db.vacations.c.id == row.id, db.vacations.c.ended_at.is_(None))
            .values(ended_at=row.until)
        )
        if done.rowcount != 1:
            continue  # another process ended it
        began, until = _aware(row.started_at), _aware(row.until)
        assert began is not None
        assert until is not None
        _push_back(connection, account_id, began, until)
        count += 1
    return count


def _push_back(
    connection: sa.Connection, account_id: str, began: datetime, ended: datetime
) -> None:
    """A vacation of ``account_id`` from ``began`` to ``ended`` is over: each running
    correspondence match whose decision is its seat's gets that decision's start and
    deadline pushed back by the part of the vacation the decision waited through (from the
    later of ``began`` and the decision's start to ``ended``)."""
    rows = connection.execute(
        sa.select(
            db.matches.c.id,
            db.matches.c.options,
            db.matches.c.turn_since,
            db.matches.c.deadline,
            db.matches.c.ply,
        )
        .join(
            db.seats,
            sa.and_(
                db.seats.c.match_id == db.matches.c.id,
                db.seats.c.seat == db.matches.c.to_move,
            ),
        )
        .where(
            db.seats.c.account_id == account_id,
            db.matches.c.status == "running",
            db.matches.c.deadline.is_not(None),
        )
    ).all()
    for r in rows:
        if not clocks.is_correspondence(dict(r.options or {})):
            continue
        since, deadline = _aware(r.turn_since), _aware(r.deadline)
        assert deadline is not None
        waited = ended - max(began, since or began)
        if waited <= timedelta(0):
            continue
        connection.execute(
            db.matches.update()
            .where(db.matches.c.id == r.id, db.matches.c.ply == r.ply)
            .values(
                deadline=deadline + waited,
                turn_since=None if since is None else since + waited,
            )
        )


def paused(engine: Engine, late: Sequence[LateDecision], when: datetime) -> set[str]:
    """Of the decisions ``late`` (past their deadline), the matches whose decision is
    paused: a correspondence match whose seat to move is an account on a vacation not yet
    ended (one that reached its planned end still pauses until :func:`settle_due` ended it
    and pushed the deadline back)."""
    if not late:
        return set()
    wanted = {(d.match_id, d.seat) for d in late}
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(db.seats.c.match_id, db.seats.c.seat, db.matches.c.options)
            .join(db.matches, db.matches.c.id == db.seats.c.match_id)
            .join(db.vacations, db.vacations.c.account_id == db.seats.c.account_id)
            .where(
                db.seats.c.match_id.in_(sorted({m for m, _ in wanted})),
                db.vacations.c.ended_at.is_(None),
                db.vacations.c.started_at <= when,
            )
        ).all()
    return {
        str(r.match_id)
        for r in rows
        if (str(r.match_id), int(r.seat)) in wanted
        and clocks.is_correspondence(dict(r.options or {}))
    }


def away_clause(when: datetime) -> sa.ColumnElement[bool]:
    """SQL: the account of ``db.accounts.c.id`` is on vacation at ``when`` (for queries
    such as the turn e-mails' that leave such accounts out)."""
    return sa.exists().where(
        db.vacations.c.account_id == db.accounts.c.id,
        db.vacations.c.ended_at.is_(None),
        db.vacations.c.started_at <= when,
        db.vacations.c.until > when,
    )


class VacationBook:
    """The accounts on vacation now and until when, as this process last read them: what a
    match's description shows for its seats without a query of its own. Refreshed by
    :meth:`refresh` (each timeout check, so within ``--timeout-interval`` seconds, and when
    a vacation of this process starts or ends)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, datetime] = {}

    def refresh(self, engine: Engine) -> None:
        """Read the vacations going on now."""
        when = now()
        with engine.connect() as connection:
            rows = connection.execute(
                sa.select(db.vacations.c.account_id, db.vacations.c.until).where(
                    db.vacations.c.ended_at.is_(None),
                    db.vacations.c.started_at <= when,
                    db.vacations.c.until > when,
                )
            ).all()
        until = {str(r.account_id): u for r in rows if (u := _aware(r.until)) is not None}
        with self._lock:
            self._until = until

    def until(self, account_id: str | None) -> datetime | None:
        """Until when ``account_id`` is on vacation (``None``: not, or not known)."""
        if account_id is None:
            return None
        found = self._until.get(account_id)
        return found if found is not None and found > now() else None


#: This process's :class:`VacationBook`.
BOOK = VacationBook()
