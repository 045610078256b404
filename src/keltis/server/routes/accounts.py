"""Accounts and log-in sessions over HTTP (docs/server.md, "Accounts and sessions"):
create an account, log in and out, settings, password, deletion, guest seats taken over,
mutes, and the account's matches (the turn badge).

The session cookie is ``HttpOnly`` and ``SameSite=Lax`` (``Secure`` when the public address
is https); every state-changing route here takes :data:`~keltis.server.routes.deps.Member`,
which refuses a request that does not prove it comes from the client itself. Creating an
account and logging in are limited per address; log-in also per account
(:class:`~keltis.server.accounts.AccountStore`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response

from keltis.server import db, describe, guards
from keltis.server.accounts import (
    SESSION_DAYS,
    Account,
    LoggedIn,
    check_name,
    check_password,
    time_zones,
)
from keltis.server.answers import RefusedError
from keltis.server.bodies import (
    AccountChange,
    AccountName,
    LogIn,
    MuteRequest,
    NewAccount,
    PasswordChange,
    PasswordCheck,
    SeatClaims,
)
from keltis.server.config import ServerConfig
from keltis.server.master import MatchMaster
from keltis.server.passwords import PasswordWork, hash_password, needs_rehash, verify
from keltis.server.routes.deps import (
    SESSION_COOKIE,
    Master,
    Member,
    address_limit,
    address_of,
    session_secret,
)
from keltis.server.routes.recovery import address_given
from keltis.server.store import MatchRow

router = APIRouter()

#: The most matches ``GET /api/me/matches`` lists per status.
MY_MATCHES = 100
#: The most rematch notices ``GET /api/me/matches`` gives (the newest).
MY_NOTICES = 20


def limiters(config: ServerConfig) -> dict[str, guards.PerAddress]:
    """The per-address limits of this router (``--login-rate``, ``--signup-rate``: per
    minute) and of :mod:`~keltis.server.routes.recovery` (``--mail-rate``: per hour), kept
    in ``app.state`` by the application."""
    return {
        "logins": guards.PerAddress(config.login_rate / 60, max(1, round(config.login_rate))),
        "signups": guards.PerAddress(config.signup_rate / 60, max(5, round(config.signup_rate))),
        "mails": guards.PerAddress(config.mail_rate / 3600, max(1, round(config.mail_rate))),
    }


def _passwords(request: Request) -> PasswordWork:
    """The process's pool for password hashes (never the database's threads)."""
    work: PasswordWork = request.app.state.passwords
    return work


async def _password_route(request: Request) -> None:
    """A route that checks the account's password takes the address's log-in allowance
    (``--login-rate``) first, before its session is looked up: a flood of wrong passwords
    from one address is refused at once, without a trip to the database, and costs the
    server little more than an answer (docs/server.md, "Load"). Asynchronous: FastAPI runs
    a plain function dependency on a worker thread, a hop that costs more than the check."""
    address_limit(request, "logins")
    request.state.login_limited = True


#: The dependency of every route that calls :func:`_confirm`, listed before its session.
PASSWORD_ROUTE = [Depends(_password_route)]


async def _confirm(request: Request, master: MatchMaster, account: Account, password: str) -> None:
    """Refuse (``403`` ``account.wrong_password``) unless ``password`` is the account's: a
    password check limited like a log-in — per address (``--login-rate``, taken by
    :data:`PASSWORD_ROUTE` before the session), then counted per (account, address) before
    the check (:mod:`keltis.server.passwords`)."""
    if not getattr(request.state, "login_limited", False):
        raise RuntimeError(f"{request.url.path} checks a password without PASSWORD_ROUTE")
    _passwords(request).admit()
    attempt = await asyncio.to_thread(master.accounts.attempt, account.name, address_of(request))
    if attempt.account is None or attempt.account.id != account.id:
        raise RefusedError("account.no_session", status=401)  # renamed or deleted meanwhile
    if not await _passwords(request).run(verify, attempt.password_hash, password):
        raise RefusedError("account.wrong_password", status=403)


def _set_cookie(response: Response, request: Request, secret: str) -> None:
    secure = request.app.state.config.public_url.startswith("https://")
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


def _session_json(logged: LoggedIn) -> dict[str, Any]:
    return {"account": logged.account.to_json(), "csrf": logged.csrf}


@router.post("/api/accounts", tags=["accounts"], status_code=201)
async def create_account(
    body: NewAccount, request: Request, response: Response, master: Master
) -> dict[str, Any]:
    """Create an account and log in (the session cookie is set). The guest seats given in
    ``seats`` become the account's; an address given is sent the link that confirms it."""
    address_limit(request, "signups")
    _passwords(request).admit(check=False)
    check_name(body.name)
    check_password(body.password, body.name)
    # the browser's time zone, if this server knows it (else UTC: never a refusal for it)
    zone = body.time_zone if body.time_zone in time_zones() else None
    password_hash = await _passwords(request).run(hash_password, body.password, check=False)
    accounts = master.accounts
    account = await asyncio.to_thread(
        accounts.create, body.name, password_hash, body.language, body.email, zone
    )
    logged = await asyncio.to_thread(accounts.open_session, account)
    assert logged.secret is not None
    if body.seats:
        await asyncio.to_thread(
            accounts.adopt_seats, account, [(s.match, s.token) for s in body.seats]
        )
    if account.email is not None:
        await address_given(request, account)
    _set_cookie(response, request, logged.secret)
    return _session_json(logged)


