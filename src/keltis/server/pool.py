"""Quick pairing (docs/server.md, "Quick pairing"): "play a person now". A logged-in player
joins a pool — a game, a number of players, rated or casual, a time control — and the
server seats people waiting in the same pool together, closest ratings first, the rating
gap it accepts widening the longer they wait; a table starts as a normal match when it is
full (:func:`keltis.server.seeks.plan_seek`, :meth:`MatchMaster.create`: clocks, ratings
and fair-play rules as for any lobby match). Bots take empty seats only for people who
allowed it, once their chosen wait is over.

Three parts:

- :func:`tables`, the pairing itself: pure, its time (``at``) a parameter.
- :class:`PoolStore`, the ``pool_entries`` table: one entry per account (joining again
  replaces it, with a new ``entry_id``). A table's match is stored in the transaction that
  claims its entries (:meth:`PoolStore.claim`: their rows locked in one order, each updated
  only while still ``waiting`` under the same ``entry_id``): of two processes pairing the
  same pool at once, exactly one stores each table's match, and no account sits in two.
- :class:`Pool`, the rules and the background round (:meth:`Pool.run`, in every process,
  every ``--lobby-interval`` seconds and at once after a join here): entries whose client
  stopped asking (:data:`STALE_AFTER`) are dropped, the pools paired, and the lobby's
  streams told how many wait in each pool (the ``pool`` event). Who was paired into which
  match is never sent on the shared stream: each player learns it from ``GET /api/pool``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from pydantic import Field

from keltis.games import DEFAULT_GAME
from keltis.server import db
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError
from keltis.server.bodies import (
    MIN_BOTS_AFTER,
    GameName,
    RealtimeControl,
    TimeControl,
    _Strict,
)
from keltis.server.master import MatchMaster
from keltis.server.moderation import blocked_pairs
from keltis.server.seeks import LobbyEvents, Seek, SeekLimits, event, plan_seek
from keltis.server.store import ConflictError, Store, _aware, now

log = logging.getLogger("keltis.server")

#: The rating gap (shown points, :func:`keltis.server.ratings.shown`) an entry accepts at
#: once, and how much wider it grows every :data:`GAP_EVERY` seconds of waiting: ±100 at
#: once, ±150 after 10 s, ±200 after 20 s, ±400 after a minute.
GAP_START, GAP_STEP, GAP_EVERY = 100.0, 50.0, 10.0
#: Seconds after which an entry whose client stopped asking for it (``GET /api/pool``, the
#: waiting page asks every 2 s) is dropped: bots never start a match for someone who left.
STALE_AFTER = 30.0
#: Seconds between two writes of an entry's ``seen_at`` (asking more often writes nothing).
SEEN_EVERY = 5.0
#: Seconds after which a paired table's match that is stored but not running (its process
#: stopped between the two) is started by any process's round.
STALLED_AFTER = 30.0
#: The longest wait for bots a player may choose (seconds).
MAX_BOTS_WAIT = 3600
#: The time control of a pool when the player names none: the lobby form's default.
DEFAULT_TIME = {"kind": "realtime", "decision": 30, "bank": 300}


def new_entry_id() -> str:
    """A new pool entry's id (72 bits)."""
    return secrets.token_urlsafe(9)


class JoinPool(_Strict):
    """The pool to wait in: the game, how many players, rated or not, the time control,
    and whether bots may take the seats still empty after a wait. Every field has a
    default: the board game, two players, rated, 30 s a decision with a 5-minute bank,
    people only."""

    game: GameName = DEFAULT_GAME
    players: int = Field(2, ge=2, le=4, description="seats at the table, the player's included")
    rated: bool = Field(True, description="a rated match")
    time: TimeControl | None = Field(
        default_factory=lambda: RealtimeControl.model_validate(DEFAULT_TIME),
        description="the match's time control (default: 30 s a decision, a 300 s bank; "
        "null: the turn clock's default)",
    )
    bots_after: int | None = Field(
        None,
        ge=MIN_BOTS_AFTER,
        le=MAX_BOTS_WAIT,
        description="seconds after which bots may take the seats still empty and the match "
        "starts (null: people only)",
    )


