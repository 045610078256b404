"""Accounts and their log-in sessions (docs/server.md, "Accounts and sessions").

An account is a unique name (compared case-folded), an argon2id password hash (argon2-cffi),
a language and perhaps an e-mail address. A log-in session is a random secret in an
``HttpOnly`` cookie, of which only the SHA-256 is stored, and a second token, ``csrf``, which
every state-changing request the cookie authenticates must repeat in a header: a page of
another site can make the browser send the cookie, never read the token.

The seats an account plays get tokens derived from the servers' shared key
(:meth:`AccountStore.seat_token`), so the account finds them again on any device without the
server storing a secret it could leak. Every call is one short transaction, run in a worker
thread by the routes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
import string
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from keltis.names import DELETED_NAME
from keltis.server import db
from keltis.server.answers import RefusedError
from keltis.server.passwords import Attempts, attempt_key, hash_password
from keltis.server.store import _aware, digest, now

#: An account's name: 3 to 20 letters, digits, ``_`` or ``-`` (so that it can never be taken
#: for a bot level's ``bot:…``, or for a deleted account's ``(deleted)``, or need escaping
#: in an address).
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
#: Password lengths taken (characters).
MIN_PASSWORD, MAX_PASSWORD = 8, 200
#: How long a log-in session lasts.
SESSION_DAYS = 30
#: The session of a cookie (``token_hash``: its secret's digest) with its account: read for
#: every request of a logged-in page, so built once (building it cost more than running it).
_SESSION: Final = (
    sa.select(db.login_sessions.c.csrf, db.login_sessions.c.expires_at, db.accounts)
    .join(db.accounts, db.accounts.c.id == db.login_sessions.c.account_id)
    .where(db.login_sessions.c.token_hash == sa.bindparam("token_hash"))
)


@dataclass(frozen=True)
class Account:
    """An account as the server uses it."""

    id: str
    name: str
    language: str
    email: str | None
    email_turns: bool
    created_at: datetime
    suspended: bool
    moderator: bool = False
    """A moderator (``keltis admin grant-moderator``): the client shows the moderation
    page's link (every moderator route checks the role again)."""
    muted_until: datetime | None = None
    """Until when a moderator muted its chat, if it is muted now."""
    seat_epoch: int = 0
    """The generation of its seats' tokens (:meth:`AccountStore.seat_token`)."""
    email_confirmed: bool = False
    """Its owner clicked the link sent to :attr:`email` (only then does it get e-mails:
    :mod:`keltis.server.recovery`)."""
    time_zone: str | None = None
    """The IANA time zone its e-mails write times in (``None``: not chosen, UTC)."""

    @property
    def player(self) -> str:
        """The account as a rated player (:mod:`keltis.server.ratings`)."""
        return f"account:{self.id}"

    def to_json(self) -> dict[str, Any]:
        """The account as its owner sees it (the e-mail included)."""
        return {
            "name": self.name,
            "language": self.language,
            "email": self.email,
            "email_turns": self.email_turns,
            "email_confirmed": self.email_confirmed,
            "created": self.created_at.isoformat(),
            "moderator": self.moderator,
            "muted_until": None if self.muted_until is None else self.muted_until.isoformat(),
            "time_zone": self.time_zone,
        }


@dataclass(frozen=True)
class LoggedIn:
    """A log-in session: the ``account``, the cookie's ``secret`` (only when it was just
    made) and the ``csrf`` token."""

    account: Account
    csrf: str
    secret: str | None = None


def name_key(name: str) -> str:
    """The name as names are compared: two accounts cannot differ only in case."""
    return name.casefold()


def check_name(name: str) -> None:
    """Refuse a name an account cannot have."""
    if not NAME_PATTERN.fullmatch(name):
        raise RefusedError("account.bad_name", status=400)


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common passwords refused (lower case): the 30,000 most common of leaked password
    lists as the ``zxcvbn`` package ships them (its ``passwords`` frequency list, from Xato's
    and other public dumps; MIT), read once."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(str(word).casefold() for word in FREQUENCY_LISTS["passwords"])


