"""Reading and writing matches: every call is one short transaction (run in a worker thread
by the live layer, never on the event loop).

The one rule that keeps data safe: :meth:`Store.append_action` inserts the action's row
``(match_id, ply)`` and moves the match's ``ply`` on from ``ply - 1`` in one transaction, so
of two racing actions for the same ply exactly one lands (:class:`ConflictError` for the other),
and nothing is told to anyone before that commit. On PostgreSQL the same transaction sends
a ``NOTIFY`` so the other server processes learn of it as it commits.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from keltis.server import clocks, db

#: The PostgreSQL channel the server processes talk on.
CHANNEL = "keltis"


#: Store an action on PostgreSQL: move the match on from the ply before (only if it is still
#: there and running), insert the action's row for the ply it moved on to (the primary key
#: refuses a second one), and send the notice — which PostgreSQL delivers at commit.
_APPEND_POSTGRESQL = sa.text(
    """
    WITH moved AS (
        UPDATE matches
        SET ply = :ply, to_move = :to_move, updated_at = :now, turn_since = :now,
            status = CASE WHEN :finished THEN 'finished' ELSE status END,
            result = CASE WHEN :finished THEN CAST(:result AS JSON) ELSE result END
        WHERE id = :id AND ply = :ply - 1 AND status = 'running'
        RETURNING id
    ), stored AS (
        INSERT INTO actions (match_id, ply, seat, notation, created_at)
        SELECT id, :ply, :seat, :notation, :now FROM moved
        RETURNING match_id
    ), marked AS (
        UPDATE seats SET moved = TRUE, address = COALESCE(CAST(:address AS VARCHAR), address)
        WHERE CAST(:first_seat AS INTEGER) IS NOT NULL
            AND match_id IN (SELECT id FROM moved) AND seat = CAST(:first_seat AS INTEGER)
    )
    SELECT count(*) FROM stored CROSS JOIN LATERAL (SELECT pg_notify(:channel, :payload)) AS n
    """
)
"""Store an action on PostgreSQL in one statement, and so in one round trip when the
connection commits by itself: the guarded update of the match, the action's row, the mark of
a person's first move (``:first_seat``, ``NULL`` for none) and the notice; ``1`` if stored,
``0`` if the match was no longer at ``ply - 1``."""


class ConflictError(Exception):
    """Another action was stored for this ply first (or the match moved on)."""


def digest(secret: str) -> str:
    """What is stored of a secret token or invite code: its SHA-256, never the secret (a
    lone surrogate, which no real secret holds, is hashed as it is instead of failing)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes: they were stored in UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str  # "person" or "bot"
    level: str | None
    name: str
    joined: bool
    invite_open: bool
    last_seen: datetime | None
    stand_in: str | None
    account_id: str | None = None
    """The account playing this seat (``None``: a guest or a bot)."""
    bank: float | None = None
    """Seconds left in the seat's bank (a real-time time control)."""
    timed_out: bool = False
    """The seat ran out of time: a bot plays it on."""
    moved: bool = False
    """Its player made a move of their own (not a bot standing in)."""
    stood_in: bool = False
    """A bot stood in for its player at some point of the match."""
    address: str | None = None
    """The client address the seat was taken from, then its first move's."""

    @property
    def bot_level(self) -> str | None:
        """The level of the bot that decides for this seat now: its own bot, or one standing
        in for an away player; ``None`` for a person playing."""
        return self.level if self.kind == "bot" else self.stand_in


@dataclass(frozen=True)
class RematchAnswer:
    """A seat of a finished match said no to the match that was to play it again
    (``next_match``, cancelled by it): ``declined`` (asked, it did not join) or
    ``withdrew`` (it waited in it, then cancelled)."""

    seat: int
    answer: str
    next_match: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """As a match's description gives it (``rematch``)."""
        return {
            "seat": self.seat,
            "answer": self.answer,
            "next": self.next_match,
            "at": self.at.isoformat(),
        }


@dataclass(frozen=True)
class Answered:
    """What :meth:`Store.answer_again` did: the ``answer`` of the seat, the ``next_match``
    it concerned, and whether it was said before (``repeated``: nothing changed now). Or,
    with ``refusal`` set (a message key), nothing was done."""

    answer: str = ""
    next_match: str = ""
    repeated: bool = False
    refusal: str | None = None


@dataclass
class MatchRow:
    """One match as stored (without its actions)."""

    id: str
    game: str
    status: str  # "open", "running", "finished" or "cancelled" (a rematch said no to)
    header: dict[str, Any]
    options: dict[str, Any]
    public: bool
    ply: int
    to_move: int
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    turn_since: datetime | None = None
    """When the decision now due began: the turn clock runs from here."""
    next_match: str | None = None
    """The match its players asked to play next (``POST /api/matches/{id}/again``)."""
    previous_match: str | None = None
    """The match this one plays again."""
    rated: bool = False
    """The match changes its players' ratings when it ends."""
    deadline: datetime | None = None
    """With a time control: when the decision now due runs out of time."""
    aborted: bool = False
    """A rated match rated as aborted: a person seat never moved, no rating changed."""
    voided: bool = False
    """A moderator voided its rated result: its rating changes were taken back."""
    seats: list[SeatRow] = field(default_factory=list)
    answers: list[RematchAnswer] = field(default_factory=list)
    """Its seats' no to playing it again, oldest first (read for a finished match by
    :meth:`Store.get_match` only)."""