def time_key(time: dict[str, Any] | None) -> str:
    """A time control as a pool's name holds it: ``rt30+300``, ``cd3`` or ``none``."""
    if time is None:
        return "none"
    if time["kind"] == "realtime":
        return f"rt{int(time['decision'])}+{int(time.get('bank', 0))}"
    return f"cd{int(time['days'])}"


def pool_key(game: str, players: int, rated: bool, time: dict[str, Any] | None) -> str:
    """The pool's name: entries pair only with entries of the same name."""
    return f"{game}/{players}/{'rated' if rated else 'casual'}/{time_key(time)}"


@dataclass(frozen=True)
class Entry:
    """One account waiting (or paired) in a pool."""

    account_id: str
    name: str
    entry_id: str
    pool: str
    game: str
    players: int
    rated: bool
    time: dict[str, Any] | None
    rating: float
    bots_after: int | None
    status: str
    match_id: str | None
    joined_at: datetime
    seen_at: datetime

    def waited(self, at: datetime) -> float:
        """Seconds this entry has waited at ``at``."""
        return max(0.0, (at - self.joined_at).total_seconds())

    def bots_ready(self, at: datetime) -> bool:
        """Whether bots may fill this entry's table at ``at``."""
        return self.bots_after is not None and self.waited(at) >= self.bots_after

    def to_json(self, at: datetime, waiting: int) -> dict[str, Any]:
        """The entry as its own player sees it (``waiting``: people waiting in its pool)."""
        return {
            "game": self.game,
            "players": self.players,
            "rated": self.rated,
            "time": self.time,
            "bots_after": self.bots_after,
            "status": self.status,
            "match": self.match_id,
            "joined": self.joined_at.isoformat(),
            "waited": round(self.waited(at), 1),
            "gap": gap(self.waited(at)),
            "waiting": waiting,
        }


