"""Reports, blocks and moderation (docs/server.md, "Reports and blocks", "Moderation").

**Blocks.** An account blocks another (``blocks``): from then on neither joins a seek the
other sits in nor a match the other plays (``block.play``, 403), and neither hears the
other's chat — the history leaves it out and the live messages are not sent
(:mod:`keltis.server.chat`). A block works both ways whoever made it; only its maker sees
it in its list and can lift it.

**Reports.** A logged-in account reports another (``reports``): a reason of
:data:`REASONS`, a short text (one line, checked as chat is), and where — a match, a chat
line of it. :data:`REPORTS_PER_DAY` reports a day per account and :data:`REPORTS_ABOUT_ONE`
about one account (``429`` ``report.too_many``), counted in the transaction that stores the
report, with the reporter's row locked, so parallel reports cannot pass the limits.

**Moderators** (``accounts.moderator_since``, granted and revoked by ``keltis admin``) read
the open reports — each with the reported chat lines in context —, the flagged rated
results (``rating_flags``, :mod:`keltis.server.ratings`) and the log, and act: warn (the
account sees the warning on its next page, ``warnings``), mute for a time
(``accounts.muted_until``: its chat refused until then), suspend (as ``keltis admin
suspend``: no log-in, its sessions and seat tokens end) and lift it, close a report, resolve a flag,
void a rated result (:func:`keltis.server.ratings.void_result`). Every action is written
to ``admin_log`` in its own transaction: who (the moderator's name and account), what,
about whom, why, and the report or match it was about.

Every call is one short transaction, run in a worker thread by the routes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keltis.names import DELETED_NAME
from keltis.server import db
from keltis.server.accounts import Account, AccountStore
from keltis.server.answers import RefusedError, printable
from keltis.server.ratings import NotVoidableError, void_result
from keltis.server.store import _aware, now
from keltis.server.textcheck import refused_character

#: Why a player is reported: cheating, abuse in chat, an offensive name, stalling (never
#: moving, letting the clock run), something else (say what in the text).
Reason = Literal["cheating", "chat_abuse", "offensive_name", "stalling", "other"]
REASONS: tuple[str, ...] = get_args(Reason)
#: The longest text of a report (characters, one line).
MAX_REPORT_TEXT = 500
#: Reports one account may send within :data:`REPORT_WINDOW` …
REPORTS_PER_DAY = 10
#: … and about one other account.
REPORTS_ABOUT_ONE = 3
REPORT_WINDOW = timedelta(days=1)
#: The most accounts one account may block.
MAX_BLOCKS = 500
#: A moderator's reason (why; a warning's text): 1 to this many characters on one line
#: (the size of ``accounts.suspended_reason``, as ``keltis admin suspend`` takes it).
MAX_REASON = 200
#: The longest mute a moderator gives (minutes: 30 days).
MAX_MUTE_MINUTES = 30 * 24 * 60
#: Chat lines shown before and after a reported line.
CONTEXT = 5
#: Chat lines of a reported match shown when no line was reported (the newest).
MATCH_CONTEXT = 50
#: Reports and flags a moderator's list shows unless asked for fewer.
LIST_LIMIT = 100


class ReportLimitError(RefusedError):
    """A report over the reporter's limits: ``429`` ``report.too_many``, and the seconds
    until the oldest report counted leaves the window (``Retry-After``)."""

    def __init__(self, wait: float, **params: Any) -> None:
        super().__init__("report.too_many", status=429, **params)
        self.wait = wait


def one_line(text: str, limit: int, *, empty: bool, too_long: str, control: str) -> str:
    """``text`` trimmed: at most ``limit`` characters (``empty``: none allowed), none that
    no chat line may hold (control characters, line breaks, separators, invisible
    formatting); else :class:`RefusedError` ``too_long`` or ``control`` (400)."""
    trimmed = text.strip()
    if not trimmed and not empty:
        raise RefusedError(control, status=400, limit=limit)
    if len(trimmed) > limit:
        raise RefusedError(too_long, status=400, limit=limit, length=len(trimmed))
    if refused_character(trimmed) is not None:
        raise RefusedError(control, status=400, limit=limit)
    return trimmed


def reason_text(text: str) -> str:
    """A moderator's reason: 1 to :data:`MAX_REASON` characters on one line
    (``moderation.bad_reason``)."""
    return one_line(
        text,
        MAX_REASON,
        empty=False,
        too_long="moderation.bad_reason",
        control="moderation.bad_reason",
    )


def when_text(value: datetime) -> str:
    """A moment as a message shows it: ``2026-11-27 18:04 UTC``."""
    return value.strftime("%Y-%m-%d %H:%M UTC")


def _iso(value: Any) -> str | None:
    aware = _aware(value)
    return None if aware is None else aware.isoformat()


def suspend_account(
    connection: sa.Connection, accounts: AccountStore, account_id: str, reason: str
) -> None:
    """Suspend the account in the caller's transaction (``keltis admin suspend`` and a
    moderator alike): it cannot log in, its chat is hidden, its seeks are not shown, its
    sessions end and its seats' tokens change (:meth:`AccountStore.revoke_seats`; the
    caller then tells the server processes, :meth:`MatchMaster.seats_revoked`)."""
    connection.execute(
        db.accounts.update()
        .where(db.accounts.c.id == account_id)
        .values(suspended_at=now(), suspended_reason=reason)
    )
    connection.execute(
        db.login_sessions.delete().where(db.login_sessions.c.account_id == account_id)
    )
    accounts.revoke_seats(connection, account_id)


def blocked_pairs(
    connection: sa.Connection, readers: Iterable[str], authors: Iterable[str]
) -> set[tuple[str, str]]:
    """The pairs ``(reader, author)`` of these accounts between which a block stands,
    whichever of the two made it (one query)."""
    readers, authors = sorted(set(readers)), sorted(set(authors))
    if not readers or not authors:
        return set()
    b = db.blocks.c
    rows = connection.execute(
        sa.select(b.account_id, b.blocked_id).where(
            sa.or_(
                sa.and_(b.account_id.in_(readers), b.blocked_id.in_(authors)),
                sa.and_(b.account_id.in_(authors), b.blocked_id.in_(readers)),
            )
        )
    ).all()
    pairs: set[tuple[str, str]] = set()
    for maker, blocked in rows:
        if maker in readers and blocked in authors:
            pairs.add((str(maker), str(blocked)))
        if blocked in readers and maker in authors:
            pairs.add((str(blocked), str(maker)))
    return pairs


class Moderation:
    """Blocks, reports, warnings and the moderators' work in the server's database."""

    def __init__(self, engine: Engine, accounts: AccountStore) -> None:
        self.engine = engine
        self.accounts = accounts

    # -- blocks ----------------------------------------------------------------------------

    def blocks(self, account: Account) -> list[str]:
        """The names of the accounts ``account`` blocked, by name."""
        query = (
            sa.select(db.accounts.c.name)
            .join(db.blocks, db.blocks.c.blocked_id == db.accounts.c.id)
            .where(db.blocks.c.account_id == account.id)
            .order_by(db.accounts.c.name_key)
        )
        with self.engine.connect() as connection:
            return [str(r.name) for r in connection.execute(query)]

    def block(self, account: Account, name: str, on: bool) -> None:
        """Block (``on``) or unblock the account ``name`` for ``account``: ``404`` for no
        such account, ``400`` ``block.self``, ``409`` ``block.too_many`` beyond
        :data:`MAX_BLOCKS`."""
        other = self.accounts.by_name(name)
        if other is None:
            raise RefusedError("account.no_player", status=404, name=printable(name))
        if other.id == account.id:
            raise RefusedError("block.self", status=400)
        mine = sa.and_(db.blocks.c.account_id == account.id, db.blocks.c.blocked_id == other.id)
        with self.engine.begin() as connection:
            connection.execute(db.blocks.delete().where(mine))
            if not on:
                return
            connection.execute(
                db.blocks.insert().values(account_id=account.id, blocked_id=other.id, at=now())
            )
            held = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.blocks)
                .where(db.blocks.c.account_id == account.id)
            ).scalar_one()
            if held > MAX_BLOCKS:
                raise RefusedError("block.too_many", status=409, limit=MAX_BLOCKS)

    def blocked_between(self, account_id: str, others: Iterable[str]) -> bool:
        """Whether a block stands between ``account_id`` and any of ``others`` (made by
        either)."""
        others = [o for o in set(others) if o != account_id]
        if not others:
            return False
        with self.engine.connect() as connection:
            return bool(blocked_pairs(connection, [account_id], others))

    # -- reports ---------------------------------------------------------------------------

    def report(
        self,
        reporter: Account,
        name: str,
        reason: str,
        text: str,
        match_id: str | None,
        chat_id: int | None,
    ) -> int:
        """``reporter`` reports the account ``name``: the new report's id. Refused: no such
        account (404), oneself, a text that is too long or not one line of plain text, no
        text for ``other``, a chat line that is not the reported account's or not of the
        match, a match the reported account did not play or chat in (400), a chat line or
        match that does not exist (404), and beyond the limits (:class:`ReportLimitError`)."""
        if reason not in REASONS:
            raise RefusedError("server.bad_request", status=400, detail="reason")
        reported = self.accounts.by_name(name)
        if reported is None:
            raise RefusedError("account.no_player", status=404, name=printable(name))
        if reported.id == reporter.id:
            raise RefusedError("report.self", status=400)
        clean = one_line(
            text,
            MAX_REPORT_TEXT,
            empty=True,
            too_long="report.too_long",
            control="report.control",
        )
        if not clean and reason == "other":
            raise RefusedError("report.text_needed", status=400)
        when = now()
        with self.engine.begin() as connection:
            match_id = _reported_place(connection, reported, match_id, chat_id)
            # the reporter's row locked (PostgreSQL; SQLite's insert takes the write lock
            # before the counts): reports sent at once are counted one after the other
            connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.id == reporter.id).with_for_update()
            )
            inserted = connection.execute(
                db.reports.insert().values(
                    at=when,
                    reporter_id=reporter.id,
                    reporter=reporter.name,
                    reported_id=reported.id,
                    reported=reported.name,
                    reason=reason,
                    text=clean,
                    match_id=match_id,
                    chat_id=chat_id,
                    status="open",
                )
            )
            _check_report_limits(connection, reporter, reported, when)
            key = inserted.inserted_primary_key
            assert key is not None
            return int(key[0])

    def reports(self, status: str, limit: int) -> list[dict[str, Any]]:
        """The reports with ``status`` (``open``, ``closed``; ``all``), the open ones oldest
        first, others newest first: each as :meth:`_report_json` with its context."""
        r = db.reports.c
        query = sa.select(db.reports)
        if status != "all":
            query = query.where(r.status == status)
        query = query.order_by(r.id if status == "open" else r.id.desc()).limit(limit)
        with self.engine.connect() as connection:
            rows = [row._mapping for row in connection.execute(query)]
            return [self._report_json(connection, row) for row in rows]

    def report_json(self, report_id: int) -> dict[str, Any]:
        """One report with its context (``404`` ``moderation.no_report``)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(db.reports).where(db.reports.c.id == report_id)
            ).first()
            if row is None:
                raise RefusedError("moderation.no_report", status=404)
            return self._report_json(connection, row._mapping)

    def _report_json(self, connection: sa.Connection, row: Any) -> dict[str, Any]:
        """A report as the moderation page shows it: who reported whom, why, where; the
        reported account's state and its open reports; the chat lines in context."""
        account = None
        if row["reported_id"] is not None:
            found = connection.execute(
                sa.select(db.accounts).where(db.accounts.c.id == row["reported_id"])
            ).first()
            if found is not None:
                values = found._mapping
                open_reports = connection.execute(
                    sa.select(sa.func.count())
                    .select_from(db.reports)
                    .where(
                        db.reports.c.reported_id == row["reported_id"],
                        db.reports.c.status == "open",
                    )
                ).scalar_one()
                account = {
                    "name": str(values["name"]),
                    "suspended": values["suspended_at"] is not None,
                    "muted_until": _iso(_active_mute(values.get("muted_until"))),
                    "moderator": values.get("moderator_since") is not None,
                    "open_reports": int(open_reports),
                }
        return {
            "id": int(row["id"]),
            "at": _iso(row["at"]),
            "by": str(row["reporter"]),
            "name": str(row["reported"]),
            "reason": str(row["reason"]),
            "text": str(row["text"]),
            "match": row["match_id"],
            "chat_line": row["chat_id"],
            "status": str(row["status"]),
            "closed_at": _iso(row["closed_at"]),
            "closed_by": row["closed_by"],
            "note": row["note"],
            "account": account,
            "context": self._context(connection, row),
        }

    def _context(self, connection: sa.Connection, row: Any) -> list[dict[str, Any]]:
        """The chat lines a moderator reads with a report: the reported line and the
        :data:`CONTEXT` lines before and after it on its channel; without a line, the
        match's newest :data:`MATCH_CONTEXT` lines (every channel). Each marks whether the
        reported account wrote it (``by_reported``) and whether it is the reported line."""
        match_id, chat_id = row["match_id"], row["chat_id"]
        if match_id is None:
            return []
        c = db.chat.c
        columns = [c.id, c.channel, c.seat, c.name, c.account_id, c.text, c.at]
        if chat_id is not None:
            line = connection.execute(
                sa.select(c.channel).where(c.id == chat_id, c.match_id == match_id)
            ).first()
            if line is None:
                return []
            same = sa.and_(c.match_id == match_id, c.channel == line.channel)
            before = connection.execute(
                sa.select(*columns).where(same, c.id < chat_id).order_by(c.id.desc()).limit(CONTEXT)
            ).all()
            after = connection.execute(
                sa.select(*columns).where(same, c.id >= chat_id).order_by(c.id).limit(CONTEXT + 1)
            ).all()
            lines = [*reversed(before), *after]
        else:
            lines = list(
                reversed(
                    connection.execute(
                        sa.select(*columns)
                        .where(c.match_id == match_id)
                        .order_by(c.id.desc())
                        .limit(MATCH_CONTEXT)
                    ).all()
                )
            )
        return [
            {
                "id": int(line.id),
                "channel": str(line.channel),
                "seat": line.seat,
                "name": str(line.name),
                "text": str(line.text),
                "at": _iso(line.at),
                "by_reported": line.account_id is not None
                and line.account_id == row["reported_id"],
                "reported": chat_id is not None and int(line.id) == int(chat_id),
            }
            for line in lines
        ]

    # -- the moderators' actions -----------------------------------------------------------

    def is_moderator(self, account_id: str) -> bool:
        """Whether the account is a moderator now (read at every moderator request: a
        revoked moderator can do nothing more)."""
        with self.engine.connect() as connection:
            since = connection.execute(
                sa.select(db.accounts.c.moderator_since).where(db.accounts.c.id == account_id)
            ).scalar_one_or_none()
        return since is not None

    def _target(self, moderator: Account, name: str) -> Account:
        """The account a moderator acts on (``404``; ``400`` ``moderation.self``)."""
        target = self.accounts.by_name(name)
        if target is None:
            raise RefusedError("account.no_player", status=404, name=printable(name))
        if target.id == moderator.id:
            raise RefusedError("moderation.self", status=400)
        return target

    def _check_report(self, connection: sa.Connection, report_id: int | None) -> None:
        if report_id is not None:
            found = connection.execute(
                sa.select(db.reports.c.id).where(db.reports.c.id == report_id)
            ).first()
            if found is None:
                raise RefusedError("moderation.no_report", status=404)

    def warn(
        self, moderator: Account, name: str, reason: str, report_id: int | None
    ) -> dict[str, Any]:
        """Warn the account ``name``: ``reason`` is what it reads on its next page (``GET
        /api/sessions/current``'s ``warnings``) until it says it has read it."""
        text = reason_text(reason)
        target = self._target(moderator, name)
        with self.engine.begin() as connection:
            self._check_report(connection, report_id)
            connection.execute(
                db.warnings.insert().values(
                    account_id=target.id, at=now(), moderator=moderator.name, text=text
                )
            )
            _logged(connection, moderator, "warn", target.name, text, report_id)
        return {"name": target.name, "action": "warn"}

    def mute(
        self, moderator: Account, name: str, minutes: int, reason: str, report_id: int | None
    ) -> dict[str, Any]:
        """Mute the account ``name`` for ``minutes`` (0: lift its mute): its chat messages
        are refused until then (``chat.muted``)."""
        text = reason_text(reason)
        target = self._target(moderator, name)
        until = None if minutes == 0 else now() + timedelta(minutes=minutes)
        with self.engine.begin() as connection:
            self._check_report(connection, report_id)
            connection.execute(
                db.accounts.update().where(db.accounts.c.id == target.id).values(muted_until=until)
            )
            detail = text if until is None else f"until {when_text(until)}: {text}"
            _logged(
                connection, moderator, "mute" if until else "unmute", target.name, detail, report_id
            )
        return {"name": target.name, "action": "mute", "until": _iso(until)}

    def suspend(
        self, moderator: Account, name: str, reason: str, report_id: int | None
    ) -> tuple[str, dict[str, Any]]:
        """Suspend the account ``name`` (:func:`suspend_account`): its id (the caller tells
        the server processes its seat tokens changed) and the answer."""
        text = reason_text(reason)
        target = self._target(moderator, name)
        if target.suspended:
            raise RefusedError("moderation.suspended", status=409, name=target.name)
        with self.engine.begin() as connection:
            self._check_report(connection, report_id)
            suspend_account(connection, self.accounts, target.id, text)
            _logged(connection, moderator, "suspend", target.name, text, report_id)
        return target.id, {"name": target.name, "action": "suspend"}

    def unsuspend(
        self, moderator: Account, name: str, reason: str, report_id: int | None
    ) -> dict[str, Any]:
        """Lift the suspension of the account ``name`` (as ``keltis admin unsuspend``): it
        may log in again and its chat is shown again (``409`` ``moderation.not_suspended``
        if it is not suspended). Its old sessions and seat tokens stay ended."""
        text = reason_text(reason)
        target = self._target(moderator, name)
        if not target.suspended:
            raise RefusedError("moderation.not_suspended", status=409, name=target.name)
        with self.engine.begin() as connection:
            self._check_report(connection, report_id)
            connection.execute(
                db.accounts.update()
                .where(db.accounts.c.id == target.id)
                .values(suspended_at=None, suspended_reason=None)
            )
            _logged(connection, moderator, "unsuspend", target.name, text, report_id)
        return {"name": target.name, "action": "unsuspend"}

    def close_report(self, moderator: Account, report_id: int, reason: str) -> dict[str, Any]:
        """Close an open report with a note (``409`` ``moderation.closed`` if it is)."""
        text = reason_text(reason)
        with self.engine.begin() as connection:
            row = connection.execute(
                sa.select(db.reports.c.reported).where(db.reports.c.id == report_id)
            ).first()
            if row is None:
                raise RefusedError("moderation.no_report", status=404)
            closed = connection.execute(
                db.reports.update()
                .where(db.reports.c.id == report_id, db.reports.c.status == "open")
                .values(status="closed", closed_at=now(), closed_by=moderator.name, note=text)
            )
            if closed.rowcount != 1:
                raise RefusedError("moderation.closed", status=409)
            _logged(connection, moderator, "close-report", str(row.reported), text, report_id)
        return self.report_json(report_id)

    def void(
        self,
        moderator: Account,
        match_id: str,
        reason: str,
        report_id: int | None,
        flag_id: int | None,
    ) -> dict[str, Any]:
        """Void the rated result of ``match_id`` (:func:`keltis.server.ratings.void_result`):
        ``404`` for no such match, ``409`` ``moderation.not_voidable``."""
        text = reason_text(reason)
        with self.engine.begin() as connection:
            self._check_report(connection, report_id)
            found = connection.execute(
                sa.select(db.matches.c.id).where(db.matches.c.id == match_id)
            ).first()
            if found is None:
                raise RefusedError("server.no_match", status=404)
            try:
                players = void_result(connection, match_id, now())
            except NotVoidableError:
                raise RefusedError("moderation.not_voidable", status=409) from None
            names = _player_names(connection, players)
            detail = f"{text} (ratings of {', '.join(names) or 'nobody'} taken back)"
            if flag_id is not None:
                detail += f" [flag {flag_id}]"
            _logged(connection, moderator, "void", match_id, detail, report_id, match_id)
        return {"match": match_id, "action": "void", "players": names}

    # -- flags -----------------------------------------------------------------------------

    def flags(self, status: str, limit: int) -> list[dict[str, Any]]:
        """The flagged rated results (``rating_flags``) with ``status`` (``open``,
        ``resolved``; ``all``), newest first: the two accounts by name, the address, each
        match (its game, when it was rated, whether it is voided)."""
        f = db.rating_flags.c
        query = sa.select(db.rating_flags).order_by(f.id.desc()).limit(limit)
        if status == "open":
            query = query.where(f.resolved_at.is_(None))
        elif status == "resolved":
            query = query.where(f.resolved_at.is_not(None))
        with self.engine.connect() as connection:
            rows = [r._mapping for r in connection.execute(query)]
            ids = {str(r[side]) for r in rows for side in ("account_a", "account_b")}
            names = _names(connection, ids)
            match_ids = sorted({str(m) for r in rows for m in r["matches"]})
            matches = {
                str(m.id): m
                for m in connection.execute(
                    sa.select(
                        db.matches.c.id,
                        db.matches.c.game,
                        db.matches.c.rated_at,
                        db.matches.c.voided_at,
                    ).where(db.matches.c.id.in_(match_ids))
                )
            }
        out = []
        for row in rows:
            listed = []
            for match_id in row["matches"]:
                found = matches.get(str(match_id))
                listed.append(
                    {
                        "id": str(match_id),
                        "game": None if found is None else str(found.game),
                        "rated_at": None if found is None else _iso(found.rated_at),
                        "voided": found is not None and found.voided_at is not None,
                    }
                )
            out.append(
                {
                    "id": int(row["id"]),
                    "reason": str(row["reason"]),
                    "accounts": [
                        names.get(str(row[side]), DELETED_NAME)
                        for side in ("account_a", "account_b")
                    ],
                    "address": row["address"],
                    "matches": listed,
                    "created": _iso(row["created_at"]),
                    "updated": _iso(row["updated_at"]),
                    "resolved_at": _iso(row["resolved_at"]),
                }
            )
        return out

    def resolve_flag(self, moderator: Account, flag_id: int, reason: str) -> dict[str, Any]:
        """Mark a flag resolved (``404`` ``moderation.no_flag``, ``409``
        ``moderation.resolved``)."""
        text = reason_text(reason)
        with self.engine.begin() as connection:
            row = connection.execute(
                sa.select(db.rating_flags).where(db.rating_flags.c.id == flag_id)
            ).first()
            if row is None:
                raise RefusedError("moderation.no_flag", status=404)
            resolved = connection.execute(
                db.rating_flags.update()
                .where(db.rating_flags.c.id == flag_id, db.rating_flags.c.resolved_at.is_(None))
                .values(resolved_at=now())
            )
            if resolved.rowcount != 1:
                raise RefusedError("moderation.resolved", status=409)
            values = row._mapping
            pair = _names(connection, {str(values["account_a"]), str(values["account_b"])})
            target = " and ".join(
                pair.get(str(values[side]), DELETED_NAME) for side in ("account_a", "account_b")
            )
            _logged(connection, moderator, "resolve-flag", target[:64], f"{text} [flag {flag_id}]")
        return {"flag": flag_id, "action": "resolve"}

    # -- the log ---------------------------------------------------------------------------

    def log(self, limit: int) -> list[dict[str, Any]]:
        """The moderation log (``admin_log``: ``keltis admin``'s actions and the
        moderators'), newest first."""
        a = db.admin_log.c
        query = sa.select(db.admin_log).order_by(a.id.desc()).limit(limit)
        with self.engine.connect() as connection:
            rows = [r._mapping for r in connection.execute(query)]
        return [
            {
                "id": int(row["id"]),
                "at": _iso(row["at"]),
                "by": str(row["actor"]),
                "web": row.get("actor_account") is not None,
                "action": str(row["action"]),
                "target": str(row["target"]),
                "reason": str(row["detail"]),
                "report": row.get("report_id"),
                "match": row.get("match_id"),
            }
            for row in rows
        ]

    # -- an account's own warnings ---------------------------------------------------------

    def warnings(
        self, account_id: str, connection: sa.Connection | None = None
    ) -> list[dict[str, Any]]:
        """The warnings the account has not said it read, oldest first (read through
        ``connection`` if given)."""
        w = db.warnings.c
        query = (
            sa.select(w.id, w.at, w.text)
            .where(w.account_id == account_id, w.seen_at.is_(None))
            .order_by(w.id)
        )
        if connection is None:
            with db.reading(self.engine) as own:
                return self.warnings(account_id, own)
        return [
            {"id": int(r.id), "at": _iso(r.at), "text": str(r.text)}
            for r in connection.execute(query)
        ]

    def seen(self, account_id: str, warning_id: int) -> None:
        """The account read its warning ``warning_id`` (``404`` ``moderation.no_warning``
        if it has no such warning unread)."""
        w = db.warnings.c
        with self.engine.begin() as connection:
            done = connection.execute(
                db.warnings.update()
                .where(w.id == warning_id, w.account_id == account_id, w.seen_at.is_(None))
                .values(seen_at=now())
            )
        if done.rowcount != 1:
            raise RefusedError("moderation.no_warning", status=404)


