"""Swiss tournaments for people (docs/server.md, "Tournaments").

Any account creates one: its name, game, players per table (2, or 3-4), time control,
rounds, start time, rated or not, most players. Accounts join and withdraw before and
during it. At the start time the first round is paired and its matches start by
themselves; when every table of a round has its points (its match ended, or the round's
time ran out), the next round is paired, until the last.

Three parts:

- The pairing and the standings, pure functions (:func:`pair`, :func:`standings`,
  :func:`table_points`): the unit tests' subject.
- :class:`TournamentStore`, the ``tournaments``, ``tournament_players`` and
  ``tournament_tables`` tables: one short transaction per call. A round is claimed by the
  conditional update of its tournament's ``round`` (``round = r - 1`` → ``r``), its tables
  paired and stored in that same transaction: of two processes, one starts it. Each
  table's match is created claiming the table (``match_id`` still empty) in the
  transaction that stores the match, as the lobby's seeks are.
- :class:`Tournaments`, the service: the routes' rules, and :meth:`Tournaments.tick`, run
  every few seconds by every process: start rounds that are due, create the matches not
  yet created (a process that stopped in between), score the tables whose match ended,
  and tell the lobby's streams what changed (``tournaments``, ``tournament``). All the
  state is in the database: a restart, between rounds or during one, goes on from there.

No Swiss pairing library is used: the ones on PyPI (``pairing-core``, FIDE's Dutch system
with colours; ``swisspair``, for Magic: The Gathering) pair two players only, weigh
colours that Keltis has not, and are young one-person projects; Keltis also needs tables
of 3-4 grouped by score. The pairing here is small and tested instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import AwareDatetime, Field

from keltis.games import DEFAULT_GAME
from keltis.names import DELETED_NAME
from keltis.server import db
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError
from keltis.server.bodies import CreateMatch, GameName, TimeControl, _Strict
from keltis.server.lobby import MatchPlan, SeatPlan, plan_match
from keltis.server.master import MatchMaster
from keltis.server.ratelimit import Buckets
from keltis.server.ratings import _ratings, ranks
from keltis.server.store import ConflictError, _aware, now

log = logging.getLogger("keltis.server")

#: Rounds a tournament may have.
MIN_ROUNDS, MAX_ROUNDS = 1, 15
#: Days ahead a tournament may start, at most.
MAX_DAYS_AHEAD = 30
#: The players a tournament may take, at most (and its default).
MAX_PLAYERS, DEFAULT_MAX_PLAYERS = 100, 32
#: A round's time limit (minutes): bounds and defaults, live and by correspondence.
MIN_ROUND_MINUTES, MAX_ROUND_MINUTES = 10, 30 * 24 * 60
DEFAULT_ROUND_MINUTES, DEFAULT_CORRESPONDENCE_MINUTES = 60, 14 * 24 * 60
#: A tournament's name: its characters (besides letters and digits) and its length.
NAME_MARKS = frozenset(" -_.,'!()&+:#")
MIN_NAME, MAX_NAME = 3, 48
#: Tournaments not yet finished that one account may have created, and tournaments it
#: may create in a day.
MAX_OPEN, MAX_PER_DAY = 2, 5
#: Joins and withdrawals an account may make a minute (and at once).
CHANGES_PER_MINUTE, CHANGES_AT_ONCE = 10.0, 5
#: Tournaments a page of ``GET /api/tournaments`` holds, at most.
PAGE = 50
#: Seconds after which a table's match that is stored but not started (its process stopped
#: in between) is started by any process.
STALLED_AFTER = 30.0
#: Pairings tried before a rule is relaxed (the search is bounded).
SEARCH_STEPS = 20_000
#: Finished tournaments whose changes the streams are told of, for this long.
RECENT = timedelta(minutes=10)

STATUSES = ("upcoming", "running", "finished")


def new_tournament_id() -> str:
    """A new tournament's id (72 bits): public, in addresses."""
    return secrets.token_urlsafe(9)


def tournament_id_ok(tournament_id: str) -> bool:
    """Whether ``tournament_id`` could be one the server made."""
    return 0 < len(tournament_id) <= 16 and all(c.isalnum() or c in "-_" for c in tournament_id)


def name_ok(name: str) -> bool:
    """Whether ``name`` may name a tournament: :data:`MIN_NAME` to :data:`MAX_NAME`
    characters, letters and digits of any script and the marks :data:`NAME_MARKS`, neither
    beginning nor ending with a space, no two spaces in a row."""
    return (
        MIN_NAME <= len(name) <= MAX_NAME
        and name == name.strip()
        and "  " not in name
        and all(
            c in NAME_MARKS or (c.isalnum() and unicodedata.category(c)[0] in "LN") for c in name
        )
    )


