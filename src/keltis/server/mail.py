"""E-mail when it is a player's turn in a correspondence match (docs/server.md, "Being told
it is your turn"), and the one-click unsubscribe that turns those e-mails off.

When a decision of a correspondence match becomes due for a seat an account plays (the match
starts, or the turn passes to that seat), the match service asks :meth:`Mailer.turn_due`.
While the player is looking at the match (their page connected, in any process: the seat's
``last_seen`` fresh) the e-mail waits; it goes once they leave, if the decision is still
theirs (:meth:`Mailer.looking`; a restart in between forgets it). Unless the account has
no address, turned the e-mails off or is suspended, one e-mail goes out, in the account's
language, with a link to the match and an unsubscribe link
(``List-Unsubscribe`` and ``List-Unsubscribe-Post``, RFC 8058). A row in ``mail_log``
(primary key: match, ply, account) is inserted before anything is sent, so of several
processes, or the same decision announced twice, one e-mail goes out. Everything runs in a
worker thread (the standard library's :mod:`smtplib`), never on the event loop; a failure
is logged and never reaches the match.

The unsubscribe token is ``HMAC-SHA256(key, "unsubscribe:" + account)`` (URL-safe base64
without padding) with the servers' shared key (``server_keys``), so a link works on every
process and nothing about it is stored.

``List-Unsubscribe`` goes out as RFC 2369 writes it, ``<URL>`` on one line: the standard
library's e-mail policy folds a header at 78 characters, and a "word" longer than that (the
link) it writes as an RFC 2047 encoded word (``=?utf-8?q?=3Chttp…``), which no mail program
takes for a link — so it offered no unsubscribe button. The e-mails are made with
:data:`POLICY`, whose header classes keep these two headers as they are.

Players' names are free text (a guest names themself): in an e-mail, where a mail program
turns anything that looks like an address into a link, each name is shown quoted and
"defanged" (:func:`plain_name`): ``http://evil.example/reset`` is mailed as
``"http[:]//evil[.]example/reset"``.

The same SMTP server carries the one-time links of :mod:`keltis.server.recovery` — a new
password, an address confirmed (:class:`LinkMail`, :meth:`Mailer.send_link`) — and turn
e-mails go only to a confirmed address (:meth:`Mailer.claim`).
"""

from __future__ import annotations

import asyncio
import email.policy
import hmac
import logging
import re
import smtplib
import ssl
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from email.headerregistry import BaseHeader, HeaderRegistry, UniqueUnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy
from email.utils import format_datetime, make_msgid
from typing import ClassVar, Literal
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from keltis.i18n import LANGUAGES, Translator
from keltis.names import is_deleted, shown_name
from keltis.server import db, vacation
from keltis.server.accounts import AccountStore
from keltis.server.config import ServerConfig
from keltis.server.store import _aware, now
from keltis.server.tasks import Background

log = logging.getLogger("keltis.server")

#: The SMTP ports used by default, by ``--smtp-tls``.
DEFAULT_PORTS = {"none": 25, "starttls": 587, "tls": 465}
#: Seconds an SMTP conversation may stall before it is given up.
SMTP_TIMEOUT = 30.0
#: The longest account id the server makes (``accounts.id``); a longer one is no account.
MAX_ACCOUNT_ID = 24


#: The longest header line SMTP carries (RFC 5322: 998 characters and CRLF).
MAX_HEADER_LINE = 998
#: What makes a name look like an address to a mail program: a scheme's ``://``, and a
#: dot (or an ideographic one, which IDNA reads as a dot) or an ``@`` between two letters
#: or digits.
_SCHEME = "://"
_JOINER = re.compile(r"(?<=[^\W_])([.\u3002\uff0e\uff61@])(?=[^\W_])")


def plain_name(name: str) -> str:
    """``name`` as an e-mail shows it: in quotes, and never in a form that mail programs
    turn into a link — ``://`` becomes ``[:]//``, a dot or an ``@`` between two letters or
    digits ``[.]``, ``[@]`` (``http://evil.example/reset`` →
    ``"http[:]//evil[.]example/reset"``)."""
    defanged = _JOINER.sub(r"[\1]", name.replace(_SCHEME, "[:]//"))
    return f'"{defanged}"'


