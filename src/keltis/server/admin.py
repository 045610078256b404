"""``keltis admin``: moderation from the command line (docs/server.md, "Moderation").

Run on the server's machine against the server's database (``--db``, as ``keltis serve``
takes it): list the accounts, reset an account's password (a new random one is printed),
suspend an account (it cannot log in, its chat is hidden, its sessions end) and lift a
suspension, and read the log of these actions; list the rated results flagged for
moderators (``flags``); make an account a moderator, who moderates on the web
(``grant-moderator``), and take the role back (``revoke-moderator``). Every action is
written to ``admin_log`` with the operating-system user who ran it (a moderator's actions
on the web with the moderator's name), so that a moderation can always be traced.

Nothing heavy is imported at the top: ``keltis --help`` builds this command's parser.
"""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

#: The longest suspension reason (the ``accounts.suspended_reason`` column's size).
MAX_REASON = 200
#: The log entries ``keltis admin log`` shows unless ``--limit`` says otherwise.
LOG_LIMIT = 100


class AdminError(Exception):
    """An action that cannot be done: one line for standard error (exit status 1)."""


def add_admin_parser(sub: Any) -> None:
    """``keltis admin``'s options and sub-commands on the ``keltis`` command's sub-parsers."""
    admin = sub.add_parser(
        "admin",
        help="moderate the game server's accounts (list, reset a password, suspend)",
        description="Moderate the accounts of a Keltis game server: list them, reset a "
        "password, suspend and unsuspend, read the log of these actions (each is logged "
        "with your operating-system user). See docs/server.md, Moderation.",
    )
    _add_db(admin, None)
    actions = admin.add_subparsers(dest="admin_command", metavar="ACTION", required=True)

    listing = actions.add_parser("list", help="the accounts: name, created, e-mail, state")
    listing.add_argument("--suspended", action="store_true", help="only suspended accounts")
    listing.add_argument("--name", metavar="TEXT", help="only names holding TEXT (any case)")
    reset = actions.add_parser(
        "reset-password", help="give an account a new random password (printed); its sessions end"
    )
    reset.add_argument("name", metavar="NAME")
    suspend = actions.add_parser(
        "suspend", help="suspend an account: it cannot log in, its chat is hidden, sessions end"
    )
    suspend.add_argument("name", metavar="NAME")
    suspend.add_argument(
        "--reason", required=True, help=f"why (1-{MAX_REASON} characters), kept in the log"
    )
    unsuspend = actions.add_parser("unsuspend", help="lift an account's suspension")
    unsuspend.add_argument("name", metavar="NAME")
    log = actions.add_parser("log", help="every moderation action, newest first")
    log.add_argument(
        "--limit",
        type=int,
        default=LOG_LIMIT,
        metavar="N",
        help=f"show at most N entries ({LOG_LIMIT}; 0: all)",
    )
    flags = actions.add_parser(
        "flags",
        help="rated results flagged for moderators (the same two accounts, one address)",
    )
    flags.add_argument(
        "--limit",
        type=int,
        default=LOG_LIMIT,
        metavar="N",
        help=f"show at most N flags, newest first ({LOG_LIMIT}; 0: all)",
    )
    grant = actions.add_parser(
        "grant-moderator",
        help="make an account a moderator: it reads reports and acts on them on the web",
    )
    grant.add_argument("name", metavar="NAME")
    revoke = actions.add_parser("revoke-moderator", help="take an account's moderator role back")
    revoke.add_argument("name", metavar="NAME")
    for action in (listing, reset, suspend, unsuspend, log, flags, grant, revoke):
        _add_db(action, argparse.SUPPRESS)  # --db also after the action