def _is_name(password: str, name: str) -> bool:
    """Whether the password is the account's name with simple changes: another case, the
    name reversed or twice, with digits or punctuation before or after."""

    def core(text: str) -> str:
        return text.strip(string.digits + string.punctuation + " ")

    said, key = password.casefold(), name.casefold()
    if said in (key, key[::-1], key * 2):
        return True
    return core(key) != "" and core(said) in (core(key), core(key)[::-1], core(key) * 2)


@functools.cache
def time_zones() -> frozenset[str]:
    """The time zones an account may choose: the IANA names this system's time zone data
    knows (:func:`zoneinfo.available_timezones`), read once."""
    return frozenset(zoneinfo.available_timezones())


def check_time_zone(name: str) -> None:
    """Refuse a time zone that is not an IANA name this server knows."""
    if name not in time_zones():
        raise RefusedError("account.bad_time_zone", status=400)


def check_password(password: str, name: str | None = None) -> None:
    """Refuse a password too short or too long, a common one (:func:`common_passwords`) and
    (``name``: the account's) the name itself or a simple variant of it — each with its
    reason."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise RefusedError("account.bad_password", status=400, min=MIN_PASSWORD, max=MAX_PASSWORD)
    if password.casefold() in common_passwords():
        raise RefusedError("account.common_password", status=400)
    if name is not None and _is_name(password, name):
        raise RefusedError("account.password_is_name", status=400)


@dataclass(frozen=True)
class Attempt:
    """A password attempt counted (:meth:`AccountStore.attempt`): the account tried
    (``None``: the name has none) and the hash to check the password against."""

    account: Account | None
    password_hash: str | None


class AccountStore:
    """Accounts, sessions and mutes in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._key: bytes | None = None
        self.attempts = Attempts()

    # -- the servers' shared key -----------------------------------------------------------

    def key(self) -> bytes:
        """The key every server process shares (``server_keys``, made by the migration)."""
        if self._key is None:
            with self.engine.connect() as connection:
                value = connection.execute(
                    sa.select(db.server_keys.c.value).where(db.server_keys.c.name == "derive")
                ).scalar_one()
            self._key = str(value).encode()
        return self._key

    def derive(self, purpose: str) -> str:
        """A secret for ``purpose`` derived from the shared key (HMAC-SHA256, URL-safe)."""
        mac = hmac.new(self.key(), purpose.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def seat_token(self, match_id: str, seat: int, account_id: str, epoch: int = 0) -> str:
        """The token of seat ``seat`` of ``match_id`` played by ``account_id`` in the
        account's seat-token generation ``epoch`` (:meth:`revoke_seats`)."""
        generation = f":{epoch}" if epoch else ""
        return self.derive(f"seat:{match_id}:{seat}:{account_id}{generation}")

    def revoke_seats(self, connection: sa.Connection, account_id: str) -> None:
        """The account's seat tokens change (a password changed, every session ended, a
        suspension): its next generation of derived tokens begins, and every seat it plays
        forgets its stored token, so that its old tokens — derived, or a guest's taken over
        — open nothing; the seats open to the new generation's tokens
        (:meth:`derived_seat`), which ``GET /api/me/matches`` gives its sessions."""
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account_id)
            .values(seat_epoch=db.accounts.c.seat_epoch + 1)
        )
        _forget_seat_tokens(connection, account_id)

    def derived_seat(self, match_id: str, token: str) -> int | None:
        """The seat of ``match_id`` an account plays whose token in the account's current
        generation is ``token``, or ``None``."""
        query = (
            sa.select(db.seats.c.seat, db.seats.c.account_id, db.accounts.c.seat_epoch)
            .join(db.accounts, db.accounts.c.id == db.seats.c.account_id)
            .where(db.seats.c.match_id == match_id)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        given = token.encode("utf-8", "replace")
        for number, account_id, epoch in rows:
            derived = self.seat_token(match_id, int(number), str(account_id), int(epoch))
            if secrets.compare_digest(derived.encode(), given):
                return int(number)
        return None

    def valid_seat_tokens(self, asked: list[tuple[str, int, str]]) -> list[bool]:
        """For each ``(match, seat, token)``: whether the token still opens that seat (its
        own stored token, or the current generation's derived one); one query."""
        matches = sorted({match_id for match_id, _seat, _token in asked})
        query = (
            sa.select(
                db.seats.c.match_id,
                db.seats.c.seat,
                db.seats.c.token_hash,
                db.seats.c.account_id,
                db.accounts.c.seat_epoch,
            )
            .outerjoin(db.accounts, db.accounts.c.id == db.seats.c.account_id)
            .where(db.seats.c.match_id.in_(matches))
        )
        with self.engine.connect() as connection:
            rows = {(str(r.match_id), int(r.seat)): r for r in connection.execute(query)}
        valid = []
        for match_id, seat, token in asked:
            row = rows.get((match_id, seat))
            ok = row is not None and row.token_hash == digest(token)
            if row is not None and not ok and row.account_id is not None:
                derived = self.seat_token(match_id, seat, str(row.account_id), int(row.seat_epoch))
                ok = secrets.compare_digest(derived.encode(), token.encode("utf-8", "replace"))
            valid.append(ok)
        return valid

    # -- accounts --------------------------------------------------------------------------

    def create(
        self,
        name: str,
        password_hash: str,
        language: str,
        email: str | None,
        time_zone: str | None = None,
    ) -> Account:
        """A new account with a password's hash (:func:`~keltis.server.passwords.
        hash_password`; ``account.name_taken`` if the name is, whatever its case) and
        perhaps its time zone (:func:`check_time_zone`)."""
        check_name(name)
        if time_zone is not None:
            check_time_zone(time_zone)
        account_id = secrets.token_urlsafe(12)
        when = now()
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    db.accounts.insert().values(
                        id=account_id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                        language=language,
                        email=email,
                        email_turns=True,
                        created_at=when,
                        failed_logins=0,
                        time_zone=time_zone,
                    )
                )
        except IntegrityError:
            raise RefusedError("account.name_taken", status=409, name=name) from None
        return Account(account_id, name, language, email, True, when, False, time_zone=time_zone)

    def by_name(self, name: str) -> Account | None:
        """The account named ``name`` (any case), or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(db.accounts).where(db.accounts.c.name_key == name_key(name))
            ).first()
        return None if row is None else _account(row._mapping)

    def by_id(self, account_id: str) -> Account | None:
        """The account ``account_id``, or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(db.accounts).where(db.accounts.c.id == account_id)
            ).first()
        return None if row is None else _account(row._mapping)

    def update(self, account: Account, **values: Any) -> Account:
        """Change the account's ``language``, ``email``, ``email_turns`` or ``time_zone``
        (:func:`check_time_zone`). A new address (any change of it) is unconfirmed until its
        owner clicks the link sent to it."""
        settings = ("language", "email", "email_turns", "time_zone")
        allowed = {k: v for k, v in values.items() if k in settings}
        if allowed.get("time_zone") is not None:
            check_time_zone(allowed["time_zone"])
        if allowed:
            changes = db.accounts.c.email.is_distinct_from(allowed.get("email"))
            with self.engine.begin() as connection:
                if "email" in allowed:
                    connection.execute(
                        db.accounts.update()
                        .where(db.accounts.c.id == account.id, changes)
                        .values(email_confirmed_at=None)
                    )
                connection.execute(
                    db.accounts.update().where(db.accounts.c.id == account.id).values(**allowed)
                )
        updated = self.by_id(account.id)
        assert updated is not None
        return updated

    # -- logging in ------------------------------------------------------------------------

    def attempt(self, name: str, address: str) -> Attempt:
        """Count a password attempt at the account ``name`` from ``address`` before the
        password is checked (``429`` ``account.login_limited`` over a limit, whether or not
        the name is an account's: :mod:`keltis.server.passwords`), and read what to check
        it against."""
        key = name_key(name)
        self.attempts.refuse_locked(attempt_key(key), address, now())
        with self.engine.begin() as connection:
            self.attempts.reserve(connection, attempt_key(key), address, now())
            row = connection.execute(
                sa.select(db.accounts).where(db.accounts.c.name_key == key)
            ).first()
        if row is None:
            return Attempt(None, None)
        return Attempt(_account(row._mapping), str(row._mapping["password_hash"]))

    def logged_in(self, account: Account, address: str, new_hash: str | None) -> LoggedIn:
        """The password of ``account`` was right (from ``address``): its count starts
        again, a hash made with older parameters is replaced by ``new_hash``, and a new
        session opens — unless the account is suspended (``403``)."""
        with self.engine.begin() as connection:
            suspended = connection.execute(
                sa.select(db.accounts.c.suspended_at).where(db.accounts.c.id == account.id)
            ).scalar_one_or_none()
            if suspended is not None:
                raise RefusedError("account.suspended", status=403)
            self.attempts.succeeded(connection, attempt_key(name_key(account.name)), address)
            if new_hash is not None:
                connection.execute(
                    db.accounts.update()
                    .where(db.accounts.c.id == account.id)
                    .values(password_hash=new_hash)
                )
        return self.open_session(account)

    def open_session(self, account: Account) -> LoggedIn:
        """A new log-in session for ``account``."""
        secret, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        when = now()
        with self.engine.begin() as connection:
            connection.execute(
                db.login_sessions.insert().values(
                    token_hash=digest(secret),
                    account_id=account.id,
                    csrf=csrf,
                    created_at=when,
                    last_seen=when,
                    expires_at=when + timedelta(days=SESSION_DAYS),
                )
            )
        return LoggedIn(account, csrf, secret)

    def session(self, secret: str, connection: sa.Connection | None = None) -> LoggedIn | None:
        """The live session whose cookie holds ``secret`` (not expired, its account not
        suspended), or ``None`` (read through ``connection`` if given)."""
        asked = {"token_hash": digest(secret)}
        if connection is None:
            with db.reading(self.engine) as own:
                row = own.execute(_SESSION, asked).first()
        else:
            row = connection.execute(_SESSION, asked).first()
        if row is None:
            return None
        values = row._mapping
        expires = _aware(values["expires_at"])
        if expires is None or expires <= now() or values["suspended_at"] is not None:
            return None
        return LoggedIn(_account(values), str(values["csrf"]))

    def close_session(self, secret: str) -> None:
        """Log out: the session is gone."""
        with self.engine.begin() as connection:
            connection.execute(
                db.login_sessions.delete().where(db.login_sessions.c.token_hash == digest(secret))
            )

    def set_password(self, account_id: str, new: str, keep: str | None = None) -> None:
        """Set the password (hashed here: ``keltis admin``; the server hashes in its
        password pool and calls :meth:`set_password_hash`)."""
        self.set_password_hash(account_id, hash_password(new), keep)

    def set_password_hash(self, account_id: str, new_hash: str, keep: str | None = None) -> None:
        """Set the password's hash; every session but ``keep`` (the cookie's secret of the
        request) ends, and the account's seat tokens change (:meth:`revoke_seats`)."""
        with self.engine.begin() as connection:
            self.replace_password(connection, account_id, new_hash, keep)

    def replace_password(
        self, connection: sa.Connection, account_id: str, new_hash: str, keep: str | None = None
    ) -> None:
        """:meth:`set_password_hash` in the caller's transaction (a password reset uses up
        its link in the same one)."""
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account_id)
            .values(password_hash=new_hash)
        )
        ended = db.login_sessions.delete().where(db.login_sessions.c.account_id == account_id)
        if keep is not None:
            ended = ended.where(db.login_sessions.c.token_hash != digest(keep))
        connection.execute(ended)
        self.revoke_seats(connection, account_id)

    def end_sessions(self, account_id: str) -> None:
        """Every session of the account ends and its seat tokens change (log out
        everywhere; a suspension)."""
        with self.engine.begin() as connection:
            connection.execute(
                db.login_sessions.delete().where(db.login_sessions.c.account_id == account_id)
            )
            self.revoke_seats(connection, account_id)

    def delete(self, account: Account) -> list[str]:
        """Delete the account (its password checked by the caller): its sessions, ratings,
        mutes, seeks and log-in counts go; the matches it played stay, its name replaced
        everywhere, its seats opening to no token. Returns those matches (the server
        processes must re-read them)."""
        with self.engine.begin() as connection:
            self.attempts.forget(connection, attempt_key(name_key(account.name)))
            return _erase(connection, account.id)

    # -- guest seats -----------------------------------------------------------------------

    def adopt_seats(self, account: Account, seats: list[tuple[str, str]]) -> list[str]:
        """The guest seats ``(match, token)`` become the account's (their tokens stay
        valid); returns the matches whose seat was taken over. A token that opens no seat,
        or a seat another account plays, is passed over."""
        taken: list[str] = []
        with self.engine.begin() as connection:
            for match_id, token in seats[:200]:
                updated = connection.execute(
                    db.seats.update()
                    .where(
                        db.seats.c.match_id == match_id,
                        db.seats.c.token_hash == digest(token),
                        db.seats.c.account_id.is_(None),
                    )
                    .values(account_id=account.id)
                )
                if updated.rowcount == 1:
                    taken.append(match_id)
        return taken

    # -- mutes -----------------------------------------------------------------------------

    def mutes(self, account: Account) -> list[str]:
        """The names of the accounts ``account`` muted."""
        query = (
            sa.select(db.accounts.c.name)
            .join(db.mutes, db.mutes.c.muted_id == db.accounts.c.id)
            .where(db.mutes.c.account_id == account.id)
            .order_by(db.accounts.c.name_key)
        )
        with self.engine.connect() as connection:
            return [str(r.name) for r in connection.execute(query)]

    def mute(self, account: Account, name: str, on: bool) -> None:
        """Mute (``on``) or unmute the account ``name`` for ``account``."""
        other = self.by_name(name)
        if other is None:
            raise RefusedError("account.no_player", status=404, name=name[:40])
        with self.engine.begin() as connection:
            connection.execute(
                db.mutes.delete().where(
                    db.mutes.c.account_id == account.id, db.mutes.c.muted_id == other.id
                )
            )
            if on and other.id != account.id:
                connection.execute(
                    db.mutes.insert().values(account_id=account.id, muted_id=other.id, at=now())
                )