class CreateTournament(_Strict):
    """A new tournament."""

    name: str = Field(description=f"{MIN_NAME}-{MAX_NAME} letters, digits, spaces and marks")
    game: GameName = DEFAULT_GAME
    players: Literal[2, 3, 4] = Field(2, description="players per table: 2, or 3-4")
    time: TimeControl | None = Field(None, description="the matches' time control")
    rounds: int = Field(ge=MIN_ROUNDS, le=MAX_ROUNDS)
    starts_at: AwareDatetime = Field(
        strict=False, description=f"in the future, at most {MAX_DAYS_AHEAD} days"
    )
    rated: bool = False
    max_players: int = Field(DEFAULT_MAX_PLAYERS, ge=2, le=MAX_PLAYERS)
    round_minutes: int | None = Field(
        None,
        ge=MIN_ROUND_MINUTES,
        le=MAX_ROUND_MINUTES,
        description="a round's time limit: its unfinished matches then count as draws "
        f"(default {DEFAULT_ROUND_MINUTES}; by correspondence "
        f"{DEFAULT_CORRESPONDENCE_MINUTES // 1440} days)",
    )


# -- pairing and standings ------------------------------------------------------------------


def pair_key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


@dataclass(frozen=True)
class Entrant:
    """A player to pair: the account, its points so far, its shown rating, its byes."""

    id: str
    points: float
    rating: float
    byes: int = 0


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """The pairing's order: points, then rating (highest first), then the account id (so
    that the order is always the same)."""
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.id))


def pair(
    entrants: Sequence[Entrant],
    size: int,
    met: set[frozenset[str]],
    blocked: set[frozenset[str]],
) -> tuple[list[list[str]], str | None]:
    """A round's tables (account ids, the best-placed table first) and who has the bye
    (2 players per table, an odd count: ``None`` otherwise). ``met``: the pairs that sat at
    one table before; ``blocked``: the pairs where one blocked the other."""
    order = [e.id for e in ranked(entrants)]
    if size == 2:
        return _pair_two(ranked(entrants), met, blocked)
    return _tables(order, size, met, blocked), None


def _pair_two(
    order: list[Entrant], met: set[frozenset[str]], blocked: set[frozenset[str]]
) -> tuple[list[list[str]], str | None]:
    """Two players per table: an odd count gives the bye to the lowest-ranked player who
    has had none (everyone has: the lowest-ranked); then, from the top, each player meets
    the next one it has not met and has no block with, searching back when the rest cannot
    be paired so. Where no such pairing exists, repeats are allowed, then blocks."""
    bye = None
    ids = [e.id for e in order]
    if len(ids) % 2:
        free = [e.id for e in order if e.byes == 0]
        bye = free[-1] if free else ids[-1]
        ids.remove(bye)
    for avoid in (met | blocked, blocked, set()):
        steps = [SEARCH_STEPS]
        found = _match(ids, avoid, steps)
        if found is not None:
            return found, bye
    raise AssertionError("an even count always pairs without rules")  # pragma: no cover


def _match(ids: list[str], avoid: set[frozenset[str]], steps: list[int]) -> list[list[str]] | None:
    if not ids:
        return []
    first, rest = ids[0], ids[1:]
    for number, other in enumerate(rest):
        steps[0] -= 1
        if steps[0] < 0:
            return None
        if pair_key(first, other) in avoid:
            continue
        found = _match(rest[:number] + rest[number + 1 :], avoid, steps)
        if found is not None:
            return [[first, other], *found]
    return None


def table_sizes(count: int, size: int) -> list[int]:
    """Tables of 3-4: as few as hold ``count`` players, their sizes as equal as can be
    (the bigger first): 5 players at tables of 4 sit at 3 + 2, 6 at 3 + 3, 9 at 3 + 3 + 3;
    nobody has a bye."""
    if count < 2:
        return []
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _tables(
    order: list[str], size: int, met: set[frozenset[str]], blocked: set[frozenset[str]]
) -> list[list[str]]:
    """Tables of 3-4 grouped by score: the best-placed player left opens each table, and
    each place goes to the best-placed player left who met nobody at it before and has no
    block with anybody there (else the one with the fewest such: blocks weigh more)."""
    left = list(order)
    tables = []
    for seats in table_sizes(len(order), size):
        table = [left.pop(0)]
        while len(table) < seats:
            best, cost = 0, None
            for number, candidate in enumerate(left):
                here = sum(
                    (100 if pair_key(candidate, p) in blocked else 0)
                    + (1 if pair_key(candidate, p) in met else 0)
                    for p in table
                )
                if cost is None or here < cost:
                    best, cost = number, here
                if here == 0:
                    break
            table.append(left.pop(best))
        tables.append(table)
    return tables