@dataclass(frozen=True)
class TimedAction:
    """An action stored in a match with a time control: ``when`` (the next decision's clock
    starts then), the acting seat's ``bank`` after it paid, the next decision's
    ``deadline``."""

    when: datetime
    bank: float | None
    deadline: datetime | None


@dataclass(frozen=True)
class FirstMove:
    """A person's first move of their own in a seat (not a bot's standing in), stored with
    the action: the seat is marked ``moved`` and the client ``address`` it came from kept
    (``None``: unknown)."""

    seat: int
    address: str | None


class _UnchangedError(Exception):
    """Roll back :meth:`Store.answer_again`'s transaction and answer ``answered``."""

    def __init__(self, answered: Answered) -> None:
        super().__init__(answered.refusal or answered.answer)
        self.answered = answered


class SeatedTwiceError(Exception):
    """The account already plays another seat of this rated match."""


@dataclass(frozen=True)
class LateDecision:
    """A decision that ran out of time: the match, its ply and the seat to move."""

    match_id: str
    ply: int
    seat: int


@dataclass(frozen=True)
class StoredAction:
    """One stored action."""

    ply: int
    seat: int
    notation: str


class Store:
    """The server's data in one SQL database (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.notifies = engine.dialect.name == "postgresql"
        #: Names this process in its notifications, so that it can skip its own.
        self.origin = secrets.token_hex(6)

    # -- matches ---------------------------------------------------------------------------

    def create_match(
        self,
        match_id: str,
        game: str,
        header: dict[str, Any],
        options: dict[str, Any],
        host_secret: str,
        public: bool,
        seat_rows: Sequence[dict[str, Any]],
        previous: str | None = None,
        rated: bool = False,
        within: Callable[[sa.Connection, str], None] | None = None,
    ) -> None:
        """Store a new match and its seats (``seat_rows``: kind, level, name, token and
        invite secrets or ``None``, the account playing it). With ``previous``, the new match
        is the one the players of that finished match play next: named as its
        ``next_match`` in the same transaction, or :class:`ConflictError` if it names
        another already. ``within(connection, match_id)`` runs first in the same transaction
        (a lobby seek claimed for this match, :meth:`SeekStore.claim`): its exception, such
        as :class:`ConflictError`, stores nothing."""
        when = now()
        bank = clocks.initial_bank(options)
        with self.engine.begin() as connection:
            if within is not None:
                within(connection, match_id)
            if previous is not None:
                named = connection.execute(
                    db.matches.update()
                    .where(
                        db.matches.c.id == previous,
                        db.matches.c.status == "finished",
                        db.matches.c.next_match.is_(None),
                    )
                    .values(next_match=match_id, updated_at=when)
                )
                if named.rowcount != 1:
                    raise ConflictError(f"match {previous} has its next match already")
                self._notify(connection, f"{previous}:seats")
            connection.execute(
                db.matches.insert().values(
                    id=match_id,
                    game=game,
                    status="open",
                    header=header,
                    options=options,
                    host_hash=digest(host_secret),
                    public=public,
                    ply=0,
                    to_move=0,
                    result=None,
                    created_at=when,
                    updated_at=when,
                    previous_match=previous,
                    rated=rated,
                )
            )
            connection.execute(
                db.seats.insert(),
                [
                    {
                        "match_id": match_id,
                        "seat": number,
                        "kind": row["kind"],
                        "level": row.get("level"),
                        "name": row["name"],
                        "token_hash": digest(row["token"]) if row.get("token") else None,
                        "invite_hash": digest(row["invite"]) if row.get("invite") else None,
                        "joined_at": when if row.get("token") else None,
                        "last_seen": when if row.get("token") else None,
                        "stand_in": None,
                        "account_id": row.get("account_id"),
                        # a time control's bank starts full (person seats only)
                        "bank": bank if row["kind"] == "person" else None,
                        "address": row.get("address"),
                    }
                    for number, row in enumerate(seat_rows)
                ],
            )

    def get_match(self, match_id: str) -> MatchRow | None:
        """The match ``match_id`` with its seats, or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(db.matches).where(db.matches.c.id == match_id)
            ).first()
            if row is None:
                return None
            seat_rows = connection.execute(
                sa.select(db.seats).where(db.seats.c.match_id == match_id).order_by(db.seats.c.seat)
            ).all()
            match = _match_row(row._mapping)
            if match.status == "finished":
                match.answers = _answers(connection, match_id)
        match.seats = [_seat_row(s._mapping) for s in seat_rows]
        return match

    def list_matches(self, status: str, limit: int, public_only: bool) -> list[MatchRow]:
        """Matches with ``status``, most recently changed first (with their seats)."""
        query = sa.select(db.matches).where(db.matches.c.status == status)
        if public_only:
            query = query.where(db.matches.c.public.is_(True))
        query = query.order_by(db.matches.c.updated_at.desc(), db.matches.c.id).limit(limit)
        with self.engine.connect() as connection:
            rows = [_match_row(r._mapping) for r in connection.execute(query)]
            _add_seats(connection, rows)
        return rows

    def is_host(self, match_id: str, secret: str) -> bool:
        """Whether ``secret`` is the host token of the match."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(db.matches.c.id).where(
                    db.matches.c.id == match_id, db.matches.c.host_hash == digest(secret)
                )
            ).first()
        return found is not None

    def seat_for_token(self, match_id: str, secret: str) -> int | None:
        """The seat whose secret token is ``secret``, or ``None``."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(db.seats.c.seat).where(
                    db.seats.c.match_id == match_id, db.seats.c.token_hash == digest(secret)
                )
            ).first()
        return None if found is None else int(found.seat)

    def seat_for_invite(self, match_id: str, invite: str) -> int | None:
        """The open seat whose invite code is ``invite``, or ``None``."""
        with self.engine.connect() as connection:
            found = connection.execute(_invited_seat(match_id, invite)).first()
        return None if found is None else int(found.seat)

    def claim_seat(
        self,
        match_id: str,
        invite: str,
        token: str,
        name: str,
        account_id: str | None = None,
        address: str | None = None,
        distinct: bool = False,
    ) -> int | None:
        """Give the seat whose invite code is ``invite`` to a player (``token`` becomes its
        secret; the invite is used up; ``account_id``: the account playing it; ``address``:
        the client's). ``None`` if no open seat has that invite. ``distinct`` (a rated
        match): :class:`SeatedTwiceError` if the account plays another seat of the match
        already — checked with the match's row locked (PostgreSQL's row lock, SQLite's write
        lock), so two joins of one account at once cannot both pass."""
        with self.engine.begin() as connection:
            when = now()
            if distinct and account_id is not None:
                connection.execute(
                    db.matches.update().where(db.matches.c.id == match_id).values(updated_at=when)
                )
                seated = connection.execute(
                    sa.select(db.seats.c.seat).where(
                        db.seats.c.match_id == match_id, db.seats.c.account_id == account_id
                    )
                ).first()
                if seated is not None:
                    raise SeatedTwiceError(f"account {account_id} plays seat {seated.seat}")
            found = connection.execute(_invited_seat(match_id, invite)).first()
            if found is None:
                return None
            updated = connection.execute(
                db.seats.update()
                .where(
                    db.seats.c.match_id == match_id,
                    db.seats.c.seat == found.seat,
                    db.seats.c.token_hash.is_(None),
                )
                .values(
                    token_hash=digest(token),
                    invite_hash=None,
                    name=name,
                    joined_at=when,
                    last_seen=when,
                    account_id=account_id,
                    address=address,
                )
            )
            if updated.rowcount != 1:
                return None
            self._touch(connection, match_id, f"{match_id}:seats")
        return int(found.seat)

    def claim_again(self, match_id: str, seat: int, token: str) -> bool:
        """Give seat ``seat`` of ``match_id`` (a match played again) to the player who held
        the same seat in the match before (``token`` becomes its secret); ``False`` if it is
        taken already."""
        with self.engine.begin() as connection:
            when = now()
            updated = connection.execute(
                db.seats.update()
                .where(
                    db.seats.c.match_id == match_id,
                    db.seats.c.seat == seat,
                    db.seats.c.kind == "person",
                    db.seats.c.token_hash.is_(None),
                    # not a next match cancelled meanwhile (answer_again)
                    sa.exists().where(db.matches.c.id == match_id, db.matches.c.status == "open"),
                )
                .values(token_hash=digest(token), joined_at=when, last_seen=when)
            )
            if updated.rowcount != 1:
                return False
            self._touch(connection, match_id, f"{match_id}:seats")
        return True

    def answer_again(self, match_id: str, seat: int) -> Answered:
        """Seat ``seat`` of finished match ``match_id`` says no to the match that is to play
        it again (``DELETE /api/matches/{id}/again``), in one transaction: that next match,
        still open, is cancelled (every person seat must join for it to start: with one
        saying no it never can) and the finished match names none again, so that anyone may
        ask again later; the answer is ``withdrew`` if the seat had joined the next match,
        else ``declined``; it is kept, and each account playing another person seat gets a
        notice of it. Said again with no next match since: the same answer, ``repeated``.
        Refused (``refusal``): ``server.not_finished``, ``server.again_started`` (the next
        match began), ``server.again_none`` (nobody asked)."""
        when = now()
        try:
            return self._answer_again(match_id, seat, when)
        except _UnchangedError as unchanged:  # rolled back: not even updated_at moved
            return unchanged.answered

    def _answer_again(self, match_id: str, seat: int, when: datetime) -> Answered:
        """:meth:`answer_again`'s transaction; :class:`_UnchangedError` rolls it back."""
        with self.engine.begin() as connection:
            # the write first: SQLite's write lock, PostgreSQL's row lock on the match
            connection.execute(
                db.matches.update().where(db.matches.c.id == match_id).values(updated_at=when)
            )
            found = connection.execute(
                sa.select(db.matches.c.status, db.matches.c.next_match).where(
                    db.matches.c.id == match_id
                )
            ).first()
            if found is None or found.status != "finished":
                raise _UnchangedError(Answered(refusal="server.not_finished"))
            next_id = found.next_match
            if next_id is None:
                answers = _answers(connection, match_id)
                if answers and answers[-1].seat == seat:
                    last = answers[-1]
                    raise _UnchangedError(Answered(last.answer, last.next_match, repeated=True))
                raise _UnchangedError(Answered(refusal="server.again_none"))
            cancelled = connection.execute(
                db.matches.update()
                .where(db.matches.c.id == next_id, db.matches.c.status == "open")
                .values(status="cancelled", updated_at=when)
            )
            if cancelled.rowcount != 1:
                raise _UnchangedError(Answered(refusal="server.again_started"))
            joined = connection.execute(
                sa.select(db.seats.c.token_hash).where(
                    db.seats.c.match_id == next_id, db.seats.c.seat == seat
                )
            ).first()
            answer = "withdrew" if joined is not None and joined.token_hash else "declined"
            connection.execute(
                db.matches.update().where(db.matches.c.id == match_id).values(next_match=None)
            )
            connection.execute(
                db.rematch_answers.insert().values(
                    match_id=match_id, next_match=next_id, seat=seat, answer=answer, created_at=when
                )
            )
            seats = connection.execute(
                sa.select(db.seats.c.seat, db.seats.c.account_id).where(
                    db.seats.c.match_id == match_id, db.seats.c.kind == "person"
                )
            ).all()
            own = {r.account_id for r in seats if r.seat == seat}
            # the accounts of the other person seats (not the one saying no, whatever seat)
            told = sorted(
                {str(r.account_id) for r in seats if r.account_id and r.account_id not in own}
            )
            if told:
                connection.execute(
                    db.rematch_notices.insert(),
                    [
                        {
                            "account_id": account_id,
                            "match_id": match_id,
                            "next_match": next_id,
                            "seat": seat,
                            "answer": answer,
                            "created_at": when,
                        }
                        for account_id in told
                    ],
                )
            self._notify(connection, f"{next_id}:seats")
            self._notify(connection, f"{match_id}:seats")
        return Answered(answer, next_id)

    def rematch_notices(
        self, account_id: str, limit: int, connection: sa.Connection | None = None
    ) -> list[dict[str, Any]]:
        """The notices of answers to playing again that ``account_id`` has not dismissed,
        newest first: ``id``, ``match`` (the finished match), ``game``, ``seat`` and
        ``name`` (who answered), ``answer``, ``at``."""
        if connection is None:
            with self.engine.connect() as own:
                return self.rematch_notices(account_id, limit, own)
        rows = connection.execute(_REMATCH_NOTICES, {"account": account_id, "limit": limit})
        return [
            {
                "id": int(r.id),
                "match": str(r.match_id),
                "game": str(r.game),
                "seat": int(r.seat),
                "name": str(r.name),
                "answer": str(r.answer),
                "at": (_aware(r.created_at) or now()).isoformat(),
            }
            for r in rows
        ]

    def dismiss_notice(self, account_id: str, notice_id: int) -> bool:
        """``account_id`` dismisses its notice ``notice_id``; ``False`` if it has none
        such."""
        with self.engine.begin() as connection:
            done = connection.execute(
                db.rematch_notices.delete().where(
                    db.rematch_notices.c.id == notice_id,
                    db.rematch_notices.c.account_id == account_id,
                )
            )
        return done.rowcount == 1

    def start(self, match_id: str, to_move: int) -> bool:
        """Move an open match to running (its first decision's clock starts); ``False`` if
        it was not open."""
        when = now()
        with self.engine.begin() as connection:
            updated = connection.execute(
                db.matches.update()
                .where(db.matches.c.id == match_id, db.matches.c.status == "open")
                .values(status="running", to_move=to_move, updated_at=when, turn_since=when)
            )
            if updated.rowcount != 1:
                return False
            self._reset_deadline(connection, match_id)
            self._notify(connection, f"{match_id}:seats")
        return True

    # -- actions ---------------------------------------------------------------------------

    def append_action(
        self,
        match_id: str,
        ply: int,
        seat: int,
        notation: str,
        to_move: int,
        result: dict[str, Any] | None,
        first_move: FirstMove | None = None,
    ) -> datetime:
        """Store action number ``ply`` (1-based) and the match's new ply, seat to move and
        (at the end) result, in one transaction; returns when (the next decision's clock
        starts then). ``first_move``: the seat's player's first move of their own, marked
        in the same transaction (:meth:`_mark_moved`). Raises :class:`ConflictError` if
        another action for this ply was stored first."""
        when = now()
        if self.notifies:
            self._append_postgresql(
                match_id, ply, seat, notation, to_move, result, when, first_move
            )
            return when
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    _INSERT_ACTION,
                    {
                        "match_id": match_id,
                        "ply": ply,
                        "seat": seat,
                        "notation": notation,
                        "created_at": when,
                    },
                )
                advance = {
                    "a_id": match_id,
                    "a_before": ply - 1,
                    "a_ply": ply,
                    "a_to_move": to_move,
                    "a_when": when,
                }
                if result is None:
                    updated = connection.execute(_ADVANCE, advance)
                else:
                    updated = connection.execute(_FINISH, {**advance, "a_result": result})
                if updated.rowcount != 1:
                    raise ConflictError(f"match {match_id} is no longer at ply {ply - 1}")
                _mark_moved(connection, match_id, first_move)
                self._notify(connection, f"{match_id}:{ply}")
        except IntegrityError as error:
            raise ConflictError(f"action {ply} of match {match_id} was stored first") from error
        return when

    def _append_postgresql(
        self,
        match_id: str,
        ply: int,
        seat: int,
        notation: str,
        to_move: int,
        result: dict[str, Any] | None,
        when: datetime,
        first_move: FirstMove | None,
    ) -> None:
        """:meth:`append_action` on PostgreSQL: the same guarded update, insert, first move's
        mark and notice as one statement (:data:`_APPEND_POSTGRESQL`), run on a connection
        that commits by itself — a single statement is atomic on its own —, so one round
        trip instead of three (``BEGIN``, the statement, ``COMMIT``): on a busy machine each
        one waits for the database's process to be scheduled."""
        values = {
            "id": match_id,
            "ply": ply,
            "seat": seat,
            "notation": notation,
            "to_move": to_move,
            "now": when,
            "finished": result is not None,
            "result": json.dumps(result) if result is not None else None,
            "channel": CHANNEL,
            "payload": f"{match_id}:{ply}:{self.origin}",
            "first_seat": None if first_move is None else first_move.seat,
            "address": None
            if first_move is None or first_move.address is None
            else first_move.address[:64],
        }
        try:
            with self.engine.connect() as connection:
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
                stored = connection.execute(_APPEND_POSTGRESQL, values).scalar_one()
            if stored != 1:
                raise ConflictError(f"match {match_id} is no longer at ply {ply - 1}")
        except IntegrityError as error:
            raise ConflictError(f"action {ply} of match {match_id} was stored first") from error

    def append_timed(
        self,
        match_id: str,
        ply: int,
        seat: int,
        notation: str,
        to_move: int,
        result: dict[str, Any] | None,
        decision: float,
        first_move: FirstMove | None = None,
    ) -> TimedAction:
        """:meth:`append_action` for a match with a time control (``decision``: its seconds
        for each decision), on either database: in the same transaction, the acting seat's
        bank pays for what the decision took beyond its time, and the next decision's
        deadline is set. Matches without a time control never come here: their actions cost
        no more than before. Raises :class:`ConflictError` as :meth:`append_action`."""
        when = now()
        try:
            with self.engine.begin() as connection:
                # the insert first: on SQLite it takes the write lock before anything is read
                connection.execute(
                    db.actions.insert().values(
                        match_id=match_id, ply=ply, seat=seat, notation=notation, created_at=when
                    )
                )
                guard = (
                    db.matches.c.id == match_id,
                    db.matches.c.ply == ply - 1,
                    db.matches.c.status == "running",
                )
                since = connection.execute(
                    sa.select(db.matches.c.turn_since).where(*guard).with_for_update()
                ).first()
                if since is None:
                    raise ConflictError(f"match {match_id} is no longer at ply {ply - 1}")
                seats = _clock_seats(connection, match_id, (seat, to_move))
                used = (when - (_aware(since.turn_since) or when)).total_seconds()
                before = seats[seat]["bank"]
                bank = clocks.charged(before, used, decision)
                seats[seat] = {**seats[seat], "bank": bank}
                deadline = clocks.due(decision, result is None, when, seats.get(to_move))
                values: dict[str, Any] = {
                    "ply": ply,
                    "to_move": to_move,
                    "updated_at": when,
                    "turn_since": when,
                    "deadline": deadline,
                }
                if result is not None:
                    values.update(status="finished", result=result)
                moved = connection.execute(db.matches.update().where(*guard).values(**values))
                if moved.rowcount != 1:
                    raise ConflictError(f"match {match_id} is no longer at ply {ply - 1}")
                if bank != before:
                    connection.execute(
                        db.seats.update()
                        .where(db.seats.c.match_id == match_id, db.seats.c.seat == seat)
                        .values(bank=bank)
                    )
                _mark_moved(connection, match_id, first_move)
                self._notify(connection, f"{match_id}:{ply}")
        except IntegrityError as error:
            raise ConflictError(f"action {ply} of match {match_id} was stored first") from error
        return TimedAction(when, bank, deadline)

    def take_back(self, match_id: str, ply: int, to_ply: int, to_move: int) -> datetime:
        """Undo: the match goes back from ``ply`` actions to ``to_ply`` (the later actions'
        rows are deleted, in one transaction with the match's new ply); returns when (the
        decision's clock starts again then). Raises :class:`ConflictError` if the match is
        no longer at ``ply``."""
        when = now()
        with self.engine.begin() as connection:
            updated = connection.execute(
                db.matches.update()
                .where(db.matches.c.id == match_id, db.matches.c.ply == ply)
                .values(
                    ply=to_ply,
                    to_move=to_move,
                    status="running",
                    result=None,
                    updated_at=when,
                    turn_since=when,
                )
            )
            if updated.rowcount != 1:
                raise ConflictError(f"match {match_id} is no longer at ply {ply}")
            connection.execute(
                db.actions.delete().where(
                    db.actions.c.match_id == match_id, db.actions.c.ply > to_ply
                )
            )
            self._reset_deadline(connection, match_id)
            self._notify(connection, f"{match_id}:undo")
        return when

    def actions_since(self, match_id: str, ply: int) -> list[StoredAction]:
        """The stored actions after the first ``ply``, in order."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(db.actions.c.ply, db.actions.c.seat, db.actions.c.notation)
                .where(db.actions.c.match_id == match_id, db.actions.c.ply > ply)
                .order_by(db.actions.c.ply)
            ).all()
        return [StoredAction(int(r.ply), int(r.seat), str(r.notation)) for r in rows]

    # -- presence and stand-ins ------------------------------------------------------------

    def touch_seats(self, match_id: str, seat_numbers: Sequence[int]) -> None:
        """The players of these seats are here now (``last_seen``)."""
        if not seat_numbers:
            return
        with self.engine.begin() as connection:
            connection.execute(
                db.seats.update()
                .where(db.seats.c.match_id == match_id, db.seats.c.seat.in_(list(seat_numbers)))
                .values(last_seen=now())
            )

    def touch_many(self, present: Sequence[tuple[str, int]]) -> None:
        """The players of these ``(match, seat)`` pairs are here now: one transaction."""
        if not present:
            return
        with self.engine.begin() as connection:
            connection.execute(
                db.seats.update()
                .where(
                    db.seats.c.match_id == sa.bindparam("m"),
                    db.seats.c.seat == sa.bindparam("s"),
                )
                .values(last_seen=now()),
                [{"m": match_id, "s": seat} for match_id, seat in present],
            )

    def set_stand_in(
        self,
        match_id: str,
        seat: int,
        level: str | None,
        away_before: datetime | None,
        late_before: datetime | None = None,
    ) -> bool:
        """Let a bot of ``level`` stand in for seat ``seat``'s player (``None``: the player
        takes the seat back). Handing a seat away needs its player to have been away since
        before ``away_before`` (``None``: being away is not enough), or — with a turn clock —
        the seat to be the one to move with its decision begun before ``late_before``;
        ``False`` if the seat's state did not allow the change. A player who takes back the
        seat to move gets a fresh clock for that decision; a seat that ran out of time
        (``timed_out``) cannot be taken back."""
        condition = [
            db.seats.c.match_id == match_id,
            db.seats.c.seat == seat,
            db.seats.c.kind == "person",
        ]
        if level is not None:
            condition.append(db.seats.c.stand_in.is_(None))
            allowed = []
            if away_before is not None:
                allowed.append(
                    sa.or_(db.seats.c.last_seen.is_(None), db.seats.c.last_seen <= away_before)
                )
            if late_before is not None:
                late = sa.exists().where(
                    db.matches.c.id == match_id,
                    db.matches.c.status == "running",
                    db.matches.c.to_move == seat,
                    db.matches.c.turn_since <= late_before,
                )
                allowed.append(late)
            if not allowed:
                return False
            condition.append(sa.or_(*allowed))
        else:
            condition.append(db.seats.c.stand_in.is_not(None))
            condition.append(db.seats.c.timed_out.is_(False))
        with self.engine.begin() as connection:
            values: dict[str, Any] = {"stand_in": level}
            when = now()
            if level is None:
                values["last_seen"] = when
            else:
                values["stood_in"] = True  # for good: a rated match ranks the seat last
            updated = connection.execute(db.seats.update().where(*condition).values(**values))
            if updated.rowcount != 1:
                return False
            if level is None:
                connection.execute(
                    db.matches.update()
                    .where(db.matches.c.id == match_id, db.matches.c.to_move == seat)
                    .values(turn_since=when)
                )
            self._reset_deadline(connection, match_id)
            self._touch(connection, match_id, f"{match_id}:seats")
        return True

    def waiting_for_bots(self, quiet_for: timedelta) -> list[str]:
        """Running matches unchanged for ``quiet_for`` where a bot (or a stand-in) is to
        move: after a restart, or when the process that should have moved it died."""
        before = now() - quiet_for
        query = (
            sa.select(db.matches.c.id)
            .join(
                db.seats,
                sa.and_(
                    db.seats.c.match_id == db.matches.c.id,
                    db.seats.c.seat == db.matches.c.to_move,
                ),
            )
            .where(
                db.matches.c.status == "running",
                db.matches.c.updated_at <= before,
                sa.or_(db.seats.c.kind == "bot", db.seats.c.stand_in.is_not(None)),
            )
        )
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]

    def seats_renamed(self, match_ids: Sequence[str]) -> None:
        """Seats of these matches were renamed (an account deleted): every process
        re-reads them (a notice each, on PostgreSQL)."""
        if not match_ids:
            return
        with self.engine.begin() as connection:
            for match_id in match_ids:
                self._touch(connection, match_id, f"{match_id}:seats")

    # -- accounts' matches -----------------------------------------------------------------

    def matches_of(
        self,
        account_id: str,
        statuses: Sequence[str],
        limit: int,
        connection: sa.Connection | None = None,
    ) -> list[tuple[MatchRow, int]]:
        """The matches with ``statuses`` in which ``account_id`` plays a seat, most recently
        changed first, each with that seat (the first, should it play two); read through
        ``connection`` if given."""
        if connection is None:
            with self.engine.connect() as own:
                return self.matches_of(account_id, statuses, limit, own)
        found: dict[str, tuple[MatchRow, int]] = {}
        asked = {"account": account_id, "statuses": list(statuses), "limit": limit}
        for r in connection.execute(_MATCHES_OF, asked):
            if r.id not in found:
                found[str(r.id)] = (_match_row(r._mapping), int(r.own_seat))
        _add_seats(connection, [row for row, _ in found.values()])
        return list(found.values())

    def finished_of(self, player_seats: sa.ColumnElement[bool], limit: int) -> list[MatchRow]:
        """Finished matches with a seat matching ``player_seats`` (a condition on
        ``seats``), newest first, with their seats."""
        ids = sa.select(db.seats.c.match_id).where(player_seats).distinct().scalar_subquery()
        query = (
            sa.select(db.matches)
            .where(db.matches.c.status == "finished", db.matches.c.id.in_(ids))
            .order_by(db.matches.c.updated_at.desc(), db.matches.c.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = [_match_row(r._mapping) for r in connection.execute(query)]
            _add_seats(connection, rows)
        return rows

    # -- time controls (keltis.server.clocks) ----------------------------------------------

    def late_decisions(self, when: datetime) -> list[LateDecision]:
        """Running matches whose decision now due ran out of time by ``when`` (one query on
        the indexed ``deadline``)."""
        query = sa.select(db.matches.c.id, db.matches.c.ply, db.matches.c.to_move).where(
            db.matches.c.deadline <= when, db.matches.c.status == "running"
        )
        with self.engine.connect() as connection:
            return [
                LateDecision(str(r.id), int(r.ply), int(r.to_move))
                for r in connection.execute(query)
            ]

    def time_out(self, late: LateDecision, level: str) -> bool:
        """The seat of ``late`` ran out of time: it is marked ``timed_out`` and a bot of
        ``level`` stands in for good; the deadline is cleared. Only if the match is still at
        that decision with its deadline passed — so of several processes exactly one acts
        (``True`` for it, ``False`` for the others), and a move stored first wins."""
        when = now()
        with self.engine.begin() as connection:
            cleared = connection.execute(
                db.matches.update()
                .where(
                    db.matches.c.id == late.match_id,
                    db.matches.c.status == "running",
                    db.matches.c.ply == late.ply,
                    db.matches.c.to_move == late.seat,
                    db.matches.c.deadline <= when,
                )
                .values(deadline=None, updated_at=when)
            )
            if cleared.rowcount != 1:
                return False
            connection.execute(
                db.seats.update()
                .where(
                    db.seats.c.match_id == late.match_id,
                    db.seats.c.seat == late.seat,
                    db.seats.c.kind == "person",
                    db.seats.c.stand_in.is_(None),
                )
                .values(
                    timed_out=True,
                    stand_in=level,
                    stood_in=True,
                    bank=sa.case((db.seats.c.bank.is_(None), None), else_=0.0),
                )
            )
            self._notify(connection, f"{late.match_id}:seats")
        return True

    def _reset_deadline(self, connection: sa.Connection, match_id: str) -> None:
        """Set the deadline of the decision now due again, from what is stored (after the
        match started, moves were taken back or a seat's stand-in changed); nothing for a
        match without a time control."""
        match = connection.execute(
            sa.select(
                db.matches.c.options,
                db.matches.c.status,
                db.matches.c.to_move,
                db.matches.c.turn_since,
            ).where(db.matches.c.id == match_id)
        ).first()
        if match is None:
            return
        decision = clocks.decision_seconds(dict(match.options))
        if decision is None:
            return
        seats = _clock_seats(connection, match_id, (int(match.to_move),))
        deadline = clocks.due(
            decision,
            match.status == "running",
            _aware(match.turn_since),
            seats.get(int(match.to_move)),
        )
        connection.execute(
            db.matches.update().where(db.matches.c.id == match_id).values(deadline=deadline)
        )

    # -- inside ----------------------------------------------------------------------------

    def _touch(self, connection: sa.Connection, match_id: str, payload: str) -> None:
        connection.execute(
            db.matches.update().where(db.matches.c.id == match_id).values(updated_at=now())
        )
        self._notify(connection, payload)

    def notify(self, payload: str) -> None:
        """Tell the other processes ``payload`` (``<id>:<what>``; PostgreSQL only)."""
        if self.notifies:
            with self.engine.begin() as connection:
                self._notify(connection, payload)

    def _notify(self, connection: sa.Connection, payload: str) -> None:
        """``NOTIFY keltis '<match>:<ply or "seats">:<origin>'``, delivered at commit."""
        if self.notifies:
            connection.execute(
                sa.text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{payload}:{self.origin}"},
            )


def _add_seats(connection: sa.Connection, rows: Sequence[MatchRow]) -> None:
    """Read the seats of ``rows`` in one query and add each to its match, in seat order."""
    if not rows:
        return
    by_id = {r.id: r for r in rows}
    for s in connection.execute(_SEATS_OF, {"ids": list(by_id)}):
        by_id[str(s.match_id)].seats.append(_seat_row(s._mapping))


def _answers(connection: sa.Connection, match_id: str) -> list[RematchAnswer]:
    """The rematch answers of finished match ``match_id``, oldest first."""
    a = db.rematch_answers
    rows = connection.execute(
        sa.select(a).where(a.c.match_id == match_id).order_by(a.c.created_at, a.c.seat)
    )
    return [
        RematchAnswer(int(r.seat), str(r.answer), str(r.next_match), _aware(r.created_at) or now())
        for r in rows
    ]


#: The statements a turn badge's poll (``GET /api/me/matches``, every page of every account,
#: every few seconds) runs, built once like :data:`_ADVANCE`'s: the account's matches of
#: some statuses (``account``, ``statuses``, ``limit``) …
_MATCHES_OF: Final = (
    sa.select(db.matches, db.seats.c.seat.label("own_seat"))
    .join(db.seats, db.seats.c.match_id == db.matches.c.id)
    .where(
        db.seats.c.account_id == sa.bindparam("account"),
        db.matches.c.status.in_(sa.bindparam("statuses", expanding=True)),
    )
    .order_by(db.matches.c.updated_at.desc(), db.matches.c.id, db.seats.c.seat)
    .limit(sa.bindparam("limit"))
)
#: … the seats of some matches (``ids``) …
_SEATS_OF: Final = (
    sa.select(db.seats)
    .where(db.seats.c.match_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(db.seats.c.match_id, db.seats.c.seat)
)
#: … and the account's rematch notices (``account``, ``limit``).
_REMATCH_NOTICES: Final = (
    sa.select(db.rematch_notices, db.seats.c.name, db.matches.c.game)
    .join(db.matches, db.matches.c.id == db.rematch_notices.c.match_id)
    .join(
        db.seats,
        sa.and_(
            db.seats.c.match_id == db.rematch_notices.c.match_id,
            db.seats.c.seat == db.rematch_notices.c.seat,
        ),
    )
    .where(db.rematch_notices.c.account_id == sa.bindparam("account"))
    .order_by(db.rematch_notices.c.created_at.desc(), db.rematch_notices.c.id.desc())
    .limit(sa.bindparam("limit"))
)

#: :meth:`Store.append_action`'s statements on SQLite, built once: building them for every
#: action took more of the server's time than running them, and each build left cyclic
#: garbage for the collector, whose passes pause every match (docs/server.md, "Load").
_INSERT_ACTION: Final = db.actions.insert()
_ADVANCE_WHERE: Final = (
    db.matches.c.id == sa.bindparam("a_id"),
    db.matches.c.ply == sa.bindparam("a_before"),
    db.matches.c.status == "running",
)
_ADVANCE_WHEN: Final = sa.bindparam("a_when", type_=db.matches.c.updated_at.type)
_ADVANCE_VALUES: Final = {
    "ply": sa.bindparam("a_ply"),
    "to_move": sa.bindparam("a_to_move"),
    "updated_at": _ADVANCE_WHEN,
    "turn_since": _ADVANCE_WHEN,
}
#: The match moves on by one action …
_ADVANCE: Final = db.matches.update().where(*_ADVANCE_WHERE).values(_ADVANCE_VALUES)
#: … or, with the last one, ends with its result.
_FINISH: Final = (
    db.matches.update()
    .where(*_ADVANCE_WHERE)
    .values(
        {
            **_ADVANCE_VALUES,
            "status": "finished",
            "result": sa.bindparam("a_result", type_=db.matches.c.result.type),
        }
    )
)


def _mark_moved(connection: sa.Connection, match_id: str, first: FirstMove | None) -> None:
    """The seat of ``first`` had its player's first move of their own: ``moved``, and the
    address it came from kept (where one is known)."""
    if first is None:
        return
    values: dict[str, Any] = {"moved": True}
    if first.address is not None:
        values["address"] = first.address[:64]
    connection.execute(
        db.seats.update()
        .where(db.seats.c.match_id == match_id, db.seats.c.seat == first.seat)
        .values(**values)
    )


def _invited_seat(match_id: str, invite: str) -> sa.Select[tuple[int]]:
    """The open seat of ``match_id`` whose invite code is ``invite``."""
    return sa.select(db.seats.c.seat).where(
        db.seats.c.match_id == match_id,
        db.seats.c.invite_hash == digest(invite),
        db.seats.c.token_hash.is_(None),
    )


def _match_row(row: Any) -> MatchRow:
    created, updated = _aware(row["created_at"]), _aware(row["updated_at"])
    assert created is not None
    assert updated is not None
    return MatchRow(
        id=str(row["id"]),
        game=str(row["game"]),
        status=str(row["status"]),
        header=dict(row["header"]),
        options=dict(row["options"]),
        public=bool(row["public"]),
        ply=int(row["ply"]),
        to_move=int(row["to_move"]),
        result=row["result"],
        created_at=created,
        updated_at=updated,
        turn_since=_aware(row["turn_since"]),
        next_match=row["next_match"],
        previous_match=row["previous_match"],
        rated=bool(row["rated"]),
        deadline=_aware(row["deadline"]),
        aborted=bool(row["aborted"]),
        voided=row["voided_at"] is not None,
    )


def _seat_row(row: Any) -> SeatRow:
    return SeatRow(
        seat=int(row["seat"]),
        kind=str(row["kind"]),
        level=row["level"],
        name=str(row["name"]),
        joined=row["token_hash"] is not None or row["kind"] == "bot",
        invite_open=row["invite_hash"] is not None,
        last_seen=_aware(row["last_seen"]),
        stand_in=row["stand_in"],
        account_id=row["account_id"],
        bank=row["bank"],
        timed_out=bool(row["timed_out"]),
        moved=bool(row["moved"]),
        stood_in=bool(row["stood_in"]),
        address=row["address"],
    )


def _clock_seats(
    connection: sa.Connection, match_id: str, numbers: Sequence[int]
) -> dict[int, dict[str, Any]]:
    """What the clock needs of these seats of the match: ``kind``, ``stand_in``, ``bank``."""
    rows = connection.execute(
        sa.select(db.seats.c.seat, db.seats.c.kind, db.seats.c.stand_in, db.seats.c.bank).where(
            db.seats.c.match_id == match_id, db.seats.c.seat.in_(sorted(set(numbers)))
        )
    )
    return {int(r.seat): {"kind": r.kind, "stand_in": r.stand_in, "bank": r.bank} for r in rows}