def _active_mute(value: Any) -> datetime | None:
    """A stored ``muted_until`` if it is still to come."""
    until = _aware(value)
    return until if until is not None and until > now() else None


def muted_until(connection: sa.Connection, account_id: str) -> datetime | None:
    """Until when a moderator muted the account (``None``: it is not muted now)."""
    value = connection.execute(
        sa.select(db.accounts.c.muted_until).where(db.accounts.c.id == account_id)
    ).scalar_one_or_none()
    return _active_mute(value)


def _names(connection: sa.Connection, ids: Iterable[str]) -> dict[str, str]:
    """The names of the accounts ``ids`` (a deleted one is missing)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    return {
        str(r.id): str(r.name)
        for r in connection.execute(
            sa.select(db.accounts.c.id, db.accounts.c.name).where(db.accounts.c.id.in_(wanted))
        )
    }


def _player_names(connection: sa.Connection, players: list[str]) -> list[str]:
    """Rated players (``account:<id>``, ``bot:<level>``) by name."""
    accounts = _names(
        connection, [p.removeprefix("account:") for p in players if p.startswith("account:")]
    )
    return [
        accounts.get(p.removeprefix("account:"), DELETED_NAME) if p.startswith("account:") else p
        for p in players
    ]


def _logged(
    connection: sa.Connection,
    moderator: Account,
    action: str,
    target: str,
    detail: str,
    report_id: int | None = None,
    match_id: str | None = None,
) -> None:
    """One ``admin_log`` entry for a moderator's action, in the action's transaction."""
    connection.execute(
        db.admin_log.insert().values(
            at=now(),
            actor=moderator.name,
            actor_account=moderator.id,
            action=action,
            target=target[:64],
            detail=detail,
            report_id=report_id,
            match_id=match_id,
        )
    )


def _reported_place(
    connection: sa.Connection, reported: Account, match_id: str | None, chat_id: int | None
) -> str | None:
    """The match a report is about, checked: its chat line is the reported account's (and of
    that match), or the reported account took part in the match (refusals as
    :meth:`Moderation.report` says)."""
    if chat_id is not None:
        line = connection.execute(
            sa.select(db.chat.c.match_id, db.chat.c.account_id).where(db.chat.c.id == chat_id)
        ).first()
        if line is None or (match_id is not None and line.match_id != match_id):
            raise RefusedError("report.no_line", status=404)
        if line.account_id != reported.id:
            raise RefusedError("report.not_theirs", status=400, name=reported.name)
        match_id = str(line.match_id)
    elif match_id is not None:
        found = connection.execute(
            sa.select(db.matches.c.id).where(db.matches.c.id == match_id)
        ).first()
        if found is None:
            raise RefusedError("server.no_match", status=404)
        took_part = connection.execute(
            sa.select(
                sa.exists().where(
                    db.seats.c.match_id == match_id, db.seats.c.account_id == reported.id
                )
                | sa.exists().where(
                    db.chat.c.match_id == match_id, db.chat.c.account_id == reported.id
                )
            )
        ).scalar_one()
        if not took_part:
            raise RefusedError("report.not_in_match", status=400, name=reported.name)
    return match_id


def _check_report_limits(
    connection: sa.Connection, reporter: Account, reported: Account, when: datetime
) -> None:
    """Over :data:`REPORTS_ABOUT_ONE` reports about one account or :data:`REPORTS_PER_DAY`
    in all within :data:`REPORT_WINDOW` (the new one counted): :class:`ReportLimitError`."""
    since = when - REPORT_WINDOW
    r = db.reports.c
    recent = [
        (_aware(row.at), str(row.reported_id))
        for row in connection.execute(
            sa.select(r.at, r.reported_id)
            .where(r.reporter_id == reporter.id, r.at > since)
            .order_by(r.at)
        )
    ]
    about = [at for at, whom in recent if whom == reported.id]
    for counted, limit in (
        (about, REPORTS_ABOUT_ONE),
        ([at for at, _ in recent], REPORTS_PER_DAY),
    ):
        if len(counted) > limit:
            oldest = counted[-limit - 1] or when
            wait = max(1.0, (oldest + REPORT_WINDOW - when).total_seconds())
            raise ReportLimitError(
                wait,
                day=REPORTS_PER_DAY,
                about=REPORTS_ABOUT_ONE,
                name=reported.name,
            )