def table_points(places: Sequence[int]) -> list[float]:
    """Each seat's points from its place (1 best; ties share): one point for each player
    placed below it and half for each placed equal, over the others: 2 players, a win 1
    and a draw ½; 4 players, 1, ⅔, ⅓ and 0."""
    others = len(places) - 1
    return [
        round(
            sum(1.0 if other > mine else 0.5 if other == mine else 0.0 for other in places) / others
            - 0.5 / others,  # the loop counted the seat itself as an equal
            4,
        )
        for mine in places
    ]


@dataclass
class Standing:
    """One player's place in the standings."""

    id: str
    name: str
    rating: float
    withdrawn: bool
    points: float = 0.0
    buchholz: float = 0.0
    berger: float = 0.0
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)

    def to_json(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "name": self.name,
            "rating": self.rating,
            "withdrawn": self.withdrawn,
            "points": self.points,
            "buchholz": round(self.buchholz, 2),
            "berger": round(self.berger, 2),
        }


@dataclass(frozen=True)
class Table:
    """One table of a round: its players (one: a bye), its match, each player's points
    once it ended (``None`` until then)."""

    round: int
    number: int
    seats: tuple[str, ...]
    match_id: str | None
    points: dict[str, float] | None
    created_at: datetime


def standings(
    players: Sequence[tuple[str, str, float, bool]], tables: Sequence[Table]
) -> list[Standing]:
    """The standings (best first) of ``players`` (account id, name, shown rating,
    withdrawn) after the ended ``tables``: points; then Buchholz (the sum, over a player's
    tables, of the mean points of the others at the table — a bye adds nothing); then
    Sonneborn-Berger (the same sum, each table's mean weighed by the player's points
    there); then the rating; then the name."""
    rows = {p[0]: Standing(p[0], p[1], p[2], p[3]) for p in players}
    scored = [t for t in tables if t.points is not None]
    for table in scored:
        assert table.points is not None
        for account_id in table.seats:
            if account_id in rows:
                rows[account_id].points += table.points.get(account_id, 0.0)
    for table in scored:
        assert table.points is not None
        for account_id in table.seats:
            row = rows.get(account_id)
            if row is None:
                continue
            others = [o for o in table.seats if o != account_id]
            mine = table.points.get(account_id, 0.0)
            row.rounds[table.round] = {
                "table": table.number,
                "match": table.match_id,
                "points": mine,
                "against": [rows[o].name for o in others if o in rows],
            }
            if not others:
                continue
            mean = sum(rows[o].points for o in others if o in rows) / len(others)
            row.buchholz += mean
            row.berger += mine * mean
    return sorted(
        rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.berger, -r.rating, r.name)
    )


def due_points(
    tables: Sequence[Table],
    finished: dict[str, list[int]],
    round_over: bool,
) -> dict[int, dict[str, float]]:
    """The tables of a round to score now, by number: those whose match ended
    (``finished``: its seats' places, by match id) and, once the round's time limit passed
    (``round_over``), those still playing, as a draw between all their players (every
    place equal). A table scored once keeps its points."""
    due = {}
    for table in tables:
        if table.points is not None or table.match_id is None:
            continue
        places = finished.get(table.match_id)
        if places is None and round_over:
            places = [1] * len(table.seats)
        if places is not None:
            due[table.number] = dict(zip(table.seats, table_points(places), strict=True))
    return due


# -- the tables -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: str
    name: str
    account_id: str
    creator: str
    game: str
    players: int
    rated: bool
    options: dict[str, Any]
    rounds: int
    round_minutes: int
    max_players: int
    starts_at: datetime
    status: str
    round: int
    round_ends_at: datetime | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    entrants: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "by": self.creator,
            "game": self.game,
            "per_table": self.players,
            "rated": self.rated,
            "time": self.options.get("time"),
            "round_count": self.rounds,
            "round_minutes": self.round_minutes,
            "max_players": self.max_players,
            "starts_at": self.starts_at.isoformat(),
            "status": self.status,
            "round": self.round,
            "round_ends_at": None if self.round_ends_at is None else self.round_ends_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "entrants": self.entrants,
        }


def _row(mapping: Any, entrants: int = 0) -> TournamentRow:
    starts, created, updated = (
        _aware(mapping["starts_at"]),
        _aware(mapping["created_at"]),
        _aware(mapping["updated_at"]),
    )
    assert starts is not None
    assert created is not None
    assert updated is not None
    return TournamentRow(
        id=str(mapping["id"]),
        name=str(mapping["name"]),
        account_id=str(mapping["account_id"]),
        creator=str(mapping["creator"] or DELETED_NAME),  # its creator deleted the account
        game=str(mapping["game"]),
        players=int(mapping["players"]),
        rated=bool(mapping["rated"]),
        options=dict(mapping["options"] or {}),
        rounds=int(mapping["rounds"]),
        round_minutes=int(mapping["round_minutes"]),
        max_players=int(mapping["max_players"]),
        starts_at=starts,
        status=str(mapping["status"]),
        round=int(mapping["round"]),
        round_ends_at=_aware(mapping["round_ends_at"]),
        created_at=created,
        updated_at=updated,
        finished_at=_aware(mapping["finished_at"]),
        entrants=entrants,
    )