def _withdraw_from_tournaments(connection: sa.Connection, account_id: str) -> None:
    """A deleted account's tournament entries stay (their results count in the standings),
    under the deleted name, withdrawn: it is paired no more."""
    connection.execute(
        db.tournament_players.update()
        .where(db.tournament_players.c.account_id == account_id)
        .values(
            name=DELETED_NAME,
            withdrawn_at=sa.func.coalesce(db.tournament_players.c.withdrawn_at, now()),
        )
    )


def _erase(connection: sa.Connection, account_id: str) -> list[str]:
    """Everything personal of an account, gone; its matches keep :data:`DELETED_NAME`.
    Returns those matches."""
    player = f"account:{account_id}"
    match_ids = [
        str(r.match_id)
        for r in connection.execute(
            sa.select(db.seats.c.match_id).where(db.seats.c.account_id == account_id).distinct()
        )
    ]
    for match_id in match_ids:
        numbers = [
            int(r.seat)
            for r in connection.execute(
                sa.select(db.seats.c.seat).where(
                    db.seats.c.match_id == match_id, db.seats.c.account_id == account_id
                )
            )
        ]
        header = connection.execute(
            sa.select(db.matches.c.header).where(db.matches.c.id == match_id)
        ).scalar_one()
        header = dict(header)
        players = [dict(p) for p in header.get("players", [])]
        for number in numbers:
            if number < len(players):
                players[number]["name"] = DELETED_NAME
        header["players"] = players
        connection.execute(
            db.matches.update().where(db.matches.c.id == match_id).values(header=header)
        )
    _forget_seat_tokens(connection, account_id)  # its seats open to no token any more
    connection.execute(
        db.seats.update()
        .where(db.seats.c.account_id == account_id)
        .values(name=DELETED_NAME, account_id=None)
    )
    connection.execute(
        db.chat.update()
        .where(db.chat.c.account_id == account_id)
        .values(name=DELETED_NAME, account_id=None)
    )
    open_seeks = sa.select(db.seeks.c.id).where(db.seeks.c.account_id == account_id)
    connection.execute(db.seek_players.delete().where(db.seek_players.c.seek_id.in_(open_seeks)))
    connection.execute(db.seek_players.delete().where(db.seek_players.c.account_id == account_id))
    connection.execute(db.seeks.delete().where(db.seeks.c.account_id == account_id))
    _withdraw_from_tournaments(connection, account_id)
    connection.execute(
        db.mutes.delete().where(
            sa.or_(db.mutes.c.account_id == account_id, db.mutes.c.muted_id == account_id)
        )
    )
    # its blocks (made or suffered) and warnings go; the reports it sent or that name it
    # stay for the moderators, its name replaced
    connection.execute(
        db.blocks.delete().where(
            sa.or_(db.blocks.c.account_id == account_id, db.blocks.c.blocked_id == account_id)
        )
    )
    connection.execute(db.warnings.delete().where(db.warnings.c.account_id == account_id))
    connection.execute(
        db.rematch_notices.delete().where(db.rematch_notices.c.account_id == account_id)
    )
    _forget_friends(connection, account_id)
    connection.execute(
        db.reports.update()
        .where(db.reports.c.reporter_id == account_id)
        .values(reporter_id=None, reporter=DELETED_NAME)
    )
    connection.execute(
        db.reports.update()
        .where(db.reports.c.reported_id == account_id)
        .values(reported_id=None, reported=DELETED_NAME)
    )
    connection.execute(db.rating_history.delete().where(db.rating_history.c.player == player))
    connection.execute(db.ratings.delete().where(db.ratings.c.player == player))
    connection.execute(db.mail_log.delete().where(db.mail_log.c.account_id == account_id))
    connection.execute(db.email_links.delete().where(db.email_links.c.account_id == account_id))
    connection.execute(
        db.login_sessions.delete().where(db.login_sessions.c.account_id == account_id)
    )
    connection.execute(db.accounts.delete().where(db.accounts.c.id == account_id))
    return match_ids