def _add_db(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument(
        "--db",
        default=default,
        metavar="URL",
        help="the server's database (default as keltis serve's: $KELTIS_DATABASE_URL, else "
        "SQLite at $XDG_DATA_HOME/keltis/server.sqlite3)",
    )


def actor() -> str:
    """Who runs the command: the operating-system user (written to ``admin_log``)."""
    try:
        return getpass.getuser()[:64]
    except (OSError, KeyError, ImportError):  # no user name anywhere: the user id
        return f"uid {os.getuid()}" if hasattr(os, "getuid") else "unknown"


def run_admin(args: argparse.Namespace) -> int:
    """Run ``keltis admin``: 0 when done, 1 for an action that cannot be done (one line on
    standard error), 2 for a database URL that is none."""
    # the server's extra, imported only to administer: keltis --help imports this module
    try:
        import sqlalchemy as sa

        from keltis.server.db import checked_url, default_url, make_engine, migrate
    except ImportError as error:
        print(
            f"keltis admin: needs the server's extra: pip install 'keltis[server]' ({error})",
            file=sys.stderr,
        )
        return 2
    try:
        url = checked_url(args.db or os.environ.get("KELTIS_DATABASE_URL") or default_url())
    except ValueError as error:
        print(f"keltis admin: {error}", file=sys.stderr)
        return 2
    engine = make_engine(url)
    try:
        migrate(engine)
        ACTIONS[args.admin_command](engine, args)
    except AdminError as error:
        print(f"keltis admin: {error}", file=sys.stderr)
        return 1
    except sa.exc.SQLAlchemyError as error:
        shown = sa.make_url(url).render_as_string(hide_password=True)
        reason = str(error.orig if isinstance(error, sa.exc.DBAPIError) else error)
        print(
            f"keltis admin: the database {shown} cannot be used: {reason.splitlines()[0]}",
            file=sys.stderr,
        )
        return 1
    finally:
        engine.dispose()
    return 0


# -- the actions ---------------------------------------------------------------------------


def _account(engine: Engine, name: str) -> Any:
    """The account row named ``name`` (any case); :class:`AdminError` if there is none."""
    import sqlalchemy as sa  # loaded by run_admin already; here for the name

    from keltis.server import db
    from keltis.server.accounts import name_key  # the server's modules load when it runs

    with engine.connect() as connection:
        row = connection.execute(
            sa.select(db.accounts).where(db.accounts.c.name_key == name_key(name))
        ).first()
    if row is None:
        raise AdminError(f"there is no account named {name!r}")
    return row._mapping


def _logged(connection: Any, action: str, target: str, detail: str) -> None:
    """Write one ``admin_log`` entry (in the action's own transaction)."""
    from keltis.server import db  # the server's modules load when it runs
    from keltis.server.store import now

    connection.execute(
        db.admin_log.insert().values(
            at=now(), actor=actor(), action=action, target=target, detail=detail
        )
    )


def _when(value: datetime | None) -> str:
    """A stored time as shown: UTC, to the second."""
    from keltis.server.store import _aware  # the server's modules load when it runs

    aware = _aware(value)
    return "-" if aware is None else aware.strftime("%Y-%m-%d %H:%M:%S UTC")


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    """Print ``rows`` under ``header`` in aligned columns (the last one as it is)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]).rstrip())


def list_accounts(engine: Engine, args: argparse.Namespace) -> None:
    """``list [--suspended] [--name TEXT]``: the accounts by name."""
    import sqlalchemy as sa  # loaded by run_admin already; here for the name

    from keltis.server import db
    from keltis.server.accounts import name_key  # the server's modules load when it runs

    query = sa.select(db.accounts).order_by(db.accounts.c.name_key)
    if args.suspended:
        query = query.where(db.accounts.c.suspended_at.is_not(None))
    if args.name:
        query = query.where(db.accounts.c.name_key.contains(name_key(args.name), autoescape=True))
    with engine.connect() as connection:
        found = [r._mapping for r in connection.execute(query)]
    if not found:
        print("No accounts.")
        return
    rows = []
    for account in found:
        state = "active"
        if account["suspended_at"] is not None:
            state = f"suspended {_when(account['suspended_at'])}: {account['suspended_reason']}"
        if account.get("moderator_since") is not None:
            state = f"moderator since {_when(account['moderator_since'])}, {state}"
        rows.append((account["name"], _when(account["created_at"]), account["email"] or "-", state))
    _table(("name", "created", "e-mail", "state"), rows)


def reset_password(engine: Engine, args: argparse.Namespace) -> None:
    """``reset-password NAME``: a new random password, printed; every session ends."""
    from keltis.server.accounts import AccountStore  # the server's modules load when it runs

    account = _account(engine, args.name)
    password = secrets.token_urlsafe(12)
    AccountStore(engine).set_password(str(account["id"]), password)
    with engine.begin() as connection:
        _logged(connection, "reset-password", account["name"], "every session ended")
    print(f"New password of {account['name']}: {password}")


def suspend(engine: Engine, args: argparse.Namespace) -> None:
    """``suspend NAME --reason TEXT``: the account cannot log in, its chat is hidden, its
    sessions end."""
    from keltis.server.accounts import AccountStore  # the server's modules load when it runs
    from keltis.server.moderation import suspend_account

    reason = args.reason.strip()
    if not 1 <= len(reason) <= MAX_REASON or not reason.isprintable():
        raise AdminError(f"a reason is 1 to {MAX_REASON} characters of text on one line")
    account = _account(engine, args.name)
    if account["suspended_at"] is not None:
        raise AdminError(
            f"{account['name']} is suspended already (since "
            f"{_when(account['suspended_at'])}: {account['suspended_reason']})"
        )
    with engine.begin() as connection:
        # its sessions end, its seats' tokens change: what it had open shows no hand and
        # acts no more (as a moderator's suspension on the web)
        suspend_account(connection, AccountStore(engine), str(account["id"]), reason)
        _logged(connection, "suspend", account["name"], reason)
    print(
        f"Suspended {account['name']}: it cannot log in, its chat is hidden, sessions and "
        "seat tokens ended."
    )


def unsuspend(engine: Engine, args: argparse.Namespace) -> None:
    """``unsuspend NAME``: the account may log in again, its chat is shown again."""
    from keltis.server import db  # the server's modules load when it runs

    account = _account(engine, args.name)
    if account["suspended_at"] is None:
        raise AdminError(f"{account['name']} is not suspended")
    with engine.begin() as connection:
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account["id"])
            .values(suspended_at=None, suspended_reason=None)
        )
        _logged(connection, "unsuspend", account["name"], "")
    print(f"Unsuspended {account['name']}: it may log in again.")


def grant_moderator(engine: Engine, args: argparse.Namespace) -> None:
    """``grant-moderator NAME``: the account moderates on the web (``#/moderation``)."""
    from keltis.server import db  # the server's modules load when it runs
    from keltis.server.store import now

    account = _account(engine, args.name)
    if account.get("moderator_since") is not None:
        raise AdminError(
            f"{account['name']} is a moderator already (since {_when(account['moderator_since'])})"
        )
    with engine.begin() as connection:
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account["id"])
            .values(moderator_since=now())
        )
        _logged(connection, "grant-moderator", account["name"], "")
    print(f"{account['name']} is a moderator: the moderation page is #/moderation.")