@router.post("/api/sessions", tags=["accounts"])
async def log_in(
    body: LogIn, request: Request, response: Response, master: Master
) -> dict[str, Any]:
    """Log in: the session cookie is set. A wrong name and a wrong password get the same
    answer (``401`` ``account.bad_login``), after the same work, and the same limits
    (``429``); a suspended account is told so only with the right password."""
    address_limit(request, "logins")
    work = _passwords(request)
    work.admit()
    address = address_of(request)
    attempt = await asyncio.to_thread(master.accounts.attempt, body.name, address)
    if not await work.run(verify, attempt.password_hash, body.password):
        raise RefusedError("account.bad_login", status=401)
    assert attempt.account is not None
    assert attempt.password_hash is not None
    new_hash = None
    if needs_rehash(attempt.password_hash):
        new_hash = await work.run(hash_password, body.password, check=False)
    logged = await asyncio.to_thread(master.accounts.logged_in, attempt.account, address, new_hash)
    assert logged.secret is not None
    _set_cookie(response, request, logged.secret)
    return _session_json(logged)


@router.get("/api/sessions/current", tags=["accounts"])
async def current_session(request: Request, master: Master) -> dict[str, Any]:
    """The log-in session of the request's cookie: the account, the ``csrf`` token that
    state-changing requests must repeat in ``X-CSRF-Token``, and the moderators' warnings
    the account has not said it read (``POST /api/me/warnings/{id}/seen``). Asked by every
    page as it opens: the session and the warnings are read in one trip to a worker thread,
    through one connection."""
    secret = session_secret(request)
    found = None
    if secret is not None:
        found = await asyncio.to_thread(_session_and_warnings, master, secret)
    if found is None:
        raise RefusedError("account.no_session", status=401)
    viewer, warnings = found
    return {**_session_json(viewer), "warnings": warnings}


def _session_and_warnings(
    master: MatchMaster, secret: str
) -> tuple[LoggedIn, list[dict[str, Any]]] | None:
    """The session ``secret`` and its account's unread warnings (``None``: no such
    session), read through one connection."""
    with db.reading(master.store.engine) as connection:
        logged = master.accounts.session(secret, connection)
        if logged is None:
            return None
        return logged, master.moderation.warnings(logged.account.id, connection)


@router.delete("/api/sessions/current", tags=["accounts"], status_code=204)
async def log_out(request: Request, response: Response, member: Member, master: Master) -> None:
    """Log out: the session ends and its cookie is cleared."""
    secret = request.cookies.get(SESSION_COOKIE, "")
    await asyncio.to_thread(master.accounts.close_session, secret)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.patch("/api/me", tags=["accounts"])
async def change_account(
    body: AccountChange, request: Request, member: Member, master: Master
) -> dict[str, Any]:
    """Change the account's language, e-mail address or whether it gets turn e-mails. A new
    address is unconfirmed: it is sent the link that confirms it, and gets no other e-mail
    until that link is clicked."""
    values = body.model_dump(exclude_unset=True)
    if values.get("language", "") is None or values.get("email_turns", False) is None:
        raise RefusedError("server.bad_request", status=400, detail="null is not a value here")
    account = await asyncio.to_thread(master.accounts.update, member.account, **values)
    if "email" in values and account.email != member.account.email:
        await address_given(request, account)
    return account.to_json()


@router.post("/api/me/password", tags=["accounts"], status_code=204, dependencies=PASSWORD_ROUTE)
async def change_password(
    body: PasswordChange, request: Request, member: Member, master: Master
) -> None:
    """Change the password; every other session of the account ends, and its seats get
    new tokens (``GET /api/me/matches`` gives them; the old ones open nothing)."""
    check_password(body.new, member.account.name)
    await _confirm(request, master, member.account, body.old)
    new_hash = await _passwords(request).run(hash_password, body.new, check=False)
    keep = request.cookies.get(SESSION_COOKIE)
    await asyncio.to_thread(master.accounts.set_password_hash, member.account.id, new_hash, keep)
    await master.seats_revoked(member.account.id)