class OneLineHeader(UniqueUnstructuredHeader, BaseHeader):
    """A header written as it was given, on one line — never folded nor encoded (the
    unsubscribe headers: RFC 2369 wants ``<URL>`` there, as it is). Only for values made
    here: ASCII, without line breaks, shorter than a header line may be."""

    max_count: ClassVar[Literal[1]] = 1  # once in an e-mail

    def fold(self, *, policy: Policy) -> str:
        line = f"{self.name}: {self}"
        if not line.isascii() or len(line) > MAX_HEADER_LINE or "\r" in line or "\n" in line:
            raise ValueError(f"{self.name} cannot be sent on one line: {line[:80]!r}…")
        return line + policy.linesep


def _headers() -> HeaderRegistry:
    registry = HeaderRegistry()
    registry.map_to_type("list-unsubscribe", OneLineHeader)
    registry.map_to_type("list-unsubscribe-post", OneLineHeader)
    return registry


#: The e-mails' policy: the standard library's (``email.policy.default``), the unsubscribe
#: headers on one line as they are (:class:`OneLineHeader`).
POLICY = email.policy.default.clone(header_factory=_headers())


@dataclass(frozen=True)
class LinkMail:
    """A one-time link to e-mail (:mod:`keltis.server.recovery`): ``purpose`` ``"reset"``
    (a new password, the page ``#/reset/{token}``) or ``"confirm"`` (the address is its
    owner's, ``#/confirm/{token}``), to ``email`` of the account ``name`` (``account_id``) in
    its ``language``; the link works for ``minutes``."""

    purpose: Literal["reset", "confirm"]
    account_id: str
    name: str
    email: str
    language: str
    token: str
    minutes: int


@dataclass(frozen=True)
class TurnMail:
    """One e-mail to send: who gets it (``account_id``, ``email``, ``name``, ``language``)
    and about which decision (``match_id``, ``game``, the ``opponents``' names, the
    ``deadline``, written in the account's ``time_zone``)."""

    account_id: str
    email: str
    name: str
    language: str
    match_id: str
    game: str
    opponents: list[str]
    deadline: datetime | None
    time_zone: str | None = None


