"""The lobby's seeks (docs/server.md, "The lobby: seeks"): a logged-in player opens a seek
for a match, others join it, and when its last place is taken — or its wait for people is
over and bots take the places left — it becomes that match.

Three parts:

- :class:`SeekStore`, the ``seeks`` and ``seek_players`` tables: one short transaction per
  call (run in a worker thread), each change guarded so that racing requests and processes
  cannot break a rule. Every change begins by updating the seek's row only if it is still
  ``open``, which locks it (PostgreSQL's row lock, SQLite's write lock): changes to one seek
  happen one after another, and the later sees what the earlier did.
- :class:`Seeks`, the rules: at most :data:`MAX_OPEN` open seeks per account; a join needs
  the account's rating in the seek's rating range, once, never one's own seek; a full seek
  starts its match. The seek becomes ``started`` in the very transaction that stores its
  match (:meth:`SeekStore.claim`, run by :meth:`Store.create_match`), after checking that
  its players are still those the match was planned for: of two requests (or processes)
  taking the last place at once, exactly one creates the match; the other finds the seek
  started.
- :class:`LobbyEvents`, the lobby's live streams (Server-Sent Events): the open seeks at once
  and after every change, whichever process made it, and each seek that became a match. A
  change sends ``NOTIFY keltis 'seeks:lobby:<origin>'`` (``'<seek>/<match>:lobby:<origin>'``
  for a start) in its own transaction on PostgreSQL (:mod:`keltis.server.notifier` passes it
  here); every process also compares a cheap fingerprint of the open seeks every
  few seconds (SQLite has no notifications; on PostgreSQL it catches what sends none, such as
  a deleted account's seeks).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from keltis.server import db
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError
from keltis.server.bodies import CreateMatch, OpenSeek
from keltis.server.lobby import MatchPlan, SeatPlan, plan_match
from keltis.server.master import MatchMaster
from keltis.server.ratelimit import Buckets
from keltis.server.ratings import START_MU, START_SIGMA, Rating
from keltis.server.store import CHANNEL, ConflictError, Store, _aware, now

log = logging.getLogger("keltis.server")

#: Open seeks one account may hold at once.
MAX_OPEN = 3
#: Open challenges (seeks addressed to one account) one account may hold at once.
MAX_CHALLENGES = 5
#: Times a join is tried again when the seek changed under it (another player joined or
#: left between reading the seek and storing the join).
JOIN_TRIES = 8
#: Events queued for one lobby stream: a client that reads none of them is dropped (its
#: browser connects again and gets the open seeks anew).
STREAM_QUEUE = 64
#: Seconds after which a seek's match that is stored but was never started (its process
#: stopped between the two) is started by the upkeep of any process.
STALLED_AFTER = 30.0
#: Seconds a browser waits before it connects again after its lobby stream ended (the
#: stream's ``retry``).
RETRY = 3.0
#: Seeks whose start a process remembers having told its streams of (not to tell it twice).
TOLD_STARTS = 512
#: How many times an account's rate of changes to seeks one address may make: people
#: behind one address (a household, a school) share it.
ADDRESS_SHARE = 3


def new_seek_id() -> str:
    """A new seek's id (72 bits): public, in addresses."""
    return secrets.token_urlsafe(9)


def seek_id_ok(seek_id: str) -> bool:
    """Whether ``seek_id`` could be one the server made (else: no such seek, without asking
    the database)."""
    return 0 < len(seek_id) <= 16 and all(c.isalnum() or c in "-_" for c in seek_id)


@dataclass(frozen=True)
class Seek:
    """A seek as stored, with its players (``seated``: account id and name, in the order
    they joined, the seeker first)."""

    id: str
    account_id: str
    game: str
    players: int
    rated: bool
    options: dict[str, Any]
    rating_min: float | None
    rating_max: float | None
    bots_after: int | None
    status: str
    match_id: str | None
    created_at: datetime
    updated_at: datetime
    seated: tuple[tuple[str, str], ...]
    suspended: bool = False
    """The seeker is suspended: the seek is not shown, nobody joins it."""
    for_account: str | None = None
    """A challenge (:mod:`keltis.server.friends`): the one account that may join it; it is
    not in the public list, and its event goes to that account's streams only."""
    for_name: str = ""
    """The name of :attr:`for_account` ("" for a public seek)."""
    by_rating: Rating | None = None
    """The seeker's rating in the seek's game, as the lobby shows it (``None``: a new
    player's)."""

    @property
    def seated_ids(self) -> frozenset[str]:
        """The accounts in the seek (the seeker's included)."""
        return frozenset(account_id for account_id, _ in self.seated)

    @property
    def by(self) -> str:
        """The seeker's name."""
        for account_id, name in self.seated:
            if account_id == self.account_id:
                return name
        return ""

    @property
    def bots_at(self) -> datetime | None:
        """When bots take the places still empty (``None``: never)."""
        if self.bots_after is None:
            return None
        return self.created_at + timedelta(seconds=self.bots_after)

    def admits(self, rating: float) -> bool:
        """Whether the seek's rating range holds ``rating``."""
        return (self.rating_min is None or rating >= self.rating_min) and (
            self.rating_max is None or rating <= self.rating_max
        )

    def to_json(self) -> dict[str, Any]:
        """The seek as the lobby shows it (no account ids: names only)."""
        bots_at = self.bots_at
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "rated": self.rated,
            "time": self.options.get("time"),
            "rating_min": self.rating_min,
            "rating_max": self.rating_max,
            "bots_after": self.bots_after,
            "bots_at": None if bots_at is None else bots_at.isoformat(),
            "by": self.by,
            "seated": [name for _, name in self.seated],
            "created": self.created_at.isoformat(),
            "status": self.status,
            "match": self.match_id,
            "for": self.for_name or None,
            # the seeker's rating in this game (ratings.shown; a new player's if none)
            "by_rating": _rating_json(self.by_rating),
        }