def _table(mapping: Any) -> Table:
    created = _aware(mapping["created_at"])
    assert created is not None
    points = mapping["points"]
    return Table(
        round=int(mapping["round"]),
        number=int(mapping["number"]),
        seats=tuple(mapping["seats"]),
        match_id=None if mapping["match_id"] is None else str(mapping["match_id"]),
        points=None if points is None else {str(k): float(v) for k, v in points.items()},
        created_at=created,
    )


@dataclass(frozen=True)
class Player:
    """An account in a tournament."""

    account_id: str
    name: str
    joined_at: datetime
    withdrawn_at: datetime | None


@dataclass(frozen=True)
class Full:
    """A tournament with its players and all its tables."""

    row: TournamentRow
    players: list[Player]
    tables: list[Table]


class TournamentStore:
    """The tournaments in the server's database (every call one short transaction, in a
    worker thread)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    # -- reading ---------------------------------------------------------------------------

    @staticmethod
    def _select() -> sa.Select[Any]:
        t = db.tournaments
        entrants = (
            sa.select(sa.func.count())
            .select_from(db.tournament_players)
            .where(
                db.tournament_players.c.tournament_id == t.c.id,
                db.tournament_players.c.withdrawn_at.is_(None),
            )
            .scalar_subquery()
        )
        return sa.select(
            t, db.accounts.c.name.label("creator"), entrants.label("entrants")
        ).select_from(t.outerjoin(db.accounts, db.accounts.c.id == t.c.account_id))

    def listing(self, status: str, offset: int, limit: int) -> tuple[list[TournamentRow], int]:
        """The tournaments of ``status``: upcoming and running by start (soonest first),
        finished by end (latest first); one page, and how many there are."""
        t = db.tournaments
        order = (
            [t.c.finished_at.desc(), t.c.id] if status == "finished" else [t.c.starts_at, t.c.id]
        )
        query = self._select().where(t.c.status == status).order_by(*order)
        with self.engine.connect() as connection:
            rows = connection.execute(query.offset(offset).limit(limit)).all()
            total = connection.execute(
                sa.select(sa.func.count()).select_from(t).where(t.c.status == status)
            ).scalar_one()
        return [_row(r._mapping, int(r.entrants)) for r in rows], int(total)

    def get(self, tournament_id: str) -> Full | None:
        """The tournament ``tournament_id`` with its players and tables, or ``None``."""
        p, tt = db.tournament_players, db.tournament_tables
        with self.engine.connect() as connection:
            found = connection.execute(
                self._select().where(db.tournaments.c.id == tournament_id)
            ).first()
            if found is None:
                return None
            players = connection.execute(
                sa.select(p).where(p.c.tournament_id == tournament_id).order_by(p.c.joined_at)
            ).all()
            tables = connection.execute(
                sa.select(tt)
                .where(tt.c.tournament_id == tournament_id)
                .order_by(tt.c.round, tt.c.number)
            ).all()
        return Full(
            _row(found._mapping, int(found.entrants)),
            [
                Player(
                    str(r.account_id),
                    str(r.name),
                    _aware(r.joined_at) or now(),
                    _aware(r.withdrawn_at),
                )
                for r in players
            ],
            [_table(r._mapping) for r in tables],
        )

    def active(self) -> list[tuple[str, str, int, datetime]]:
        """The tournaments not finished, and those finished a little while ago: id, status,
        round and the latest change (what the streams are told of when it changes)."""
        t = db.tournaments
        query = sa.select(t.c.id, t.c.status, t.c.round, t.c.updated_at).where(
            sa.or_(t.c.status != "finished", t.c.updated_at >= now() - RECENT)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            (str(r.id), str(r.status), int(r.round), _aware(r.updated_at) or now()) for r in rows
        ]

    def ratings(self, game: str, account_ids: Sequence[str]) -> dict[str, float]:
        """The shown ratings of ``account_ids`` in ``game`` (a new player's where none)."""
        with self.engine.connect() as connection:
            found = _ratings(connection, [f"account:{a}" for a in account_ids], game)
        return {a: found[f"account:{a}"].value for a in account_ids}

    def finished_places(self, match_ids: Sequence[str]) -> list[str]:
        """Of ``match_ids``, those finished."""
        if not match_ids:
            return []
        m = db.matches
        query = sa.select(m.c.id).where(m.c.id.in_(list(match_ids)), m.c.status == "finished")
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]

    def stalled(self, match_ids: Sequence[str], before: datetime) -> list[str]:
        """Of ``match_ids``, those stored before ``before`` and still not started."""
        if not match_ids:
            return []
        m = db.matches
        query = sa.select(m.c.id).where(
            m.c.id.in_(list(match_ids)), m.c.status == "open", m.c.created_at <= before
        )
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]

    # -- changing --------------------------------------------------------------------------

    def create(self, account: Account, body: CreateTournament, round_minutes: int) -> str:
        """Store a new tournament of ``account`` (who does not join it by creating it); its
        id. Refused if the account created :data:`MAX_PER_DAY` in the last day or has
        :data:`MAX_OPEN` not yet finished."""
        tournament_id, when = new_tournament_id(), now()
        t = db.tournaments
        with self.engine.begin() as connection:
            # the account's row locked (PostgreSQL; SQLite's insert takes the write lock
            # before the counts): two created at once are counted one after the other
            connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.id == account.id).with_for_update()
            )
            connection.execute(
                t.insert().values(
                    id=tournament_id,
                    name=body.name,
                    account_id=account.id,
                    game=body.game,
                    players=body.players,
                    rated=body.rated,
                    options={"time": None if body.time is None else body.time.model_dump()},
                    rounds=body.rounds,
                    round_minutes=round_minutes,
                    max_players=body.max_players,
                    starts_at=body.starts_at,
                    status="upcoming",
                    round=0,
                    round_ends_at=None,
                    created_at=when,
                    updated_at=when,
                    finished_at=None,
                )
            )
            mine = sa.select(sa.func.count()).select_from(t).where(t.c.account_id == account.id)
            today = connection.execute(
                mine.where(t.c.created_at > when - timedelta(days=1))
            ).scalar_one()
            if today > MAX_PER_DAY:
                raise RefusedError("tournament.per_day", status=429, limit=MAX_PER_DAY)
            held = connection.execute(mine.where(t.c.status != "finished")).scalar_one()
            if held > MAX_OPEN:
                raise RefusedError("tournament.too_many", limit=MAX_OPEN)
        return tournament_id

    def _lock(self, connection: sa.Connection, tournament_id: str) -> str:
        """Lock the tournament's row (an update of its latest change) if it is not
        finished; its status (``tournament.finished`` refused otherwise)."""
        t = db.tournaments
        locked = connection.execute(
            t.update()
            .where(t.c.id == tournament_id, t.c.status != "finished")
            .values(updated_at=now())
        )
        if locked.rowcount != 1:
            raise RefusedError("tournament.finished")
        return str(
            connection.execute(sa.select(t.c.status).where(t.c.id == tournament_id)).scalar_one()
        )

    def join(self, tournament_id: str, account: Account) -> None:
        """``account`` joins (again, after withdrawing); refused when full or in already."""
        p = db.tournament_players
        mine = sa.and_(p.c.tournament_id == tournament_id, p.c.account_id == account.id)
        with self.engine.begin() as connection:
            self._lock(connection, tournament_id)
            found = connection.execute(sa.select(p.c.withdrawn_at).where(mine)).first()
            if found is not None and found.withdrawn_at is None:
                raise RefusedError("tournament.joined")
            count = connection.execute(
                sa.select(sa.func.count())
                .select_from(p)
                .where(p.c.tournament_id == tournament_id, p.c.withdrawn_at.is_(None))
            ).scalar_one()
            limit = connection.execute(
                sa.select(db.tournaments.c.max_players).where(db.tournaments.c.id == tournament_id)
            ).scalar_one()
            if count >= limit:
                raise RefusedError("tournament.full", limit=limit)
            if found is not None:
                connection.execute(p.update().where(mine).values(withdrawn_at=None))
            else:
                connection.execute(
                    p.insert().values(
                        tournament_id=tournament_id,
                        account_id=account.id,
                        name=account.name,
                        joined_at=now(),
                        withdrawn_at=None,
                    )
                )

    def withdraw(self, tournament_id: str, account_id: str) -> None:
        """``account_id`` withdraws: before the start it leaves the list; during the
        tournament it is paired no more (its results stay)."""
        p = db.tournament_players
        mine = sa.and_(
            p.c.tournament_id == tournament_id,
            p.c.account_id == account_id,
            p.c.withdrawn_at.is_(None),
        )
        with self.engine.begin() as connection:
            status = self._lock(connection, tournament_id)
            if status == "upcoming":
                done = connection.execute(p.delete().where(mine))
            else:
                done = connection.execute(p.update().where(mine).values(withdrawn_at=now()))
            if done.rowcount != 1:
                raise RefusedError("tournament.not_joined")

    def start_round(self, tournament_id: str, number: int) -> bool:
        """Claim and pair round ``number`` (the round before it over, its tables scored:
        the caller saw so) in one transaction; ``False`` if another process did first.
        With fewer than two players left, the tournament ends instead."""
        t, p, tt = db.tournaments, db.tournament_players, db.tournament_tables
        when = now()
        with self.engine.begin() as connection:
            row = connection.execute(
                sa.select(t.c.game, t.c.players, t.c.rounds, t.c.round_minutes).where(
                    t.c.id == tournament_id
                )
            ).one()
            claimed = connection.execute(
                t.update()
                .where(
                    t.c.id == tournament_id,
                    t.c.round == number - 1,
                    t.c.status != "finished",
                )
                .values(
                    round=number,
                    status="running",
                    round_ends_at=when + timedelta(minutes=int(row.round_minutes)),
                    updated_at=when,
                )
            )
            if claimed.rowcount != 1:
                return False
            # the players not withdrawn, whose account is not suspended (a suspended
            # account cannot take its seat: it is not paired while suspended)
            ids = [
                str(r.account_id)
                for r in connection.execute(
                    sa.select(p.c.account_id)
                    .join(db.accounts, db.accounts.c.id == p.c.account_id)
                    .where(
                        p.c.tournament_id == tournament_id,
                        p.c.withdrawn_at.is_(None),
                        db.accounts.c.suspended_at.is_(None),
                    )
                )
            ]
            if len(ids) < 2 or number > int(row.rounds):
                connection.execute(
                    t.update()
                    .where(t.c.id == tournament_id)
                    .values(
                        status="finished",
                        round=number - 1,
                        round_ends_at=None,
                        finished_at=when,
                        updated_at=when,
                    )
                )
                return True
            connection.execute(
                tt.insert(),
                _paired(
                    connection, tournament_id, number, str(row.game), int(row.players), ids, when
                ),
            )
        return True

    def finish(self, tournament_id: str, number: int) -> bool:
        """The last round ``number`` is over: the tournament ends (once)."""
        t, when = db.tournaments, now()
        with self.engine.begin() as connection:
            done = connection.execute(
                t.update()
                .where(t.c.id == tournament_id, t.c.round == number, t.c.status == "running")
                .values(status="finished", round_ends_at=None, finished_at=when, updated_at=when)
            )
        return done.rowcount == 1

    def claim_table(
        self, connection: sa.Connection, tournament_id: str, number: int, table: int, match: str
    ) -> None:
        """In the transaction that stores ``match``: the table, whose match is still to be
        created, gets it (:class:`ConflictError`: another process got there first)."""
        tt = db.tournament_tables
        claimed = connection.execute(
            tt.update()
            .where(
                tt.c.tournament_id == tournament_id,
                tt.c.round == number,
                tt.c.number == table,
                tt.c.match_id.is_(None),
            )
            .values(match_id=match)
        )
        if claimed.rowcount != 1:
            raise ConflictError(f"table {table} of {tournament_id} has its match")

    def score(self, tournament_id: str, number: int, points: dict[int, dict[str, float]]) -> None:
        """The tables ``points`` (by number) of round ``number`` get their points, each
        once."""
        tt, when = db.tournament_tables, now()
        with self.engine.begin() as connection:
            for table, given in points.items():
                connection.execute(
                    tt.update()
                    .where(
                        tt.c.tournament_id == tournament_id,
                        tt.c.round == number,
                        tt.c.number == table,
                        tt.c.points.is_(None),
                    )
                    .values(points=given, ended_at=when)
                )
            connection.execute(
                db.tournaments.update()
                .where(db.tournaments.c.id == tournament_id)
                .values(updated_at=when)
            )


