"""Reviews of finished matches on the server (docs/server.md, "Reviews"): asked for over
HTTP, stored in the ``reviews`` table, computed in the background by the bot workers' pool.

A review (:mod:`keltis.review`) is a list of steps, each a pure function of the record and
the budget (``decision:12``, ``deal``, ``draw:31``: about a second of CPU each). A process
hands one step at a time to the worker pool, so a bot's move waits at most one step behind
a review, and stores the steps' results as they come (:data:`SAVE_EVERY`): the progress
shows, and a process that takes the review over — after a restart, or when the one computing
it died — goes on from there. Several processes share the table: a process claims a review
with a lease (an ``UPDATE … WHERE`` the lease ran out, :meth:`ReviewStore.claim`) that it
renews with each store; a result stored under a lease another process took meanwhile is not
stored, and the process that lost it stops. With ``--bot-workers 0`` the steps run in
threads of the server process, as bots and hints do there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from keltis.core.protocol import JSON
from keltis.review import ReviewBudget
from keltis.server import db, workers
from keltis.server.ratelimit import Buckets
from keltis.server.store import now

log = logging.getLogger("keltis.server")

#: A review's states: asked for, nobody computed a step yet; being computed (or left by a
#: process that died, until its lease runs out); done; failed (a step raised).
STATUSES = ("queued", "running", "done", "failed")
#: How many times the account's rate of new reviews one address may ask for: people behind
#: one address (a household, a school) share it.
ADDRESS_SHARE = 3
#: Seconds between two writes of a review's results while it is computed: each write stores
#: every result so far, so steps quicker than this (a small budget) are stored a few at a
#: time — the progress still moves every second, and a restart loses at most this much.
SAVE_EVERY = 1.0


@dataclass(frozen=True)
class ReviewRow:
    """One review as stored."""

    match_id: str
    status: str
    budget: dict[str, int]
    done: int
    total: int
    results: dict[str, JSON]
    review: JSON | None
    error: str | None
    cpu_seconds: float
    lease_owner: str | None
    lease_until: datetime | None

    def answer(self) -> dict[str, Any]:
        """What ``GET``/``POST /api/matches/{id}/review`` answer: the status, the steps done
        and in all, and the review once it is done."""
        return {
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "review": self.review if self.status == "done" else None,
        }


#: The answer for a match whose review nobody asked for yet.
NO_REVIEW: dict[str, Any] = {"status": "none", "done": 0, "total": 0, "review": None}


class ReviewStore:
    """The ``reviews`` table: every call one short transaction (run in a worker thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, match_id: str) -> ReviewRow | None:
        """The review of ``match_id``, if one was asked for."""
        with db.reading(self.engine) as connection:
            row = connection.execute(
                sa.select(db.reviews).where(db.reviews.c.match_id == match_id)
            ).first()
        return None if row is None else _review_row(row)

    def answer(self, match_id: str) -> dict[str, Any] | None:
        """:meth:`ReviewRow.answer` of the review of ``match_id``, if one was asked for,
        read without its steps' results (clients poll it about once a second)."""
        columns = (db.reviews.c.status, db.reviews.c.done, db.reviews.c.total)
        with db.reading(self.engine) as connection:
            row = connection.execute(
                sa.select(*columns, db.reviews.c.review).where(db.reviews.c.match_id == match_id)
            ).first()
        if row is None:
            return None
        return {
            "status": row.status,
            "done": row.done,
            "total": row.total,
            "review": row.review if row.status == "done" else None,
        }

    def ask(
        self,
        match_id: str,
        budget: ReviewBudget,
        total: int,
        account_id: str | None,
        address: str | None,
    ) -> tuple[ReviewRow, bool]:
        """Queue the review of ``match_id`` (``total`` steps) unless it is there already: the
        review as stored and whether this call queued it (of two asking at once, one does)."""
        when = now()
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    db.reviews.insert().values(
                        match_id=match_id,
                        status="queued",
                        budget=budget.to_json(),
                        done=0,
                        total=total,
                        results={},
                        cpu_seconds=0.0,
                        account_id=account_id,
                        address=address,
                        created_at=when,
                        updated_at=when,
                    )
                )
            created = True
        except IntegrityError:
            created = False
        row = self.get(match_id)
        assert row is not None  # inserted, or there before
        return row, created

    def waiting(self, when: datetime, limit: int = 20) -> list[str]:
        """Reviews to compute, oldest first: queued or running, no lease held at ``when``."""
        with db.reading(self.engine) as connection:
            rows = connection.execute(
                sa.select(db.reviews.c.match_id)
                .where(_claimable(when))
                .order_by(db.reviews.c.created_at)
                .limit(limit)
            ).all()
        return [row.match_id for row in rows]

    def claim(self, match_id: str, owner: str, when: datetime, lease: float) -> ReviewRow | None:
        """Take the review of ``match_id`` for the process ``owner`` until ``when + lease``
        seconds, if it waits and no other process holds it (a conditional update: of several
        processes claiming it at once, one gets it); the review as claimed, else ``None``."""
        with self.engine.begin() as connection:
            claimed = connection.execute(
                db.reviews.update()
                .where(db.reviews.c.match_id == match_id, _claimable(when))
                .values(
                    status="running",
                    lease_owner=owner,
                    lease_until=when + timedelta(seconds=lease),
                    updated_at=when,
                )
            )
            if claimed.rowcount != 1:
                return None
            row = connection.execute(
                sa.select(db.reviews).where(db.reviews.c.match_id == match_id)
            ).one()
        return _review_row(row)

    def store_step(
        self,
        match_id: str,
        owner: str,
        results: dict[str, JSON],
        cpu_seconds: float,
        when: datetime,
        lease: float,
    ) -> bool:
        """Store the results so far (``results``: every step done) and renew ``owner``'s
        lease; ``False`` (nothing stored) if ``owner`` holds it no more."""
        with self.engine.begin() as connection:
            stored = connection.execute(
                db.reviews.update()
                .where(*_held(match_id, owner))
                .values(
                    results=results,
                    done=len(results),
                    cpu_seconds=cpu_seconds,
                    lease_until=when + timedelta(seconds=lease),
                    updated_at=when,
                )
            )
        return stored.rowcount == 1

    def finish(self, match_id: str, owner: str, review: JSON, when: datetime) -> bool:
        """Store the review, done (its lease let go); ``False`` if ``owner`` held it no
        more."""
        return self._end(match_id, owner, when, status="done", review=review)

    def fail(self, match_id: str, owner: str, error: str, when: datetime) -> bool:
        """Mark the review failed, saying why (``error``, for the log and the operator)."""
        return self._end(match_id, owner, when, status="failed", error=error[:2000])

    def _end(self, match_id: str, owner: str, when: datetime, **values: Any) -> bool:
        with self.engine.begin() as connection:
            ended = connection.execute(
                db.reviews.update()
                .where(*_held(match_id, owner))
                .values(
                    lease_owner=None,
                    lease_until=None,
                    updated_at=when,
                    finished_at=when,
                    **values,
                )
            )
        return ended.rowcount == 1

    def release(self, owner: str) -> None:
        """Let go of every lease of ``owner`` (a process stopping): others go on at once."""
        with self.engine.begin() as connection:
            connection.execute(
                db.reviews.update()
                .where(
                    db.reviews.c.lease_owner == owner,
                    db.reviews.c.status.in_(("queued", "running")),
                )
                .values(lease_owner=None, lease_until=None)
            )