def _rating_json(rating: Rating | None) -> dict[str, Any]:
    """A seeker's rating as the lobby shows it: ``rating`` and ``provisional``."""
    shown = rating if rating is not None else Rating(START_MU, START_SIGMA, 0)
    return {"rating": shown.value, "provisional": shown.provisional}


# -- the tables ---------------------------------------------------------------------------


class SeekStore:
    """The seeks in the server's database (every call one short transaction, in a worker
    thread). Changes send their lobby notice through ``store``'s channel on PostgreSQL."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.notifies = store.notifies
        self.origin = store.origin

    # -- reading ---------------------------------------------------------------------------

    def open_seeks(self) -> list[Seek]:
        """The open seeks, oldest first (not those of a suspended seeker: the lobby does
        not show them, and nobody joins them)."""
        with self.engine.connect() as connection:
            return _read(connection, _listed())

    def get(self, seek_id: str) -> Seek | None:
        """The seek ``seek_id`` (whatever its status), or ``None``."""
        with self.engine.connect() as connection:
            found = _read(connection, db.seeks.c.id == seek_id)
        return found[0] if found else None

    def snapshot(self, seek_ids: Sequence[str] | None = None) -> tuple[tuple[Any, ...], list[Seek]]:
        """The open seeks' :meth:`fingerprint` and then the open seeks (``None``) or the
        seeks ``seek_ids`` whatever their status, in one connection."""
        with self.engine.connect() as connection:
            fingerprint = self._fingerprint(connection)
            if seek_ids is None:  # the challenges too: LobbyEvents tells their addressees
                condition = sa.and_(db.seeks.c.status == "open", _seeker_active())
            else:
                condition = db.seeks.c.id.in_(list(seek_ids))
            return fingerprint, _read(connection, condition) if seek_ids != [] else []

    def ended(self, seek_ids: Sequence[str]) -> list[tuple[str, str]]:
        """Of ``seek_ids``, those that became a match: ``(seek, match)`` pairs."""
        if not seek_ids:
            return []
        query = sa.select(db.seeks.c.id, db.seeks.c.match_id).where(
            db.seeks.c.id.in_(list(seek_ids)),
            db.seeks.c.status == "started",
            db.seeks.c.match_id.is_not(None),
        )
        with self.engine.connect() as connection:
            return [(str(r.id), str(r.match_id)) for r in connection.execute(query)]

    def fingerprint(self) -> tuple[Any, ...]:
        """What changes whenever the open seeks do, in one cheap query: how many there are,
        their players, and the latest change to any seek."""
        with self.engine.connect() as connection:
            return self._fingerprint(connection)

    @staticmethod
    def _fingerprint(connection: sa.Connection) -> tuple[Any, ...]:
        open_ids = sa.select(db.seeks.c.id).where(db.seeks.c.status == "open")
        query = sa.select(
            sa.select(sa.func.count()).select_from(open_ids.subquery()).scalar_subquery(),
            sa.select(sa.func.count())
            .select_from(db.seek_players)
            .where(db.seek_players.c.seek_id.in_(open_ids))
            .scalar_subquery(),
            sa.select(sa.func.max(db.seeks.c.updated_at)).scalar_subquery(),
        )
        return tuple(connection.execute(query).one())

    def due(self) -> list[str]:
        """Open seeks whose wait for people is over: bots are to take their empty places."""
        query = sa.select(db.seeks.c.id, db.seeks.c.created_at, db.seeks.c.bots_after).where(
            db.seeks.c.status == "open", db.seeks.c.bots_after.is_not(None), _seeker_active()
        )
        when = now()
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        due = []
        for row in rows:
            created = _aware(row.created_at)
            assert created is not None
            if created + timedelta(seconds=int(row.bots_after)) <= when:
                due.append(str(row.id))
        return due

    def stalled(self, before: datetime) -> list[str]:
        """The matches of seeks started before ``before`` that are still not running: their
        process stopped between storing and starting them."""
        query = (
            sa.select(db.matches.c.id)
            .join(db.seeks, db.seeks.c.match_id == db.matches.c.id)
            .where(
                db.seeks.c.status == "started",
                db.seeks.c.updated_at <= before,
                db.matches.c.status == "open",
            )
        )
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]

    # -- changing --------------------------------------------------------------------------

    def create(self, account: Account, body: OpenSeek, for_account: str | None = None) -> str:
        """Store a new open seek of ``account`` with the seeker as its first player; its id.
        Refused (``seek.too_many``) if the account holds :data:`MAX_OPEN` open seeks. With
        ``for_account``, a challenge to that account (``challenge.too_many`` beyond
        :data:`MAX_CHALLENGES` open challenges; they are counted apart from seeks)."""
        seek_id, when = new_seek_id(), now()
        options = {"time": None if body.time is None else body.time.model_dump()}
        with self.engine.begin() as connection:
            # the account's row locked (PostgreSQL; SQLite's insert below takes the write
            # lock before the count): two seeks opened at once are counted one after the other
            connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.id == account.id).with_for_update()
            )
            connection.execute(
                db.seeks.insert().values(
                    id=seek_id,
                    account_id=account.id,
                    game=body.game,
                    players=body.players,
                    rated=body.rated,
                    options=options,
                    rating_min=body.rating_min,
                    rating_max=body.rating_max,
                    bots_after=body.bots_after,
                    status="open",
                    match_id=None,
                    created_at=when,
                    updated_at=when,
                    for_account=for_account,
                )
            )
            connection.execute(
                db.seek_players.insert().values(
                    seek_id=seek_id, account_id=account.id, joined_at=when
                )
            )
            kind = (
                db.seeks.c.for_account.is_(None)
                if for_account is None
                else db.seeks.c.for_account.is_not(None)
            )
            held = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.seeks)
                .where(db.seeks.c.account_id == account.id, db.seeks.c.status == "open", kind)
            ).scalar_one()
            if for_account is None and held > MAX_OPEN:
                raise RefusedError("seek.too_many", limit=MAX_OPEN)
            if for_account is not None and held > MAX_CHALLENGES:
                raise RefusedError("challenge.too_many", status=409, limit=MAX_CHALLENGES)
            self._notify(connection, "seeks")
        return seek_id

    def add_player(self, seek_id: str, account_id: str, before: frozenset[str]) -> None:
        """``account_id`` joins the open seek ``seek_id``, whose players must still be
        ``before`` (:class:`ConflictError` if it is no longer open or they changed)."""
        with self.engine.begin() as connection:
            self._lock(connection, seek_id)
            self._check_players(connection, seek_id, before)
            connection.execute(
                db.seek_players.insert().values(
                    seek_id=seek_id, account_id=account_id, joined_at=now()
                )
            )
            self._notify(connection, "seeks")

    def claim(
        self,
        connection: sa.Connection,
        seek_id: str,
        match_id: str,
        before: frozenset[str],
        joiner: str | None,
    ) -> None:
        """In the transaction that stores match ``match_id`` (:meth:`Store.create_match`):
        the open seek ``seek_id``, whose players must still be ``before``, becomes that
        match (with ``joiner`` as its last player, if one takes the last place). Raises
        :class:`ConflictError` — and the match is not stored — if the seek is no longer open
        or its players changed: another request or process got there first."""
        when = now()
        claimed = connection.execute(
            db.seeks.update()
            .where(db.seeks.c.id == seek_id, db.seeks.c.status == "open")
            .values(status="started", match_id=match_id, updated_at=when)
        )
        if claimed.rowcount != 1:
            raise ConflictError(f"seek {seek_id} is no longer open")
        self._check_players(connection, seek_id, before)
        if joiner is not None:
            connection.execute(
                db.seek_players.insert().values(seek_id=seek_id, account_id=joiner, joined_at=when)
            )
        self._notify(connection, f"{seek_id}/{match_id}")

    def remove_player(self, seek_id: str, account_id: str) -> bool:
        """``account_id`` leaves the open seek ``seek_id`` (not its seeker: see
        :meth:`cancel`); ``False`` if it was not in it. :class:`ConflictError` if the seek
        is not open."""
        with self.engine.begin() as connection:
            self._lock(connection, seek_id)
            removed = connection.execute(
                db.seek_players.delete().where(
                    db.seek_players.c.seek_id == seek_id,
                    db.seek_players.c.account_id == account_id,
                    ~sa.exists().where(
                        db.seeks.c.id == seek_id, db.seeks.c.account_id == account_id
                    ),
                )
            )
            if removed.rowcount != 1:  # rolled back: the seek's row stays as it was
                raise _NotJoinedError(seek_id)
            self._notify(connection, "seeks")
        return True

    def cancel(self, seek_id: str, account_id: str) -> bool:
        """The seeker ``account_id`` cancels its open seek ``seek_id``; ``False`` if it is
        not an open seek of that account."""
        with self.engine.begin() as connection:
            cancelled = connection.execute(
                db.seeks.update()
                .where(
                    db.seeks.c.id == seek_id,
                    db.seeks.c.account_id == account_id,
                    db.seeks.c.status == "open",
                )
                .values(status="cancelled", updated_at=now())
            )
            if cancelled.rowcount != 1:
                return False
            self._notify(connection, "seeks")
        return True

    def decline(self, seek_id: str, account_id: str) -> bool:
        """The addressee ``account_id`` declines the open challenge ``seek_id`` (status
        ``declined``); ``False`` if it is not an open challenge to that account."""
        with self.engine.begin() as connection:
            declined = connection.execute(
                db.seeks.update()
                .where(
                    db.seeks.c.id == seek_id,
                    db.seeks.c.for_account == account_id,
                    db.seeks.c.status == "open",
                )
                .values(status="declined", updated_at=now())
            )
            if declined.rowcount != 1:
                return False
            self._notify(connection, "seeks")
        return True

    # -- inside ----------------------------------------------------------------------------

    def _lock(self, connection: sa.Connection, seek_id: str) -> None:
        """Lock the seek's row, if it is open (:class:`ConflictError` if not): a later change
        to it waits for this transaction, then sees what it did."""
        locked = connection.execute(
            db.seeks.update()
            .where(db.seeks.c.id == seek_id, db.seeks.c.status == "open")
            .values(updated_at=now())
        )
        if locked.rowcount != 1:
            raise ConflictError(f"seek {seek_id} is no longer open")

    def _check_players(
        self, connection: sa.Connection, seek_id: str, before: frozenset[str]
    ) -> None:
        players = frozenset(
            str(r.account_id)
            for r in connection.execute(
                sa.select(db.seek_players.c.account_id).where(db.seek_players.c.seek_id == seek_id)
            )
        )
        if players != before:
            raise ConflictError(f"the players of seek {seek_id} changed")

    def _notify(self, connection: sa.Connection, subject: str) -> None:
        """``NOTIFY keltis '<subject>:lobby:<origin>'`` on PostgreSQL, delivered at commit
        (``subject``: ``seeks``, or ``<seek>/<match>`` for a seek that became a match)."""
        if self.notifies:
            connection.execute(
                sa.text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{subject}:lobby:{self.origin}"},
            )


def _listed() -> sa.ColumnElement[bool]:
    """The seeks the public list shows: open, not a challenge, the seeker not suspended."""
    return sa.and_(db.seeks.c.status == "open", db.seeks.c.for_account.is_(None), _seeker_active())


def _seeker_active() -> sa.ColumnElement[bool]:
    """The seek's seeker is not suspended (``keltis admin suspend``)."""
    return ~sa.exists().where(
        db.accounts.c.id == db.seeks.c.account_id, db.accounts.c.suspended_at.is_not(None)
    )