def deadline_text(deadline: datetime, time_zone: str | None) -> str:
    """A deadline as an e-mail writes it: date and time in the account's time zone, named
    (``2026-12-02 15:30 Europe/Prague``); UTC where it chose none (or one this server no
    longer knows)."""
    zone: tzinfo = UTC
    if time_zone:
        try:
            zone = zoneinfo.ZoneInfo(time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            time_zone = None
    return f"{deadline.astimezone(zone):%Y-%m-%d %H:%M} {time_zone or 'UTC'}"


class Mailer:
    """Sends the e-mails of correspondence turns through the configured SMTP server
    (``--smtp-host``; without one nothing is sent), and turns them off for an account."""

    def __init__(
        self,
        engine: Engine,
        config: ServerConfig,
        accounts: AccountStore,
        background: Background,
    ) -> None:
        self.engine = engine
        self.config = config
        self.accounts = accounts
        self.background = background

    @property
    def enabled(self) -> bool:
        """Whether e-mails are sent at all (an SMTP server is configured)."""
        return self.config.smtp_host is not None

    # -- telling a player it is their turn -------------------------------------------------

    def turn_due(self, match_id: str, ply: int, seat: int) -> None:
        """The decision at ``ply`` of ``match_id`` is due for ``seat``: e-mail its account
        (in the background; returns at once)."""
        if self.enabled:
            self.background.spawn(self._tell(match_id, ply, seat))

    async def _tell(self, match_id: str, ply: int, seat: int) -> None:
        try:
            # No e-mail while the player is looking at the match: it waits until they
            # leave it (then it goes, if the decision is still theirs) or the match moves on.
            interval = self.config.presence_interval
            while await asyncio.to_thread(self.looking, match_id, ply, seat):
                log.info("seat %d of match %s is looking at it: no e-mail yet", seat, match_id)
                await asyncio.sleep(interval)
            await asyncio.to_thread(self.tell_now, match_id, ply, seat)
        except Exception:
            log.exception("could not e-mail seat %d of match %s", seat, match_id)

    def looking(self, match_id: str, ply: int, seat: int) -> bool:
        """Whether the player of ``seat`` is looking at the match while the decision at
        ``ply`` is still theirs (thread): their page is connected, in this process or
        another, so its ``last_seen`` is kept fresh (:class:`keltis.server.upkeep.Presence`
        writes it every ``presence_interval``; a page that closes writes it once more) —
        seen within one and a half intervals (and a second, for the writes' own time), and
        since the seat was taken (joining writes it too, with no page open)."""
        recent = now() - timedelta(seconds=self.config.presence_interval * 1.5 + 1.0)
        query = (
            sa.select(db.seats.c.last_seen, db.seats.c.joined_at)
            .select_from(db.seats.join(db.matches, db.matches.c.id == db.seats.c.match_id))
            .where(
                db.seats.c.match_id == match_id,
                db.seats.c.seat == seat,
                db.matches.c.status == "running",
                db.matches.c.ply == ply,
                db.matches.c.to_move == seat,
            )
        )
        with self.engine.connect() as connection:
            found = connection.execute(query).first()
        if found is None:
            return False
        seen, joined = _aware(found.last_seen), _aware(found.joined_at)
        return seen is not None and seen >= recent and (joined is None or seen > joined)

    def tell_now(self, match_id: str, ply: int, seat: int) -> bool:
        """E-mail the account of ``seat`` about the decision at ``ply`` (thread): ``False``
        if no e-mail is due (no account with an address and e-mails on, the match moved
        on, or it was sent already)."""
        mail = self.claim(match_id, ply, seat)
        if mail is None:
            log.debug("no e-mail due to seat %d of match %s (ply %d)", seat, match_id, ply)
            return False
        self.deliver(self.compose(mail))
        log.info("e-mailed seat %d of match %s (ply %d)", seat, match_id, ply)
        return True

    def claim(self, match_id: str, ply: int, seat: int) -> TurnMail | None:
        """The e-mail due to ``seat``'s account for the decision at ``ply``, written down in
        ``mail_log`` first (its primary key lets one process, once, have it); ``None`` if
        none is due."""
        query = (
            sa.select(
                db.accounts.c.id,
                db.accounts.c.name,
                db.accounts.c.email,
                db.accounts.c.language,
                db.accounts.c.time_zone,
                db.matches.c.game,
                db.matches.c.deadline,
            )
            .select_from(
                db.seats.join(db.accounts, db.accounts.c.id == db.seats.c.account_id).join(
                    db.matches, db.matches.c.id == db.seats.c.match_id
                )
            )
            .where(
                db.seats.c.match_id == match_id,
                db.seats.c.seat == seat,
                db.seats.c.kind == "person",
                db.seats.c.stand_in.is_(None),
                db.accounts.c.email.is_not(None),
                db.accounts.c.email_confirmed_at.is_not(None),
                db.accounts.c.email_turns.is_(True),
                db.accounts.c.suspended_at.is_(None),
                ~vacation.away_clause(now()),  # no turn e-mail while on vacation
                db.matches.c.status == "running",
                db.matches.c.ply == ply,
                db.matches.c.to_move == seat,
            )
        )
        try:
            with self.engine.begin() as connection:
                found = connection.execute(query).first()
                if found is None or not found.email:
                    return None
                connection.execute(
                    db.mail_log.insert().values(
                        match_id=match_id, ply=ply, account_id=found.id, sent_at=now()
                    )
                )
                others = connection.execute(
                    sa.select(db.seats.c.name)
                    .where(db.seats.c.match_id == match_id, db.seats.c.seat != seat)
                    .order_by(db.seats.c.seat)
                )
                opponents = [str(r.name) for r in others]
        except IntegrityError:  # told already (another process, or the same decision again)
            return None
        return TurnMail(
            account_id=str(found.id),
            email=str(found.email),
            name=str(found.name),
            language=str(found.language),
            match_id=match_id,
            game=str(found.game),
            opponents=opponents,
            deadline=_aware(found.deadline),
            time_zone=found.time_zone,
        )

    def compose(self, mail: TurnMail) -> EmailMessage:
        """The e-mail for ``mail``, in its account's language: subject, text, the link to
        the match and the one-click unsubscribe (RFC 2369, RFC 8058). The opponents' names
        are quoted and defanged (:func:`plain_name`), a deleted account's told in words
        (:func:`keltis.names.shown_name`); the account's own name is letters,
        digits, ``_`` and ``-`` only."""
        translate = Translator(mail.language if mail.language in LANGUAGES else "en")
        base = self.config.public_url
        unsubscribe = f"{base}/api/unsubscribe/{mail.account_id}/{self.token(mail.account_id)}"
        game = translate(f"title.{mail.game}")
        opponents = ", ".join(
            shown_name(translate, name) if is_deleted(name) else plain_name(name)
            for name in mail.opponents  # a deleted account's in words, not as a name
        )
        deadline = "" if mail.deadline is None else deadline_text(mail.deadline, mail.time_zone)
        message = EmailMessage(policy=POLICY)
        message["Subject"] = translate("mail.turn.subject", game=game, opponents=opponents)
        message["From"] = self.sender()
        message["To"] = mail.email
        message["Date"] = format_datetime(now())
        message["Message-ID"] = make_msgid("turn", domain=self._domain())
        message["Auto-Submitted"] = "auto-generated"
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(
            translate(
                "mail.turn.body",
                name=mail.name,
                game=game,
                opponents=opponents,
                deadline=deadline,
                link=f"{base}/#/match/{mail.match_id}",
                unsubscribe=unsubscribe,
            )
            + "\n"
        )
        return message

    # -- one-time links: a new password, a confirmed address ------------------------------

    def send_link(self, mail: LinkMail) -> None:
        """E-mail ``mail``'s link (in the background; returns at once, so that the answer
        to the request that asked for it says nothing of whether anything was sent)."""
        if self.enabled:
            self.background.spawn(self._send_link(mail))

    async def _send_link(self, mail: LinkMail) -> None:
        try:
            await asyncio.to_thread(self.deliver, self.compose_link(mail))
            log.info("e-mailed a %s link to account %s", mail.purpose, mail.account_id)
        except Exception:
            log.exception("could not e-mail a %s link to account %s", mail.purpose, mail.account_id)

    def compose_link(self, mail: LinkMail) -> EmailMessage:
        """The e-mail carrying ``mail``'s link, in its account's language. The account's
        name is letters, digits, ``_`` and ``-`` only; the link is the e-mail's one link."""
        translate = Translator(mail.language if mail.language in LANGUAGES else "en")
        base = self.config.public_url
        if mail.purpose == "reset":
            subject = translate("mail.reset.subject", name=mail.name)
            valid = translate("mail.reset.valid", count=mail.minutes)
            body = translate(
                "mail.reset.body", name=mail.name, link=f"{base}/#/reset/{mail.token}", valid=valid
            )
        else:
            subject = translate("mail.confirm.subject", name=mail.name)
            valid = translate("mail.confirm.valid", count=max(1, mail.minutes // 60))
            body = translate(
                "mail.confirm.body",
                name=mail.name,
                link=f"{base}/#/confirm/{mail.token}",
                valid=valid,
            )
        message = EmailMessage(policy=POLICY)
        message["Subject"] = subject
        message["From"] = self.sender()
        message["To"] = mail.email
        message["Date"] = format_datetime(now())
        message["Message-ID"] = make_msgid(mail.purpose, domain=self._domain())
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(body + "\n")
        return message

    def deliver(self, message: EmailMessage) -> None:
        """Send ``message`` through the configured SMTP server (thread; blocks)."""
        config = self.config
        assert config.smtp_host is not None
        port = config.smtp_port or DEFAULT_PORTS.get(config.smtp_tls, 25)
        smtp: smtplib.SMTP
        if config.smtp_tls == "tls":
            context = ssl.create_default_context()
            smtp = smtplib.SMTP_SSL(config.smtp_host, port, timeout=SMTP_TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(config.smtp_host, port, timeout=SMTP_TIMEOUT)
        with smtp:
            if config.smtp_tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if config.smtp_user is not None:
                smtp.login(config.smtp_user, config.smtp_password or "")
            smtp.send_message(message)

    def sender(self) -> str:
        """The e-mails' ``From``: ``--smtp-from``, else ``keltis@`` the public host."""
        return self.config.smtp_from or f"keltis@{self._domain()}"

    def _domain(self) -> str:
        return urlsplit(self.config.public_url).hostname or "localhost"

    # -- the one-click unsubscribe ---------------------------------------------------------

    def token(self, account_id: str) -> str:
        """The secret of ``account_id``'s unsubscribe link."""
        return self.accounts.derive(f"unsubscribe:{account_id}")

    def token_ok(self, account_id: str, token: str) -> bool:
        """Whether ``token`` is ``account_id``'s unsubscribe token (compared in constant
        time; any text is safe to give)."""
        if not 0 < len(account_id) <= MAX_ACCOUNT_ID or len(token) > 100:
            return False
        expected = self.token(account_id).encode()
        return hmac.compare_digest(expected, token.encode("utf-8", "surrogatepass"))

    def unsubscribe(self, account_id: str, token: str) -> bool:
        """Turn off the turn e-mails of ``account_id`` if ``token`` is its unsubscribe token
        (thread); ``False`` for a wrong token or an unknown account alike."""
        if not self.token_ok(account_id, token):
            return False
        with self.engine.begin() as connection:
            updated = connection.execute(
                db.accounts.update().where(db.accounts.c.id == account_id).values(email_turns=False)
            )
        return updated.rowcount == 1