def _paired(
    connection: sa.Connection,
    tournament_id: str,
    number: int,
    game: str,
    size: int,
    ids: list[str],
    when: datetime,
) -> list[dict[str, Any]]:
    """The tables of round ``number`` for the players ``ids``, as rows to store: paired by
    their points so far, their ratings in ``game``, who met and who blocked whom."""
    tt = db.tournament_tables
    before = [
        _table(r._mapping)
        for r in connection.execute(sa.select(tt).where(tt.c.tournament_id == tournament_id))
    ]
    found = _ratings(connection, [f"account:{a}" for a in ids], game)
    blocks = connection.execute(
        sa.select(db.blocks.c.account_id, db.blocks.c.blocked_id).where(
            db.blocks.c.account_id.in_(ids), db.blocks.c.blocked_id.in_(ids)
        )
    ).all()
    tables, bye = pair(
        entrants(ids, before, {a: found[f"account:{a}"].value for a in ids}),
        size,
        met_pairs(before),
        {pair_key(str(b.account_id), str(b.blocked_id)) for b in blocks},
    )
    stored: list[dict[str, Any]] = [
        {
            "tournament_id": tournament_id,
            "round": number,
            "number": n + 1,
            "seats": seats,
            "match_id": None,
            "points": None,
            "created_at": when,
            "ended_at": None,
        }
        for n, seats in enumerate(tables)
    ]
    if bye is not None:
        stored.append(
            {
                "tournament_id": tournament_id,
                "round": number,
                "number": len(tables) + 1,
                "seats": [bye],
                "match_id": None,
                "points": {bye: 1.0},  # a bye scores a win
                "created_at": when,
                "ended_at": when,
            }
        )
    return stored