class _NotJoinedError(Exception):
    """The account leaving a seek is not one of its players (or is its seeker)."""


def _read(connection: sa.Connection, condition: sa.ColumnElement[bool]) -> list[Seek]:
    """The seeks matching ``condition``, oldest first, with their players' names."""
    rows = connection.execute(
        sa.select(db.seeks).where(condition).order_by(db.seeks.c.created_at, db.seeks.c.id)
    ).all()
    if not rows:
        return []
    seated: dict[str, list[tuple[str, str]]] = {str(r.id): [] for r in rows}
    suspended = {
        str(a.id)
        for a in connection.execute(
            sa.select(db.accounts.c.id).where(
                db.accounts.c.id.in_({str(r.account_id) for r in rows}),
                db.accounts.c.suspended_at.is_not(None),
            )
        )
    }
    players = connection.execute(
        sa.select(db.seek_players.c.seek_id, db.seek_players.c.account_id, db.accounts.c.name)
        .join(db.accounts, db.accounts.c.id == db.seek_players.c.account_id)
        .where(db.seek_players.c.seek_id.in_(list(seated)))
        .order_by(db.seek_players.c.joined_at, db.seek_players.c.account_id)
    )
    for p in players:
        seated[str(p.seek_id)].append((str(p.account_id), str(p.name)))
    seekers = {f"account:{r.account_id}" for r in rows}
    ratings = {
        (str(g.player), str(g.game)): Rating(float(g.mu), float(g.sigma), int(g.games))
        for g in connection.execute(sa.select(db.ratings).where(db.ratings.c.player.in_(seekers)))
    }
    addressed = {str(r.for_account) for r in rows if r.for_account is not None}
    addressees = (
        {
            str(a.id): str(a.name)
            for a in connection.execute(
                sa.select(db.accounts.c.id, db.accounts.c.name).where(
                    db.accounts.c.id.in_(addressed)
                )
            )
        }
        if addressed
        else {}
    )
    seeks = []
    for r in rows:
        created, updated = _aware(r.created_at), _aware(r.updated_at)
        assert created is not None
        assert updated is not None
        seeker = str(r.account_id)
        # the seeker first, whatever the clock said when the others joined
        people = [p for p in seated[str(r.id)] if p[0] == seeker]
        people += [p for p in seated[str(r.id)] if p[0] != seeker]
        seeks.append(
            Seek(
                id=str(r.id),
                account_id=str(r.account_id),
                game=str(r.game),
                players=int(r.players),
                rated=bool(r.rated),
                options=dict(r.options or {}),
                rating_min=None if r.rating_min is None else float(r.rating_min),
                rating_max=None if r.rating_max is None else float(r.rating_max),
                bots_after=None if r.bots_after is None else int(r.bots_after),
                status=str(r.status),
                match_id=r.match_id,
                created_at=created,
                updated_at=updated,
                seated=tuple(people),
                suspended=seeker in suspended,
                for_account=None if r.for_account is None else str(r.for_account),
                for_name=addressees.get(str(r.for_account), "") if r.for_account else "",
                by_rating=ratings.get((f"account:{seeker}", str(r.game))),
            )
        )
    return seeks