def _claimable(when: datetime) -> sa.ColumnElement[bool]:
    """A review waiting to be computed at ``when``: queued or running, its lease (if any) run
    out."""
    return sa.and_(
        db.reviews.c.status.in_(("queued", "running")),
        sa.or_(db.reviews.c.lease_until.is_(None), db.reviews.c.lease_until < when),
    )


def _held(match_id: str, owner: str) -> tuple[sa.ColumnElement[bool], ...]:
    """The review of ``match_id`` while ``owner`` holds its lease (an expired lease still
    holds until another process claims the review)."""
    return (
        db.reviews.c.match_id == match_id,
        db.reviews.c.lease_owner == owner,
        db.reviews.c.status == "running",
    )


def _review_row(row: Any) -> ReviewRow:
    return ReviewRow(
        match_id=row.match_id,
        status=row.status,
        budget=dict(row.budget),
        done=row.done,
        total=row.total,
        results=dict(row.results or {}),
        review=row.review,
        error=row.error,
        cpu_seconds=row.cpu_seconds,
        lease_owner=row.lease_owner,
        lease_until=_aware(row.lease_until),
    )


def _aware(value: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back: they were stored in UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


class ReviewLimits:
    """How often new reviews may be asked for (each one costs the server about a minute of
    CPU): ``per_hour`` per account on average (``--review-rate``), as many at once, and
    :data:`ADDRESS_SHARE` times as many per address (guests are counted by address only).
    A review asked for again (there already) counts nothing. Each process counts its own,
    as chat and the lobby do."""

    def __init__(self, per_hour: float) -> None:
        burst = max(1, round(per_hour))
        self.accounts = Buckets(per_hour / 3600, burst)
        self.addresses = Buckets(ADDRESS_SHARE * per_hour / 3600, ADDRESS_SHARE * burst)

    def take(self, account_id: str | None, address: str) -> float | None:
        """Count a new review asked for by ``account_id`` (``None``: a guest) from
        ``address``: ``None``; or, over either rate (and nothing counted), the seconds until
        one more is allowed."""
        account = None if account_id is None else self.accounts.bucket(account_id)
        if account is not None and not account.take():
            return account.wait()
        here = self.addresses.bucket(address)
        if not here.take():
            if account is not None:
                account.give_back()
            return here.wait()
        return None

    def give_back(self, account_id: str | None, address: str) -> None:
        """Return what :meth:`take` counted (the review was there after all)."""
        if account_id is not None:
            self.accounts.bucket(account_id).give_back()
        self.addresses.bucket(address).give_back()


class ReviewQueue:
    """This process's part of the reviews: it queues those asked for here and computes
    waiting ones — ``config.review_workers`` at once, each one step at a time in the worker
    pool (``run``, one task per review worker)."""

    def __init__(
        self,
        store: ReviewStore,
        pool: workers.WorkerPool,
        record_of: Callable[[str], Awaitable[dict[str, Any]]],
        budget: ReviewBudget,
        lease: float,
        interval: float,
        rate: float,
    ) -> None:
        self.store = store
        self.pool = pool
        self.record_of = record_of
        """``await record_of(match_id)``: the finished match's record JSON (as
        ``/record`` gives it)."""
        self.budget = budget
        self.lease = lease
        self.interval = interval
        self.limits = ReviewLimits(rate)
        #: Names this process in the leases it holds.
        self.owner = secrets.token_hex(8)
        self._wake = asyncio.Event()

    async def get(self, match_id: str) -> dict[str, Any]:
        """The review's answer (:data:`NO_REVIEW` if nobody asked for it)."""
        answer = await self.answer(match_id)
        return dict(NO_REVIEW) if answer is None else answer

    async def answer(self, match_id: str) -> dict[str, Any] | None:
        """The review's answer if one was asked for (:meth:`ReviewStore.answer`)."""
        return await asyncio.to_thread(self.store.answer, match_id)

    async def ask(
        self, match_id: str, record_json: dict[str, Any], account_id: str | None, address: str
    ) -> tuple[ReviewRow, bool]:
        """Queue the review of the finished match ``match_id`` with this server's budget;
        the review and whether this call queued it. A process computing reviews here is
        woken at once."""
        # a replay of the record, as a replay's is: a thread, not a turn in the busy pool
        steps = await asyncio.to_thread(workers.review_plan, record_json, self.budget.to_json())
        row, created = await asyncio.to_thread(
            self.store.ask, match_id, self.budget, len(steps), account_id, address
        )
        if created:
            log.info("review of match %s asked for: %d steps", match_id, len(steps))
            self._wake.set()
        return row, created

    async def run(self) -> None:
        """Compute waiting reviews, one after another, for ever: each found at once when it
        is asked for here, else within ``interval`` seconds."""
        while True:
            try:
                row = await self._claim()
            except Exception:
                log.exception("could not look for reviews to compute")
                row = None
            if row is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.interval)
                self._wake.clear()
                continue
            await self._compute(row)

    async def _claim(self) -> ReviewRow | None:
        """A waiting review claimed for this process, if there is one."""
        for match_id in await asyncio.to_thread(self.store.waiting, now()):
            row = await asyncio.to_thread(self.store.claim, match_id, self.owner, now(), self.lease)
            if row is not None:
                return row
        return None

    async def _compute(self, row: ReviewRow) -> None:
        """Compute the claimed review's steps not done yet, one at a time, their results
        stored as they come (:data:`SAVE_EVERY`); then the review. A step that raises fails
        the review (logged)."""
        match_id = row.match_id
        log.info("review of match %s claimed: %d of %d steps done", match_id, row.done, row.total)
        results = dict(row.results)
        cpu = row.cpu_seconds
        loop = asyncio.get_running_loop()
        try:
            record = await self.record_of(match_id)
            steps: list[str] = await self.pool.run(workers.review_plan, record, row.budget)
            saved = loop.time()
            for step in steps:
                if step in results:
                    continue
                result, seconds = await self.pool.run(workers.review_step, record, step, row.budget)
                results[step] = result
                cpu += seconds
                if loop.time() - saved < SAVE_EVERY and len(results) < len(steps):
                    continue
                saved = loop.time()
                stored = await asyncio.to_thread(
                    self.store.store_step, match_id, self.owner, results, cpu, now(), self.lease
                )
                if not stored:
                    log.warning("review of match %s: another process took it over", match_id)
                    return
            review = await self.pool.run(workers.review_assemble, record, row.budget, results, cpu)
            if await asyncio.to_thread(self.store.finish, match_id, self.owner, review, now()):
                log.info("review of match %s done (%.1f s of CPU)", match_id, cpu)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("review of match %s failed", match_id)
            message = f"{type(error).__name__}: {error}"
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.fail, match_id, self.owner, message, now())

    async def close(self) -> None:
        """This process stops: its leases let go, so that another process goes on at once."""
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.store.release, self.owner)


def server_budget(text: str) -> ReviewBudget:
    """The server's review budget from ``--review-budget`` (``ValueError`` saying what is
    wrong, with the option's name)."""
    try:
        return ReviewBudget.parse(text)
    except ValueError as error:
        raise ValueError(f"--review-budget {text!r}: {error}") from None