@router.delete("/api/me/sessions", tags=["accounts"], status_code=204)
async def log_out_everywhere(response: Response, member: Member, master: Master) -> None:
    """Log out on every device: every session of the account ends (this one too) and its
    seats get new tokens, so a device left logged in can no longer play them."""
    await asyncio.to_thread(master.accounts.end_sessions, member.account.id)
    await master.seats_revoked(member.account.id)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.delete("/api/me", tags=["accounts"], status_code=204, dependencies=PASSWORD_ROUTE)
async def delete_account(
    body: PasswordCheck, request: Request, response: Response, member: Member, master: Master
) -> None:
    """Delete the account (its password confirms): its personal data goes; its finished
    matches stay, its name replaced."""
    await _confirm(request, master, member.account, body.password)
    renamed = await asyncio.to_thread(master.accounts.delete, member.account)
    await master.seats_revoked(member.account.id)
    await master.renamed(renamed)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.post("/api/me/seats", tags=["accounts"])
async def adopt_seats(body: SeatClaims, member: Member, master: Master) -> dict[str, Any]:
    """The guest seats given become the account's: the matches taken over."""
    taken = await asyncio.to_thread(
        master.accounts.adopt_seats, member.account, [(s.match, s.token) for s in body.seats]
    )
    return {"matches": taken}


@router.get("/api/me/matches", tags=["accounts"])
async def my_matches(request: Request, master: Master) -> dict[str, Any]:
    """The account's open and running matches, each with its seat and the seat's token
    (to play it on this device); ``waiting``: those where it is the account's turn;
    ``notices``: another player said no to a rematch the account asked for, or withdrew
    the one it was asked to join (``answer`` ``declined`` or ``withdrew``, ``name`` and
    ``seat`` of who said it, ``match`` the finished match), until dismissed
    (``DELETE /api/me/notices/{id}``).

    Asked every few seconds by every page of every account (the turn badge): the session
    and the matches are read in one trip to a worker thread, through one connection."""
    secret = session_secret(request)
    found = None
    if secret is not None:
        found = await asyncio.to_thread(_mine, master, secret)
    if found is None:
        raise RefusedError("account.no_session", status=401)
    account, rows, notices = found
    out: dict[str, list[dict[str, Any]]] = {"waiting": [], "running": [], "open": []}
    for row, seat in rows:
        turn = row.status == "running" and row.to_move == seat and row.seats[seat].stand_in is None
        item = {
            "match": describe.match_summary(row, master.config),
            "seat": seat,
            "token": master.accounts.seat_token(row.id, seat, account.id, account.seat_epoch),
            "your_turn": turn,
        }
        out["waiting" if turn else row.status].append(item)
    return {**out, "notices": notices}


def _mine(
    master: MatchMaster, secret: str
) -> tuple[Account, list[tuple[MatchRow, int]], list[dict[str, Any]]] | None:
    """The account of the session ``secret``, its open and running matches and its rematch
    notices (``None``: no such session), read through one connection."""
    with db.reading(master.store.engine) as connection:
        logged = master.accounts.session(secret, connection)
        if logged is None:
            return None
        rows = master.store.matches_of(
            logged.account.id, ("open", "running"), MY_MATCHES, connection
        )
        notices = master.store.rematch_notices(logged.account.id, MY_NOTICES, connection)
    return logged.account, rows, notices


@router.delete("/api/me/notices/{notice_id}", tags=["accounts"], status_code=204)
async def dismiss_notice(
    notice_id: Annotated[int, Path(ge=1, le=2**31 - 1)], member: Member, master: Master
) -> None:
    """Dismiss one of the account's notices (``GET /api/me/matches``): it is not shown
    again. Dismissing one already gone is no change."""
    await asyncio.to_thread(master.store.dismiss_notice, member.account.id, notice_id)


@router.get("/api/me/mutes", tags=["accounts"])
async def mutes(member: Member, master: Master) -> dict[str, Any]:
    """The accounts whose chat this account does not see."""
    return {"mutes": await asyncio.to_thread(master.accounts.mutes, member.account)}


@router.post("/api/me/mutes", tags=["accounts"], status_code=204)
async def mute(body: MuteRequest, member: Member, master: Master) -> None:
    """Mute an account's chat."""
    await asyncio.to_thread(master.accounts.mute, member.account, body.name, True)


@router.delete("/api/me/mutes/{name}", tags=["accounts"], status_code=204)
async def unmute(name: AccountName, member: Member, master: Master) -> None:
    """Show an account's chat again."""
    await asyncio.to_thread(master.accounts.mute, member.account, name, False)