# -- the rules ----------------------------------------------------------------------------


class SeekLimits:
    """How often the lobby's seeks may be changed — opened, joined, left or cancelled:
    ``per_minute`` changes per account on average (``--seek-rate``), half as many at once
    (at least 5), and :data:`ADDRESS_SHARE` times as many per address. Every change is told
    to every lobby stream, so this bounds what one account (or one address with many
    accounts) can make the lobby send. Each process counts its own, as chat does."""

    def __init__(self, per_minute: float) -> None:
        burst = max(5, round(per_minute / 2))
        self.accounts = Buckets(per_minute / 60, burst)
        self.addresses = Buckets(ADDRESS_SHARE * per_minute / 60, ADDRESS_SHARE * burst)

    def take(self, account_id: str, address: str) -> float | None:
        """Count a change by ``account_id`` from ``address``: ``None``; or, over either
        rate (and nothing counted), the seconds until one more is allowed."""
        account = self.accounts.bucket(account_id)
        if not account.take():
            return account.wait()
        here = self.addresses.bucket(address)
        if not here.take():
            account.give_back()
            return here.wait()
        return None


class Seeks:
    """The lobby's seeks of one server process: the rules, the matches they become
    (through ``master``) and the lobby's streams (``events``) told of every change."""

    def __init__(self, master: MatchMaster, store: SeekStore, events: LobbyEvents) -> None:
        self.master = master
        self.store = store
        self.events = events
        self.limits = SeekLimits(master.config.seek_rate)

    async def open_seeks(self) -> list[Seek]:
        """The open seeks, oldest first."""
        return await asyncio.to_thread(self.store.open_seeks)

    async def get(self, seek_id: str) -> Seek:
        """The seek ``seek_id`` (``404`` ``seek.no_seek`` if there is none)."""
        seek = await asyncio.to_thread(self.store.get, seek_id) if seek_id_ok(seek_id) else None
        if seek is None:
            raise RefusedError("seek.no_seek", status=404)
        return seek

    async def open(self, account: Account, body: OpenSeek, for_account: str | None = None) -> Seek:
        """``account`` opens a seek (with ``for_account``: a challenge to that account)."""
        seek_id = await asyncio.to_thread(self.store.create, account, body, for_account)
        self.events.changed(seek_id)
        return await self.get(seek_id)

    async def decline(self, account: Account, seek_id: str) -> Seek:
        """The addressee of a challenge declines it (``409`` ``seek.not_open`` if it is no
        longer open; ``403`` ``challenge.not_yours`` if it is not addressed to them)."""
        seek = await self.get(seek_id)
        if seek.for_account != account.id:
            raise RefusedError("challenge.not_yours", status=403)
        if not await asyncio.to_thread(self.store.decline, seek.id, account.id):
            raise RefusedError("seek.not_open")
        self.events.changed(seek.id)
        return await self.get(seek_id)

    async def join(self, account: Account, seek_id: str) -> Seek:
        """``account`` takes a place in the seek; the last place starts its match. Refused:
        one's own seek, twice, a seek not open or full, a rating outside its range, a seek
        with a player between whom and the account a block stands."""
        full = False
        for _ in range(JOIN_TRIES):
            seek = await self.get(seek_id)
            if seek.status != "open" or seek.suspended:
                raise RefusedError("seek.not_open")
            if account.id == seek.account_id:
                raise RefusedError("seek.own")
            if seek.for_account is not None and account.id != seek.for_account:
                raise RefusedError("challenge.not_yours", status=403)
            if account.id in seek.seated_ids:
                raise RefusedError("seek.joined")
            if await asyncio.to_thread(
                self.master.moderation.blocked_between, account.id, seek.seated_ids
            ):  # a block between the joiner and a player of the seek, made by either
                raise RefusedError("block.play", status=403)
            if len(seek.seated) >= seek.players:
                # read between the start's commit and its status (each read sees the
                # latest commit): the next read finds the seek started
                full = True
                continue
            if seek.rating_min is not None or seek.rating_max is not None:
                rating = await asyncio.to_thread(
                    self.master.ratings.rating, account.player, seek.game
                )
                if not seek.admits(rating.value):
                    raise RefusedError(
                        "seek.rating_range",
                        status=403,
                        rating=rating.value,
                        range=_range(seek.rating_min, seek.rating_max),
                    )
            try:
                if len(seek.seated) + 1 < seek.players:
                    await asyncio.to_thread(
                        self.store.add_player, seek.id, account.id, seek.seated_ids
                    )
                    self.events.changed(seek.id)
                else:
                    await self._start(seek, account)
            except ConflictError:
                continue  # the seek changed meanwhile: read it again
            return await self.get(seek_id)
        raise RefusedError("seek.full" if full else "seek.busy")

    async def withdraw(self, account: Account, seek_id: str) -> Seek:
        """The seeker cancels its seek; another player in it leaves it."""
        seek = await self.get(seek_id)
        if seek.status != "open":
            raise RefusedError("seek.not_open")
        if account.id == seek.account_id:
            if not await asyncio.to_thread(self.store.cancel, seek.id, account.id):
                raise RefusedError("seek.not_open")
        else:
            try:
                await asyncio.to_thread(self.store.remove_player, seek.id, account.id)
            except ConflictError:
                raise RefusedError("seek.not_open") from None
            except _NotJoinedError:
                raise RefusedError("seek.not_joined") from None
        self.events.changed(seek.id)
        return await self.get(seek_id)

    async def fill_due(self) -> None:
        """Bots take the empty places of every open seek whose wait for people is over, and
        its match starts. Of several processes doing this at once, one claims each seek.
        A seek's match stored but never started (its process stopped in between) starts."""
        before = now() - timedelta(seconds=STALLED_AFTER)
        for match_id in await asyncio.to_thread(self.store.stalled, before):
            try:
                live = await self.master.get(match_id)
                if live.row.status == "open":
                    # the match service's own start (conditional: of two processes, one)
                    await self.master._start(live)
            except Exception:
                log.exception("could not start match %s of a seek", match_id)
        for seek_id in await asyncio.to_thread(self.store.due):
            seek = await asyncio.to_thread(self.store.get, seek_id)
            if seek is None or seek.status != "open":
                continue
            try:
                await self._start(seek, None)
            except ConflictError:
                pass  # someone joined, left or started it meanwhile: the next round sees
            except Exception:
                log.exception("could not fill seek %s with bots", seek_id)

    async def _start(self, seek: Seek, joiner: Account | None) -> None:
        """Create the match of ``seek`` — its players (``joiner`` taking the last place)
        and bots in the places left — claiming the seek in the same transaction
        (:meth:`SeekStore.claim`); :class:`ConflictError` if it changed meanwhile."""
        people = list(seek.seated)
        if joiner is not None:
            people.append((joiner.id, joiner.name))
        plan = plan_seek(seek, people, self.master.config.stand_in_level)
        before = seek.seated_ids

        def claim(connection: sa.Connection, match_id: str) -> None:
            self.store.claim(
                connection, seek.id, match_id, before, None if joiner is None else joiner.id
            )

        created = await self.master.create(plan, within=claim)
        self.events.started(seek.id, created.live.id)