def _forget_friends(connection: sa.Connection, account_id: str) -> None:
    """A deleted account's follows (made or suffered) and vacations go; the challenges to it
    are cancelled (:mod:`keltis.server.friends`)."""
    connection.execute(
        db.follows.delete().where(
            sa.or_(db.follows.c.account_id == account_id, db.follows.c.followed_id == account_id)
        )
    )
    connection.execute(db.vacations.delete().where(db.vacations.c.account_id == account_id))
    connection.execute(
        db.seeks.update()
        .where(db.seeks.c.for_account == account_id, db.seeks.c.status == "open")
        .values(status="cancelled", updated_at=now())
    )


def _muted(value: Any) -> datetime | None:
    """A stored ``muted_until`` if it is still to come."""
    until = _aware(value)
    return until if until is not None and until > now() else None


def _forget_seat_tokens(connection: sa.Connection, account_id: str) -> None:
    """Every seat the account plays forgets its stored token: each gets the digest of a
    secret nobody was given (the column is unique), so no old token opens it."""
    seats = connection.execute(
        sa.select(db.seats.c.match_id, db.seats.c.seat).where(db.seats.c.account_id == account_id)
    ).all()
    for match_id, number in seats:
        connection.execute(
            db.seats.update()
            .where(db.seats.c.match_id == match_id, db.seats.c.seat == number)
            .values(token_hash=digest(secrets.token_urlsafe(24)))
        )


def _account(values: Any) -> Account:
    created = _aware(values["created_at"])
    assert created is not None
    return Account(
        id=str(values["id"]),
        name=str(values["name"]),
        language=str(values["language"]),
        email=values["email"],
        email_turns=bool(values["email_turns"]),
        created_at=created,
        suspended=values["suspended_at"] is not None,
        moderator=values.get("moderator_since") is not None,
        muted_until=_muted(values.get("muted_until")),
        seat_epoch=int(values.get("seat_epoch") or 0),
        email_confirmed=values["email"] is not None
        and values.get("email_confirmed_at") is not None,
        time_zone=values.get("time_zone"),
    )