def entrants(
    ids: Sequence[str], tables: Sequence[Table], ratings: dict[str, float]
) -> list[Entrant]:
    """The players ``ids`` to pair with their points and byes so far."""
    points = dict.fromkeys(ids, 0.0)
    byes = dict.fromkeys(ids, 0)
    for table in tables:
        for account_id, given in (table.points or {}).items():
            if account_id in points:
                points[account_id] += given
        if len(table.seats) == 1 and table.seats[0] in byes:
            byes[table.seats[0]] += 1
    return [Entrant(a, points[a], ratings[a], byes[a]) for a in ids]


def met_pairs(tables: Sequence[Table]) -> set[frozenset[str]]:
    """The pairs of players that sat at one table."""
    return {pair_key(a, b) for table in tables for a in table.seats for b in table.seats if a < b}


# -- the service ----------------------------------------------------------------------------


class Tournaments:
    """The tournaments of one server process: the routes' rules, and :meth:`tick`."""

    def __init__(self, master: MatchMaster, store: TournamentStore, tell: Any) -> None:
        self.master = master
        self.store = store
        self.tell = tell
        """``tell(kind, data)``: an event to every lobby stream of this process."""
        self.limits = Buckets(CHANGES_PER_MINUTE / 60, CHANGES_AT_ONCE)
        self._lock = asyncio.Lock()
        self._seen: dict[str, tuple[str, int, datetime]] | None = None

    async def create(self, account: Account, body: CreateTournament) -> TournamentRow:
        if not name_ok(body.name):
            raise RefusedError(
                "tournament.bad_name",
                status=400,
                low=MIN_NAME,
                high=MAX_NAME,
                marks="- _ . , ' ! ( ) & + : #",
            )
        when = now()
        if not when < body.starts_at <= when + timedelta(days=MAX_DAYS_AHEAD):
            raise RefusedError("tournament.bad_start", status=400, days=MAX_DAYS_AHEAD)
        minutes = body.round_minutes
        if minutes is None:
            correspondence = body.time is not None and body.time.kind == "correspondence"
            minutes = DEFAULT_CORRESPONDENCE_MINUTES if correspondence else DEFAULT_ROUND_MINUTES
        tournament_id = await asyncio.to_thread(self.store.create, account, body, minutes)
        await self.watch()
        return (await self.get(tournament_id)).row

    async def list(self, status: str, offset: int, limit: int) -> tuple[list[TournamentRow], int]:
        """A page of the tournaments of ``status`` and how many there are."""
        return await asyncio.to_thread(self.store.listing, status, offset, limit)

    async def get(self, tournament_id: str) -> Full:
        found = (
            await asyncio.to_thread(self.store.get, tournament_id)
            if tournament_id_ok(tournament_id)
            else None
        )
        if found is None:
            raise RefusedError("tournament.no_tournament", status=404)
        return found

    async def join(self, account: Account, tournament_id: str) -> Full:
        await self.get(tournament_id)
        await asyncio.to_thread(self.store.join, tournament_id, account)
        await self.watch()
        return await self.get(tournament_id)

    async def withdraw(self, account: Account, tournament_id: str) -> Full:
        await self.get(tournament_id)
        await asyncio.to_thread(self.store.withdraw, tournament_id, account.id)
        await self.watch()
        return await self.get(tournament_id)

    async def describe(self, full: Full, viewer: str | None) -> dict[str, Any]:
        """The tournament as its page shows it: players, rounds with their tables, the
        standings with each player's rounds (the crosstable), and the viewer's part."""
        ids = [p.account_id for p in full.players]
        shown = await asyncio.to_thread(self.store.ratings, full.row.game, ids)
        names = {p.account_id: p.name for p in full.players}
        rows = standings(
            [
                (p.account_id, p.name, shown[p.account_id], p.withdrawn_at is not None)
                for p in full.players
            ],
            full.tables,
        )
        rounds: dict[int, list[dict[str, Any]]] = {}
        for table in full.tables:
            rounds.setdefault(table.round, []).append(
                {
                    "number": table.number,
                    "players": [names.get(a, "?") for a in table.seats],
                    "match": table.match_id,
                    "bye": len(table.seats) == 1,
                    "points": None
                    if table.points is None
                    else [table.points.get(a, 0.0) for a in table.seats],
                    "mine": viewer in table.seats,
                }
            )
        me = next((p for p in full.players if p.account_id == viewer), None)
        return {
            **full.row.to_json(),
            "joined": me is not None and me.withdrawn_at is None,
            "withdrawn": me is not None and me.withdrawn_at is not None,
            "players": [
                {
                    "name": p.name,
                    "rating": shown[p.account_id],
                    "withdrawn": p.withdrawn_at is not None,
                }
                for p in full.players
            ],
            "rounds": [{"number": n, "tables": tables} for n, tables in sorted(rounds.items())],
            "standings": [
                {
                    **row.to_json(rank),
                    "rounds": [row.rounds.get(n) for n in range(1, full.row.round + 1)],
                }
                for rank, row in enumerate(rows, 1)
            ],
        }

    # -- the background work ----------------------------------------------------------------

    async def tick(self) -> None:
        """Start what is due, create missing matches, score ended tables, start the next
        rounds and end tournaments; then tell the streams what changed."""
        async with self._lock:
            for tournament_id, status, _, _ in await asyncio.to_thread(self.store.active):
                if status == "finished":
                    continue
                try:
                    await self.advance(tournament_id)
                except Exception:
                    log.exception("could not advance tournament %s", tournament_id)
        await self.watch()

    async def advance(self, tournament_id: str) -> None:
        """Bring one tournament up to date (each step claimed, so that two processes doing
        this at once do each once)."""
        for _ in range(3 * MAX_ROUNDS + 3):
            full = await asyncio.to_thread(self.store.get, tournament_id)
            if full is None or full.row.status == "finished":
                return
            row, when = full.row, now()
            if row.status == "upcoming":
                if row.starts_at > when:
                    return
                await asyncio.to_thread(self.store.start_round, tournament_id, 1)
                continue
            current = [t for t in full.tables if t.round == row.round]
            await self._create_matches(full, current)
            playing = [t.match_id for t in current if t.match_id is not None and t.points is None]
            for match_id in await asyncio.to_thread(
                self.store.stalled, playing, when - timedelta(seconds=STALLED_AFTER)
            ):
                live = await self.master.get(match_id)
                if live.row.status == "open":
                    await self.master._start(live)
            ended = await asyncio.to_thread(self.store.finished_places, playing)
            finished = {}
            for match_id in ended:
                match = await asyncio.to_thread(self.master.store.get_match, match_id)
                if match is not None:
                    finished[match_id] = ranks(match)
            over = row.round_ends_at is not None and row.round_ends_at <= when
            due = due_points(current, finished, over)
            if due:
                await asyncio.to_thread(self.store.score, tournament_id, row.round, due)
                continue  # read what was stored (another process may have scored some)
            if any(t.points is None for t in current):
                return
            if row.round >= row.rounds:
                await asyncio.to_thread(self.store.finish, tournament_id, row.round)
                return
            await asyncio.to_thread(self.store.start_round, tournament_id, row.round + 1)

    async def _create_matches(self, full: Full, tables: Sequence[Table]) -> None:
        names = {p.account_id: p.name for p in full.players}
        for table in tables:
            if table.match_id is not None or len(table.seats) < 2:
                continue
            plan = plan_table(full.row, [(a, names.get(a, "?")) for a in table.seats])

            def claim(connection: sa.Connection, match_id: str, table: Table = table) -> None:
                self.store.claim_table(connection, full.row.id, table.round, table.number, match_id)

            with contextlib.suppress(ConflictError):  # another process created it
                await self.master.create(plan, within=claim)

    async def watch(self) -> None:
        """Tell the streams what changed since this process last looked: ``tournaments``
        when the lists changed, ``tournament`` (``{"id", "status", "round"}``) for each
        tournament that changed (a round started or ended, a table ended, a player came
        or went)."""
        seen = {i: (s, r, u) for i, s, r, u in await asyncio.to_thread(self.store.active)}
        before, self._seen = self._seen, seen
        if before is None:
            return
        changed = [i for i in seen if before.get(i) != seen[i]]
        if changed or before.keys() - seen.keys():
            self.tell("tournaments", {})
        for tournament_id in changed:
            status, number, _ = seen[tournament_id]
            self.tell("tournament", {"id": tournament_id, "status": status, "round": number})


def plan_table(row: TournamentRow, people: list[tuple[str, str]]) -> MatchPlan:
    """The match of one table: its players (account id, name) in a random order (who
    begins is left to chance), the tournament's game, time control and rating, listed,
    started at once, without hints or take-backs."""
    people = list(people)
    secrets.SystemRandom().shuffle(people)
    body = CreateMatch.model_validate(
        {
            "game": row.game,
            "seats": [{"kind": "person"} for _ in people],
            "rated": row.rated,
            "hints": False,
            "undo": False,
            "public": True,
            "start": True,
            "seat": None,
            **({"time": row.options["time"]} if row.options.get("time") else {}),
        }
    )
    plan = plan_match(body, allow_setup=False)
    seats = []
    for number, (account_id, name) in enumerate(people):
        seats.append(SeatPlan("person", name, account_id=account_id))
        plan.record.players[number].name = name
    return MatchPlan(plan.record, seats, None, plan.options, plan.public, plan.start, plan.rated)