def plan_seek(seek: Seek, people: list[tuple[str, str]], bot_level: str) -> MatchPlan:
    """The match a full seek becomes: its players (``people``: account id and name) and
    bots of ``bot_level`` in the places left, the seats in a random order (who begins is
    left to chance), listed, started at once; each person seat is its account's."""
    kinds = ["person"] * len(people) + ["bot"] * (seek.players - len(people))
    secrets.SystemRandom().shuffle(kinds)
    body = CreateMatch.model_validate(
        {
            "game": seek.game,
            "seats": [
                {"kind": "person"} if kind == "person" else {"kind": "bot", "level": bot_level}
                for kind in kinds
            ],
            "rated": seek.rated,
            # the lobby's matches are played without hints or take-backs, bots or not
            "hints": False,
            "undo": False,
            "public": True,
            "start": True,
            "seat": None,
            **({"time": seek.options["time"]} if seek.options.get("time") else {}),
        }
    )
    plan = plan_match(body, allow_setup=False)
    waiting = iter(people)
    seats = []
    for number, seat in enumerate(plan.seats):
        if seat.kind == "person":
            account_id, name = next(waiting)
            seats.append(SeatPlan("person", name, account_id=account_id))
            plan.record.players[number].name = name
        else:
            seats.append(seat)
    return dataclasses.replace(plan, seats=seats, creator=None)