def revoke_moderator(engine: Engine, args: argparse.Namespace) -> None:
    """``revoke-moderator NAME``: the account moderates no more (at its next request)."""
    from keltis.server import db  # the server's modules load when it runs

    account = _account(engine, args.name)
    if account.get("moderator_since") is None:
        raise AdminError(f"{account['name']} is not a moderator")
    with engine.begin() as connection:
        connection.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account["id"])
            .values(moderator_since=None)
        )
        _logged(connection, "revoke-moderator", account["name"], "")
    print(f"{account['name']} is no longer a moderator.")


def show_log(engine: Engine, args: argparse.Namespace) -> None:
    """``log``: the moderation actions, newest first."""
    import sqlalchemy as sa  # loaded by run_admin already; here for the name

    from keltis.server import db  # the server's modules load when it runs

    query = sa.select(db.admin_log).order_by(db.admin_log.c.id.desc())
    if args.limit > 0:
        query = query.limit(args.limit)
    with engine.connect() as connection:
        entries = [r._mapping for r in connection.execute(query)]
    if not entries:
        print("Nothing has been done yet.")
        return
    rows = [
        (
            _when(e["at"]),
            # a moderator's action on the web: web:NAME, the moderator's account name
            ("web:" if e.get("actor_account") is not None else "") + str(e["actor"]),
            str(e["action"]),
            str(e["target"]),
            str(e["detail"]),
        )
        for e in entries
    ]
    _table(("when", "who", "action", "account", "detail"), rows)


def show_flags(engine: Engine, args: argparse.Namespace) -> None:
    """``flags``: the rated results flagged for moderators (``rating_flags``), newest
    first: when, why, the two accounts (by name; a deleted one by its id), the address
    and the matches."""
    import sqlalchemy as sa  # loaded by run_admin already; here for the name

    from keltis.server import db  # the server's modules load when it runs

    query = sa.select(db.rating_flags).order_by(db.rating_flags.c.id.desc())
    if args.limit > 0:
        query = query.limit(args.limit)
    with engine.connect() as connection:
        found = [r._mapping for r in connection.execute(query)]
        ids = {str(f[side]) for f in found for side in ("account_a", "account_b")}
        names = {
            str(r.id): str(r.name)
            for r in connection.execute(
                sa.select(db.accounts.c.id, db.accounts.c.name).where(
                    db.accounts.c.id.in_(sorted(ids))
                )
            )
        }
    if not found:
        print("No flags.")
        return
    rows = []
    for flag in found:
        pair = [
            names.get(str(flag[side]), f"(deleted {flag[side]})")
            for side in ("account_a", "account_b")
        ]
        state = "open" if flag["resolved_at"] is None else f"resolved {_when(flag['resolved_at'])}"
        rows.append(
            (
                _when(flag["updated_at"]),
                str(flag["reason"]),
                " and ".join(pair),
                str(flag["address"] or "-"),
                state,
                " ".join(str(m) for m in flag["matches"]),
            )
        )
    _table(("when", "reason", "accounts", "address", "state", "matches"), rows)


#: Each sub-command's action.
ACTIONS: dict[str, Callable[[Engine, argparse.Namespace], None]] = {
    "list": list_accounts,
    "reset-password": reset_password,
    "suspend": suspend,
    "unsuspend": unsuspend,
    "log": show_log,
    "flags": show_flags,
    "grant-moderator": grant_moderator,
    "revoke-moderator": revoke_moderator,
}
