"""Getting back into an account, and addresses proven to be their owners' (docs/server.md,
"Password resets and confirmed addresses").

Both work by a one-time link e-mailed to the account's address, ``{public-url}/#/reset/
{token}`` or ``{public-url}/#/confirm/{token}``: 192 random bits, of which only the SHA-256
is stored (``email_links``: one row per account and purpose, the newest link replacing the
one before), used once, valid for :data:`RESET_MINUTES` or :data:`CONFIRM_HOURS`, and only
for the address it was sent to.

* **A new password** (:meth:`Recovery.ask_reset`, :meth:`Recovery.reset`): asked for by
  name or address, whether or not an account has it — the answer is the same — and mailed
  only to a confirmed address of an account that is not suspended, at most once per
  :data:`RESET_EVERY` per account, so that nobody can flood an inbox. Setting the password
  uses the link up, ends every session of the account and changes its seat tokens, in one
  transaction.
* **A confirmed address** (:meth:`Recovery.address_given`, :meth:`Recovery.resend`,
  :meth:`Recovery.confirm`): an address given at sign-up or changed is unconfirmed, and gets
  no e-mail of any kind but the link that confirms it, until its owner clicks that link; at
  most one per :data:`CONFIRM_EVERY` to the same address and :data:`CONFIRM_PER_DAY` per
  account in a day.

Each claim of a link locks the account's row of ``email_links`` (PostgreSQL: the row;
SQLite: the insert takes the database's write lock), so requests at once, in any process,
cannot send more than the limits allow. Every method is one short transaction, run in a
worker thread by the routes.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine

from keltis.server import db
from keltis.server.accounts import Account, AccountStore, _account, name_key
from keltis.server.answers import RefusedError
from keltis.server.mail import LinkMail, Mailer
from keltis.server.passwords import attempt_key
from keltis.server.store import _aware, digest, now

#: How long a link to set a new password works (minutes) …
RESET_MINUTES = 30
#: … and how often one is e-mailed to an account at most.
RESET_EVERY = timedelta(minutes=15)
#: How long a link that confirms an address works (hours) …
CONFIRM_HOURS = 24
#: … how often one goes to the same address at most …
CONFIRM_EVERY = timedelta(minutes=15)
#: … and how many an account may be sent in a day, whatever the addresses.
CONFIRM_PER_DAY = 5
#: The most accounts one address may ask a new password for at once (several accounts may
#: share an address: each gets a link of its own).
MAX_ACCOUNTS_PER_ADDRESS = 5
#: The time of a link never sent (a new row).
_NEVER = datetime(2000, 1, 1, tzinfo=UTC)
_DAY = timedelta(days=1)

Purpose = Literal["reset", "confirm"]


def minutes(left: timedelta) -> int:
    """``left`` in whole minutes, rounded up (at least 1)."""
    return max(1, math.ceil(left.total_seconds() / 60))


@dataclass(frozen=True)
class Claim:
    """What claiming a link gave: its ``token`` (to e-mail), or ``None`` and how long to
    ``wait`` before the next may be sent."""

    token: str | None
    wait: timedelta = timedelta(0)


class Recovery:
    """Password resets by e-mail and confirmed addresses, for one server process."""

    def __init__(self, engine: Engine, accounts: AccountStore, mailer: Mailer) -> None:
        self.engine = engine
        self.accounts = accounts
        self.mailer = mailer

    # -- a new password -------------------------------------------------------------------

    def ask_reset(self, name: str | None, email: str | None) -> list[LinkMail]:
        """Links to set a new password for the account ``name``, or the accounts whose
        address is ``email`` (any case): only those with a confirmed address, not suspended,
        not mailed such a link within :data:`RESET_EVERY`; nothing at all where no e-mail
        is sent (thread). The caller answers the same whatever this returns."""
        query = sa.select(db.accounts).where(
            db.accounts.c.email.is_not(None),
            db.accounts.c.email_confirmed_at.is_not(None),
            db.accounts.c.suspended_at.is_(None),
        )
        if name is not None:
            query = query.where(db.accounts.c.name_key == name_key(name))
        elif email is not None:
            query = query.where(sa.func.lower(db.accounts.c.email) == email.lower())
        else:
            return []
        query = query.order_by(db.accounts.c.created_at).limit(MAX_ACCOUNTS_PER_ADDRESS)
        links: list[LinkMail] = []
        with self.engine.begin() as connection:
            found = [_account(row._mapping) for row in connection.execute(query)]
            if not self.mailer.enabled:
                return []
            when = now()
            for account in found:
                assert account.email is not None
                claim = self._claim(connection, account.id, "reset", account.email, when)
                if claim.token is not None:
                    links.append(_mail("reset", account, account.email, claim.token))
        return links

    def reset(self, token: str, new_hash: str, address: str) -> str:
        """Set the password of the link ``token``'s account to ``new_hash``: the link is
        used up, every session of the account ends and its seat tokens change, in one
        transaction; the address it came from may log in again at once (its failed log-ins
        forgotten). Returns the account's id (thread). Refused: ``400``
        ``account.bad_link`` (no such link, used, or the account's address changed since),
        ``410`` ``account.link_expired``, ``403`` ``account.suspended``."""
        with self.engine.begin() as connection:
            account = self._use(connection, token, "reset")
            if account.suspended:
                raise RefusedError("account.suspended", status=403)
            self.accounts.replace_password(connection, account.id, new_hash)
            self.accounts.attempts.succeeded(
                connection, attempt_key(name_key(account.name)), address
            )
        return account.id

    def check(self, token: str, purpose: Purpose) -> Account:
        """Refuse (as :meth:`reset` would) a link that is none, used or expired — before a
        new password is hashed for it (thread); else the link's account."""
        with self.engine.connect() as connection:
            return self._find(connection, token, purpose, lock=False)[0]

    # -- a confirmed address --------------------------------------------------------------

    def address_given(self, account: Account) -> LinkMail | None:
        """The account was made with an address, or its address changed (it is unconfirmed
        now): a link that confirms it, unless the limits hold it back or no e-mail is sent
        (thread). A link sent to an address the account no longer has opens nothing."""
        with self.engine.begin() as connection:
            table = db.email_links
            connection.execute(
                table.update()
                .where(
                    table.c.account_id == account.id,
                    table.c.purpose == "confirm",
                    table.c.email.is_distinct_from(account.email),
                )
                .values(token_hash=None)
            )
            if account.email is None or account.email_confirmed or not self.mailer.enabled:
                return None
            claim = self._claim(connection, account.id, "confirm", account.email, now())
        if claim.token is None:
            return None
        return _mail("confirm", account, account.email, claim.token)

    def resend(self, account: Account) -> LinkMail:
        """A new link that confirms the account's address, asked for by its owner (thread):
        ``409`` ``account.no_email`` or ``account.email_confirmed``, ``429``
        ``account.mail_wait`` (with the minutes to wait) within the limits."""
        if account.email is None:
            raise RefusedError("account.no_email", status=409)
        if account.email_confirmed:
            raise RefusedError("account.email_confirmed", status=409, email=account.email)
        with self.engine.begin() as connection:
            claim = self._claim(connection, account.id, "confirm", account.email, now())
        if claim.token is None:
            raise RefusedError("account.mail_wait", status=429, minutes=minutes(claim.wait))
        return _mail("confirm", account, account.email, claim.token)

    def confirm(self, token: str) -> Account:
        """The link ``token`` confirms its account's address (used up); the account then
        (thread). Refused as :meth:`reset` is."""
        with self.engine.begin() as connection:
            account = self._use(connection, token, "confirm")
            connection.execute(
                db.accounts.update()
                .where(db.accounts.c.id == account.id, db.accounts.c.email == account.email)
                .values(email_confirmed_at=now())
            )
            row = connection.execute(
                sa.select(db.accounts).where(db.accounts.c.id == account.id)
            ).one()
        return _account(row._mapping)

    # -- the links ------------------------------------------------------------------------

    def _claim(
        self,
        connection: sa.Connection,
        account_id: str,
        purpose: Purpose,
        email: str,
        when: datetime,
    ) -> Claim:
        """A new link for ``purpose`` to ``email``, replacing the account's link before
        (whose token opens nothing then) — or none within the limits: a reset once per
        :data:`RESET_EVERY`; a confirmation once per :data:`CONFIRM_EVERY` to the same
        address and :data:`CONFIRM_PER_DAY` a day. The account's row is locked until the
        transaction ends, so that claims at once are counted one after another."""
        table = db.email_links
        insert = pg_insert if connection.dialect.name == "postgresql" else sqlite_insert
        connection.execute(
            insert(table)
            .on_conflict_do_nothing()
            .values(
                account_id=account_id,
                purpose=purpose,
                token_hash=None,
                email=None,
                sent_at=_NEVER,
                expires_at=_NEVER,
                day_start=when,
                day_count=0,
            )
        )
        row = connection.execute(
            sa.select(table.c.email, table.c.sent_at, table.c.day_start, table.c.day_count)
            .where(table.c.account_id == account_id, table.c.purpose == purpose)
            .with_for_update()
        ).one()
        sent, day_start = _aware(row.sent_at), _aware(row.day_start)
        assert sent is not None
        assert day_start is not None
        count = int(row.day_count)
        if day_start + _DAY <= when:
            day_start, count = when, 0
        if purpose == "reset":
            if sent + RESET_EVERY > when:
                return Claim(None, sent + RESET_EVERY - when)
            lifetime = timedelta(minutes=RESET_MINUTES)
        else:
            if row.email == email and sent + CONFIRM_EVERY > when:
                return Claim(None, sent + CONFIRM_EVERY - when)
            if count >= CONFIRM_PER_DAY:
                return Claim(None, day_start + _DAY - when)
            lifetime = timedelta(hours=CONFIRM_HOURS)
        token = secrets.token_urlsafe(24)
        connection.execute(
            table.update()
            .where(table.c.account_id == account_id, table.c.purpose == purpose)
            .values(
                token_hash=digest(token),
                email=email,
                sent_at=when,
                expires_at=when + lifetime,
                day_start=day_start,
                day_count=count + 1,
            )
        )
        return Claim(token)

    def _find(
        self, connection: sa.Connection, token: str, purpose: Purpose, lock: bool
    ) -> tuple[Account, str]:
        """The account of the live link ``token`` for ``purpose``, and the address the link
        went to; refused if there is none (``400`` ``account.bad_link``: never was, used,
        replaced, or the account's address is another now) or it expired (``410``)."""
        table = db.email_links
        query = (
            sa.select(
                table.c.email.label("link_email"),
                table.c.expires_at.label("link_expires"),
                db.accounts,
            )
            .join(db.accounts, db.accounts.c.id == table.c.account_id)
            .where(table.c.token_hash == digest(token), table.c.purpose == purpose)
        )
        if lock:
            query = query.with_for_update(of=table)
        row = connection.execute(query).first()
        if row is None:
            raise RefusedError("account.bad_link", status=400)
        values = row._mapping
        expires = _aware(values["link_expires"])
        if expires is None or expires <= now():
            raise RefusedError("account.link_expired", status=410)
        account = _account(values)
        sent_to = str(values["link_email"])
        if account.email != sent_to:
            raise RefusedError("account.bad_link", status=400)
        return account, sent_to

    def _use(self, connection: sa.Connection, token: str, purpose: Purpose) -> Account:
        """Use up the live link ``token`` (refused as :meth:`_find` says): of requests at
        once, one uses it and the others are refused."""
        account, _sent_to = self._find(connection, token, purpose, lock=True)
        table = db.email_links
        used = connection.execute(
            table.update()
            .where(
                table.c.account_id == account.id,
                table.c.purpose == purpose,
                table.c.token_hash == digest(token),
            )
            .values(token_hash=None)
        )
        if used.rowcount != 1:
            raise RefusedError("account.bad_link", status=400)
        return account


def _mail(purpose: Purpose, account: Account, email: str, token: str) -> LinkMail:
    lifetime = RESET_MINUTES if purpose == "reset" else CONFIRM_HOURS * 60
    return LinkMail(
        purpose=purpose,
        account_id=account.id,
        name=account.name,
        email=email,
        language=account.language,
        token=token,
        minutes=lifetime,
    )