def gap(waited: float) -> float:
    """The rating gap (shown points) an entry that has waited ``waited`` seconds accepts."""
    return GAP_START + GAP_STEP * int(max(0.0, waited) // GAP_EVERY)


@dataclass(frozen=True)
class Table:
    """A table the pairing found: its people (closest ratings first) and its bot seats."""

    people: tuple[Entry, ...]
    bots: int


def tables(entries: Sequence[Entry], at: datetime, blocked: set[frozenset[str]]) -> list[Table]:
    """The tables to start now among ``entries`` (one pool's waiting entries, all of one
    table size) at time ``at``, ``blocked`` the pairs of accounts between which a block
    stands.

    People first: of all the full tables possible — each member within the gap of every
    member (the spread of their ratings at most the smallest :func:`gap` among them), no
    block between two of them — the one with the smallest spread is taken (a tie: whoever
    waited longest), and again with the entries left. Then bots: an entry whose chosen wait
    for bots is over seeds a table (the longest waiting first), joined by the closest of the
    other such entries as above, and bots take the seats left."""
    if not entries:
        return []
    size = entries[0].players
    left = sorted(entries, key=lambda e: (e.rating, e.joined_at, e.account_id))
    found: list[Table] = []
    while len(left) >= size:
        best: tuple[tuple[float, datetime, str], list[Entry]] | None = None
        for index, seed in enumerate(left):
            table = _grow(left, index, size, at, blocked)
            if len(table) < size:
                continue
            key = (_spread(table), min(e.joined_at for e in table), seed.account_id)
            if best is None or key < best[0]:
                best = (key, table)
        if best is None:
            break
        chosen = {e.account_id for e in best[1]}
        found.append(Table(tuple(best[1]), 0))
        left = [e for e in left if e.account_id not in chosen]
    ready = [e for e in left if e.bots_ready(at)]
    while ready:
        seed = min(ready, key=lambda e: (e.joined_at, e.account_id))
        table = _grow(ready, ready.index(seed), size, at, blocked)
        chosen = {e.account_id for e in table}
        found.append(Table(tuple(table), size - len(table)))
        ready = [e for e in ready if e.account_id not in chosen]
    return found


def _spread(table: Iterable[Entry]) -> float:
    ratings = [e.rating for e in table]
    return max(ratings) - min(ratings)


def _grow(
    ordered: list[Entry], index: int, size: int, at: datetime, blocked: set[frozenset[str]]
) -> list[Entry]:
    """A table around ``ordered[index]`` (``ordered`` by rating): the nearest ratings on
    either side that keep every member within every member's gap and no block between two
    of them, until it has ``size`` people (fewer if there are not that many)."""
    seed = ordered[index]
    table = [seed]
    reach = gap(seed.waited(at))
    below, above = index - 1, index + 1
    while len(table) < size:
        candidates = []
        if below >= 0:
            candidates.append((seed.rating - ordered[below].rating, below))
        if above < len(ordered):
            candidates.append((ordered[above].rating - seed.rating, above))
        if not candidates:
            break
        distance, at_index = min(candidates)
        if distance > reach:
            break  # every entry further away is beyond the seed's own gap
        if at_index == below:
            below -= 1
        else:
            above += 1
        other = ordered[at_index]
        if any(frozenset((other.account_id, m.account_id)) in blocked for m in table):
            continue
        members = [*table, other]
        if _spread(members) <= min(gap(m.waited(at)) for m in members):
            table.append(other)
    return table


# -- the table ----------------------------------------------------------------------------


class PoolStore:
    """The pool's entries in the server's database (every call one short transaction, in
    a worker thread)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def join(self, account: Account, body: JoinPool, rating: float, at: datetime) -> None:
        """Store ``account``'s entry in the pool ``body`` names, replacing any entry it had
        (waiting or paired: a paired entry's match goes on)."""
        time = None if body.time is None else body.time.model_dump()
        row = {
            "account_id": account.id,
            "entry_id": new_entry_id(),
            "pool": pool_key(body.game, body.players, body.rated, time),
            "game": body.game,
            "players": body.players,
            "rated": body.rated,
            "options": {"time": time},
            "rating": rating,
            "bots_after": body.bots_after,
            "status": "waiting",
            "match_id": None,
            "joined_at": at,
            "seen_at": at,
        }
        with self.engine.begin() as connection:
            # the account's row locked (PostgreSQL; on SQLite the delete takes the write
            # lock): two joins of one account at once replace one after the other, instead
            # of both inserting its entry
            connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.id == account.id).with_for_update()
            )
            connection.execute(
                db.pool_entries.delete().where(db.pool_entries.c.account_id == account.id)
            )
            connection.execute(db.pool_entries.insert().values(**row))

    def leave(self, account_id: str) -> bool:
        """Drop ``account_id``'s entry; whether it had one."""
        with self.engine.begin() as connection:
            gone = connection.execute(
                db.pool_entries.delete().where(db.pool_entries.c.account_id == account_id)
            )
        return gone.rowcount > 0

    def seen(self, account_id: str, at: datetime) -> tuple[Entry | None, int]:
        """``account_id``'s entry, its ``seen_at`` moved to ``at`` (written at most every
        :data:`SEEN_EVERY` seconds: the waiting page asks every 2 s, and on SQLite every
        write takes the database's one write lock), and how many wait in its pool."""
        with self.engine.connect() as connection:
            found = _read(connection, db.pool_entries.c.account_id == account_id)
            if not found:
                return None, 0
            waiting = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.pool_entries)
                .where(
                    db.pool_entries.c.pool == found[0].pool,
                    db.pool_entries.c.status == "waiting",
                )
            ).scalar_one()
        if found[0].seen_at < at - timedelta(seconds=SEEN_EVERY):
            with self.engine.begin() as connection:
                connection.execute(
                    db.pool_entries.update()
                    .where(
                        db.pool_entries.c.account_id == account_id,
                        db.pool_entries.c.entry_id == found[0].entry_id,
                    )
                    .values(seen_at=at)
                )
        return found[0], int(waiting)

    def drop_stale(self, before: datetime) -> int:
        """Drop the entries not seen since ``before``; how many. Looked for first, so that a
        round with nothing to drop writes nothing (on SQLite a write takes the database's
        one write lock)."""
        stale = db.pool_entries.c.seen_at < before
        first = sa.select(db.pool_entries.c.account_id).where(stale).limit(1)
        with self.engine.connect() as connection:
            if connection.execute(first).first() is None:
                return 0
        with self.engine.begin() as connection:
            gone = connection.execute(db.pool_entries.delete().where(stale))
        return int(gone.rowcount)

    def waiting(self) -> tuple[list[Entry], set[frozenset[str]]]:
        """The waiting entries (not those of suspended accounts) and the pairs among their
        accounts between which a block stands, in one connection."""
        with self.engine.connect() as connection:
            entries = _read(
                connection,
                sa.and_(
                    db.pool_entries.c.status == "waiting", db.accounts.c.suspended_at.is_(None)
                ),
            )
            ids = [e.account_id for e in entries]
            pairs = blocked_pairs(connection, ids, ids) if len(ids) > 1 else set()
        return entries, {frozenset(pair) for pair in pairs}

    def claim(self, connection: sa.Connection, match_id: str, people: Sequence[Entry]) -> None:
        """In the transaction that stores match ``match_id``: the entries ``people`` become
        paired into it — each only if it is still waiting under the same ``entry_id``, else
        :class:`ConflictError` and nothing is stored (another process paired it, or its
        player left or joined again). The rows are locked in the order of their accounts
        (PostgreSQL), so two processes claiming overlapping tables wait for each other
        instead of deadlocking."""
        entry_ids = sorted(e.entry_id for e in people)
        connection.execute(
            sa.select(db.pool_entries.c.account_id)
            .where(db.pool_entries.c.entry_id.in_(entry_ids))
            .order_by(db.pool_entries.c.account_id)
            .with_for_update()
        ).all()
        claimed = connection.execute(
            db.pool_entries.update()
            .where(
                db.pool_entries.c.entry_id.in_(entry_ids),
                db.pool_entries.c.status == "waiting",
            )
            .values(status="paired", match_id=match_id)
        )
        if claimed.rowcount != len(entry_ids):
            raise ConflictError("an entry of this table is no longer waiting")

    def stalled(self, before: datetime) -> list[str]:
        """The matches of paired entries created before ``before`` that are still not
        running: their process stopped between storing and starting them."""
        query = (
            sa.select(db.matches.c.id)
            .distinct()
            .join(db.pool_entries, db.pool_entries.c.match_id == db.matches.c.id)
            .where(
                db.pool_entries.c.status == "paired",
                db.matches.c.status == "open",
                db.matches.c.created_at <= before,
            )
        )
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]