def _range(low: float | None, high: float | None) -> str:
    """A rating range as a message shows it (``…`` for an open end)."""
    return f"{'…' if low is None else f'{low:g}'} – {'…' if high is None else f'{high:g}'}"


# -- the lobby's streams ------------------------------------------------------------------


def event(kind: str, data: Any) -> bytes:
    """One Server-Sent Event: its name and its data as one line of JSON."""
    return event_of(kind, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def event_of(kind: str, data: str) -> bytes:
    """One Server-Sent Event whose data is ``data``, one line of JSON already."""
    return f"event: {kind}\ndata: {data}\n\n".encode()


#: A stream's queue: events as the bytes sent, ``None`` to end it.
Queue = asyncio.Queue[bytes | None]


class LobbyEvents:
    """The lobby's live streams in this process: each gets the open seeks when it connects
    (``seeks``), then each change to them as it happens — ``seek`` (a seek opened or
    changed: the seek) and ``gone`` (``{"id"}``: a seek left the list) — and a ``started``
    event for each seek that became a match.

    A change made here names its seek (:meth:`changed`): only that seek is read again.
    Another process's change arrives as a notification (:meth:`notified`) or is found by the
    periodic comparison in :meth:`run`; then all the open seeks are read and compared with
    what the streams were told. Each event is encoded once, and the same bytes go to every
    stream."""

    def __init__(self, store: SeekStore, interval: float, heartbeat: float) -> None:
        self.store = store
        self.interval = interval
        """Seconds between comparisons of the open seeks' fingerprint (changes other
        processes made without a notification)."""
        self.heartbeat = heartbeat
        """Seconds between a stream's comment lines (they keep proxies from closing it
        and find clients that went)."""
        self.listeners: set[Queue] = set()
        self.closed = False
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._known = False
        """Whether :attr:`_shown` holds what the streams were told (else: read all)."""
        self._shown: dict[str, tuple[tuple[datetime, str], str]] = {}
        """The open seeks the streams were told of: each one's order (created, id) and its
        JSON text."""
        self._snapshot: bytes | None = None
        self._fingerprint: tuple[Any, ...] | None = None
        self._all = False
        self._pending: set[str] = set()
        self._told: OrderedDict[str, None] = OrderedDict()
        self.greetings: list[Callable[[], bytes | None]] = []
        """What else a new stream gets after the open seeks: each gives an event or
        ``None`` (the quick-pairing pool's counts, :mod:`keltis.server.pool`)."""
        self.owners: dict[Queue, str] = {}
        """The logged-in account of each stream that has one: a challenge's events go to
        its addressee's streams only."""
        self._challenges: dict[str, tuple[str, str, str]] = {}
        """The open challenges the addressees' streams were told of: each one's addressee,
        challenger and JSON text."""

    # -- streams ---------------------------------------------------------------------------

    async def subscribe(self, account_id: str | None = None) -> Queue | None:
        """A new stream's queue, the open seeks first in it, then the open challenges to
        ``account_id`` (the stream's logged-in account, if any); ``None``: the server is
        stopping."""
        if self.closed:
            return None
        queue: Queue = asyncio.Queue(STREAM_QUEUE)
        async with self._lock:
            await self._refresh(True, set())
            if self.closed:  # the server began to stop meanwhile
                return None
            queue.put_nowait(self.snapshot())
            for greet in self.greetings:
                greeting = greet()
                if greeting is not None:
                    queue.put_nowait(greeting)
            if account_id is not None:
                self.owners[queue] = account_id
                for addressee, _, text in self._challenges.values():
                    if addressee == account_id and not queue.full():
                        queue.put_nowait(event_of("challenge", text))
            self.listeners.add(queue)
        return queue

    def unsubscribe(self, queue: Queue) -> None:
        """A stream ended."""
        self.listeners.discard(queue)
        self.owners.pop(queue, None)
        if not self.listeners:  # nobody follows: what was last told is forgotten
            self._known, self._shown, self._snapshot, self._fingerprint = False, {}, None, None
            self._challenges = {}

    def snapshot(self) -> bytes:
        """The ``seeks`` event of the open seeks as the streams were last told them."""
        if self._snapshot is None:
            texts = [text for _, text in sorted(self._shown.values())]
            self._snapshot = event_of("seeks", '{"seeks":[' + ",".join(texts) + "]}")
        return self._snapshot

    async def stream(self, queue: Queue) -> AsyncIterator[bytes]:
        """What a stream sends: its events, and a comment every :attr:`heartbeat` seconds;
        it ends when its queue says so."""
        loop = asyncio.get_running_loop()
        beat = loop.time() + self.heartbeat
        yield f"retry: {round(RETRY * 1000)}\n\n".encode()
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), max(0.0, beat - loop.time()))
            except TimeoutError:
                beat = loop.time() + self.heartbeat
                yield b": heartbeat\n\n"
                continue
            if item is None:
                return
            yield item

    def close(self) -> None:
        """The server is stopping: every stream ends (uvicorn waits for open answers before
        it stops), and no new one begins."""
        self.closed = True
        for queue in list(self.listeners):
            _end(queue)
        self.listeners.clear()

    # -- changes ---------------------------------------------------------------------------

    def changed(self, seek_id: str | None = None) -> None:
        """Seek ``seek_id`` changed (``None``: the seeks, which ones unknown): the streams
        are told (soon, once for many changes)."""
        if seek_id is None:
            self._all = True
        else:
            self._pending.add(seek_id)
        self._wake.set()

    def started(self, seek_id: str, match_id: str) -> None:
        """Seek ``seek_id`` became match ``match_id``: tell every stream (once)."""
        if seek_id in self._told:
            return
        self._told[seek_id] = None
        while len(self._told) > TOLD_STARTS:
            self._told.popitem(last=False)
        started = event("started", {"seek": seek_id, "match": match_id})
        challenge = self._challenges.get(seek_id)
        if challenge is None:
            self._send(started)
        else:  # a challenge's start: its two players' streams only
            self._send_to(challenge[0], started)
            self._send_to(challenge[1], started)
        self.changed(seek_id)

    async def notified(self, subject: str) -> None:
        """Another process's notice ``<subject>:lobby:<origin>``
        (:class:`~keltis.server.notifier.Notifier` passes the subject): ``seeks``, the
        seeks changed, or ``<seek>/<match>``, a seek became a match."""
        seek_id, _, match_id = subject.partition("/")
        if match_id and seek_id_ok(seek_id):
            self.started(seek_id, match_id[:32])
        self.changed()

    async def run(self) -> None:
        """Tell the streams of changes: at once after :meth:`changed`, and whenever the
        fingerprint of the open seeks, compared every :attr:`interval` seconds, changed."""
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval)
                woke = True
            except TimeoutError:
                woke = False
            self._wake.clear()
            every, ids = self._all or not self._known, self._pending
            self._all, self._pending = False, set()
            if not self.listeners or self.closed or (woke and not every and not ids):
                continue
            try:
                async with self._lock:
                    if not woke:
                        fingerprint = await asyncio.to_thread(self.store.fingerprint)
                        if fingerprint == self._fingerprint:
                            continue
                        every = True
                    await self._refresh(every, ids)
            except Exception:
                self._known = False  # read them all next time
                log.exception("could not tell the lobby of its seeks")

    async def _refresh(self, every: bool, ids: set[str]) -> None:
        """Read the open seeks (``every``) or only the seeks ``ids`` (the caller holds the
        lock), and tell the streams what changed since they were last told. Seeks gone from
        the list that became matches are told as started (what another process started,
        on SQLite)."""
        fingerprint, seeks = await asyncio.to_thread(
            self.store.snapshot, None if every else sorted(ids)
        )
        shown = {
            s.id: ((s.created_at, s.id), json.dumps(s.to_json(), separators=(",", ":")))
            for s in seeks
            if s.status == "open" and not s.suspended and s.for_account is None
        }
        read_ids = {s.id for s in seeks}
        missing = [i for i in self._challenges if i not in read_ids and (every or i in ids)]
        if missing:  # challenges no longer open: read them, to tell how they ended
            seeks = seeks + (await asyncio.to_thread(self.store.snapshot, missing))[1]
        self._tell_challenges(every, ids, seeks)
        read = shown.keys() if every else ids
        gone = [i for i in (self._shown.keys() - shown.keys()) if every or i in ids]
        unknown = [i for i in gone if i not in self._told]
        started = {s.id: s.match_id for s in seeks if s.status == "started" and s.match_id}
        if every and unknown:
            started.update(await asyncio.to_thread(self.store.ended, unknown))
        for seek_id in unknown:
            match_id = started.get(seek_id)
            if match_id is not None:
                self.started(seek_id, match_id)
        self._fingerprint, self._known = fingerprint, True
        for seek_id in gone:
            del self._shown[seek_id]
            self._snapshot = None
            self._send(event("gone", {"id": seek_id}))
        for seek_id in read:
            now_shown = shown.get(seek_id)
            if now_shown is not None and self._shown.get(seek_id) != now_shown:
                self._shown[seek_id] = now_shown
                self._snapshot = None
                self._send(event_of("seek", now_shown[1]))

    def _tell_challenges(self, every: bool, ids: set[str], seeks: list[Seek]) -> None:
        """Tell each addressee's streams of the challenges to it that opened (``challenge``,
        the seek with ``status`` ``open``) or ended (the same with its status now:
        ``started``, ``cancelled``, ``declined``) since they were last told. Only the
        addressee's streams hear of a challenge: the public list never shows it."""
        read = {s.id: s for s in seeks if s.for_account is not None}
        now_open = {
            i: (str(s.for_account), s.account_id, json.dumps(s.to_json(), separators=(",", ":")))
            for i, s in read.items()
            if s.status == "open" and not s.suspended
        }
        for seek_id in list(self._challenges):
            if seek_id in now_open or not (every or seek_id in ids):
                continue
            addressee, _, _ = self._challenges.pop(seek_id)
            seek = read.get(seek_id)
            ended = {"id": seek_id, "status": "gone" if seek is None else seek.status}
            if seek is not None:
                ended = {**seek.to_json(), "status": seek.status}
            self._send_to(addressee, event("challenge", ended))
        for seek_id, told in now_open.items():
            if self._challenges.get(seek_id) != told:
                self._challenges[seek_id] = told
                self._send_to(told[0], event_of("challenge", told[2]))

    def _send_to(self, account_id: str, data: bytes) -> None:
        """``data`` to the streams of ``account_id`` only."""
        for queue, owner in list(self.owners.items()):
            if owner != account_id or queue not in self.listeners:
                continue
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:
                self.listeners.discard(queue)
                self.owners.pop(queue, None)
                _end(queue)

    def send(self, data: bytes) -> None:
        """An event of another part (``data``, as :func:`event` makes it) to every stream
        of this process: the quick-pairing pool's counts."""
        self._send(data)

    def _send(self, data: bytes) -> None:
        """``data`` to every stream; a stream whose queue is full (its client reads
        nothing) ends."""
        for queue in list(self.listeners):
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:
                self.listeners.discard(queue)
                _end(queue)


def _end(queue: Queue) -> None:
    """End the stream of ``queue``: what it holds is dropped, then its end."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(None)
