"""Getting back into an account, and confirmed addresses, over HTTP (docs/server.md,
"Password resets and confirmed addresses"): ask for a link to set a new password, set it
with the link, confirm an address with the link sent to it, ask for that link again.

Asking for a new password is answered the same whatever is asked — ``202`` and the same
body, whether or not an account has that name or address, whether or not it is mailed
(the limits, an unconfirmed address, a server without ``--smtp-host``) — and before
anything is sent. The links themselves are secrets of 192 bits, stored hashed
(:mod:`keltis.server.recovery`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from keltis.server.accounts import Account, check_password
from keltis.server.answers import RefusedError
from keltis.server.bodies import IdText, NewPassword, ResetRequest
from keltis.server.passwords import PasswordWork, hash_password
from keltis.server.recovery import CONFIRM_HOURS, RESET_MINUTES, Recovery
from keltis.server.routes.deps import SESSION_COOKIE, Master, Member, address_limit, address_of

router = APIRouter()


def recovery_of(request: Request) -> Recovery:
    """The process's :class:`~keltis.server.recovery.Recovery` (made when first needed)."""
    found: Recovery | None = getattr(request.app.state, "recovery", None)
    if found is None:
        master = request.app.state.master
        found = Recovery(master.store.engine, master.accounts, master.mailer)
        request.app.state.recovery = found
    return found


async def address_given(request: Request, account: Account) -> None:
    """The account was made with an address, or changed it: e-mail the link that confirms
    it (unless the limits hold it back, or no e-mail is sent)."""
    recovery = recovery_of(request)
    mail = await asyncio.to_thread(recovery.address_given, account)
    if mail is not None:
        recovery.mailer.send_link(mail)


@router.post("/api/password-resets", tags=["accounts"], status_code=202)
async def ask_reset(body: ResetRequest, request: Request) -> dict[str, Any]:
    """Ask for a link to set a new password, by the account's name or address. The same
    answer whatever is asked: the link goes only to a confirmed address, at most once in
    15 minutes per account, and works for ``minutes``."""
    address_limit(request, "mails")
    recovery = recovery_of(request)
    for mail in await asyncio.to_thread(recovery.ask_reset, body.name, body.email):
        recovery.mailer.send_link(mail)
    return {"requested": True, "minutes": RESET_MINUTES}


@router.post("/api/password-resets/{token}", tags=["accounts"], status_code=204)
async def reset_password(
    token: IdText, body: NewPassword, request: Request, response: Response, master: Master
) -> None:
    """Set a new password with the link's token: the link is used up, every session of the
    account ends (this browser's too: log in again) and its seats get new tokens."""
    address_limit(request, "logins")
    check_password(body.password)
    work: PasswordWork = request.app.state.passwords
    work.admit(check=False)
    recovery = recovery_of(request)
    account = await asyncio.to_thread(recovery.check, token, "reset")
    check_password(body.password, account.name)
    new_hash = await work.run(hash_password, body.password, check=False)
    account_id = await asyncio.to_thread(recovery.reset, token, new_hash, address_of(request))
    await master.seats_revoked(account_id)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.post("/api/email-confirmations/{token}", tags=["accounts"])
async def confirm_address(token: IdText, request: Request) -> dict[str, Any]:
    """Confirm an address with the link sent to it (used up): ``{"name", "email",
    "email_confirmed": true}``."""
    address_limit(request, "logins")
    account = await asyncio.to_thread(recovery_of(request).confirm, token)
    return {"name": account.name, "email": account.email, "email_confirmed": True}


@router.post("/api/me/email-confirmation", tags=["accounts"], status_code=202)
async def resend_confirmation(request: Request, member: Member) -> dict[str, Any]:
    """E-mail the link that confirms the account's address again: ``{"email", "minutes"}``
    (``429`` ``account.mail_wait`` within 15 minutes of the last to that address, or
    beyond five a day; ``503`` ``mail.off`` where the server sends no e-mail)."""
    recovery = recovery_of(request)
    if not recovery.mailer.enabled:
        raise RefusedError("mail.off", status=503)
    address_limit(request, "mails")
    mail = await asyncio.to_thread(recovery.resend, member.account)
    recovery.mailer.send_link(mail)
    return {"email": mail.email, "minutes": CONFIRM_HOURS * 60}