def _read(connection: sa.Connection, condition: sa.ColumnElement[bool]) -> list[Entry]:
    """The entries matching ``condition`` (on ``pool_entries`` and ``accounts``), with
    their accounts' names."""
    p = db.pool_entries.c
    rows = connection.execute(
        sa.select(db.pool_entries, db.accounts.c.name)
        .join(db.accounts, db.accounts.c.id == p.account_id)
        .where(condition)
        .order_by(p.joined_at, p.account_id)
    ).all()
    entries = []
    for r in rows:
        joined, seen = _aware(r.joined_at), _aware(r.seen_at)
        assert joined is not None
        assert seen is not None
        options = dict(r.options or {})
        entries.append(
            Entry(
                account_id=str(r.account_id),
                name=str(r.name),
                entry_id=str(r.entry_id),
                pool=str(r.pool),
                game=str(r.game),
                players=int(r.players),
                rated=bool(r.rated),
                time=options.get("time"),
                rating=float(r.rating),
                bots_after=None if r.bots_after is None else int(r.bots_after),
                status=str(r.status),
                match_id=None if r.match_id is None else str(r.match_id),
                joined_at=joined,
                seen_at=seen,
            )
        )
    return entries


def counts(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """How many wait in each pool (pools with nobody waiting left out), by pool name."""
    pools: dict[str, tuple[Entry, int]] = {}
    for entry in entries:
        first, count = pools.get(entry.pool, (entry, 0))
        pools[entry.pool] = (first, count + 1)
    return [
        {
            "game": e.game,
            "players": e.players,
            "rated": e.rated,
            "time": e.time,
            "waiting": count,
        }
        for _, (e, count) in sorted(pools.items())
    ]


# -- the rules ----------------------------------------------------------------------------


class Pool:
    """The quick-pairing pool of one server process: joins, leaves, what a player's entry
    is, and the pairing round (:meth:`run`). ``clock`` gives the time (tests drive it)."""

    def __init__(
        self,
        master: MatchMaster,
        store: PoolStore,
        events: LobbyEvents,
        interval: float,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.master = master
        self.store = store
        self.events = events
        self.interval = interval
        self.clock = clock
        self.limits = SeekLimits(master.config.seek_rate)
        self._wake = asyncio.Event()
        self._counts: bytes | None = None
        events.greetings.append(self.greeting)

    async def join(self, account: Account, body: JoinPool) -> dict[str, Any]:
        """``account`` waits in the pool ``body`` names (replacing any entry it had); its
        entry as :meth:`mine` shows it. Pairing is tried at once."""
        rating = await asyncio.to_thread(self.master.ratings.rating, account.player, body.game)
        await asyncio.to_thread(self.store.join, account, body, float(rating.value), self.clock())
        self._wake.set()
        found = await self.mine(account)
        if found is None:  # left at once from another tab (or a round dropped it)
            raise RefusedError("pool.not_in", status=409)
        return found

    async def mine(self, account: Account) -> dict[str, Any] | None:
        """``account``'s entry (``None``: none), which this keeps alive."""
        at = self.clock()
        entry, waiting = await asyncio.to_thread(self.store.seen, account.id, at)
        return None if entry is None else entry.to_json(at, waiting)

    async def leave(self, account: Account) -> bool:
        """``account`` leaves the pool (a match it was paired into goes on)."""
        left = await asyncio.to_thread(self.store.leave, account.id)
        if left:
            self._wake.set()
        return left

    def greeting(self) -> bytes | None:
        """The ``pool`` event a new lobby stream gets (after the first round)."""
        return self._counts

    async def run(self) -> None:
        """A round now, then every :attr:`interval` seconds and at once after a join or a
        leave here; a failed round is logged and the next comes as usual."""
        while True:
            try:
                await self.round()
            except Exception:
                log.exception("could not pair the pool")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()

    async def round(self) -> int:
        """Drop the stale entries, start the stalled tables, pair every pool and tell the
        lobby's streams the counts if they changed; how many tables started here."""
        at = self.clock()
        await asyncio.to_thread(self.store.drop_stale, at - timedelta(seconds=STALE_AFTER))
        for match_id in await asyncio.to_thread(
            self.store.stalled, at - timedelta(seconds=STALLED_AFTER)
        ):
            try:
                live = await self.master.get(match_id)
                if live.row.status == "open":
                    await self.master._start(live)  # conditional: of two processes, one
            except Exception:
                log.exception("could not start match %s of the pool", match_id)
        entries, blocked = await asyncio.to_thread(self.store.waiting)
        pools: dict[str, list[Entry]] = {}
        for entry in entries:
            pools.setdefault(entry.pool, []).append(entry)
        started: set[str] = set()
        for group in pools.values():
            for table in tables(group, at, blocked):
                try:
                    await self._start(table)
                except ConflictError:
                    continue  # another process paired them, or one left: the next round sees
                except Exception:
                    log.exception("could not start a table of the pool")
                    continue
                started.update(e.account_id for e in table.people)
        self._tell([e for e in entries if e.account_id not in started])
        return len(started)

    def _tell(self, waiting: list[Entry]) -> None:
        """Send the ``pool`` event (how many wait in each pool) if it changed."""
        data = event("pool", {"pools": counts(waiting)})
        if data != self._counts:
            self._counts = data
            self.events.send(data)

    async def _start(self, table: Table) -> None:
        """Create the match of ``table`` — its people and bots in the seats left — claiming
        its entries in the same transaction (:meth:`PoolStore.claim`)."""
        first = table.people[0]
        seek = Seek(
            id="",
            account_id=first.account_id,
            game=first.game,
            players=first.players,
            rated=first.rated,
            options={"time": first.time},
            rating_min=None,
            rating_max=None,
            bots_after=None,
            status="open",
            match_id=None,
            created_at=first.joined_at,
            updated_at=first.joined_at,
            seated=tuple((e.account_id, e.name) for e in table.people),
        )
        plan = plan_seek(seek, list(seek.seated), self.master.config.stand_in_level)

        def claim(connection: sa.Connection, match_id: str) -> None:
            self.store.claim(connection, match_id, table.people)

        created = await self.master.create(plan, within=claim)
        log.info(
            "pool %s: match %s for %d people and %d bots",
            first.pool,
            created.live.id,
            len(table.people),
            table.bots,
        )
