"""Reports, blocks and moderation over HTTP (docs/server.md, "Reports and blocks",
"Moderation").

:data:`reports_router`: a logged-in account reports another (``POST /api/reports``), blocks
and unblocks accounts (``/api/me/blocks``) and says it read a moderator's warning
(``/api/me/warnings``). :data:`moderation_router`: everything under ``/api/moderation/`` —
the report queue with the reported chat lines in context, the flagged rated results, the
log, and the moderators' actions (warn, mute, suspend and lift it, close a report, resolve
a flag, void a rated result). Every moderation route refuses a request without a session (``401``
``account.no_session``) and one of an account that is not a moderator (``403``
``moderation.forbidden``), read from the database at each request; a state-changing one
also one without the session's ``X-CSRF-Token`` (``403`` ``account.cross_site``). The rules
are :class:`keltis.server.moderation.Moderation`'s.
"""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from keltis.server.accounts import LoggedIn
from keltis.server.answers import RefusedError, error_response
from keltis.server.bodies import AccountName, MatchIdText
from keltis.server.moderation import (
    LIST_LIMIT,
    MAX_MUTE_MINUTES,
    Reason,
    ReportLimitError,
)
from keltis.server.routes.deps import Lang, Master, Member

reports_router = APIRouter()
moderation_router = APIRouter()

#: The largest id (of a report, a chat line, a flag, a warning) a request may give: the
#: columns are 32-bit integers (PostgreSQL refuses a larger number in a query).
MAX_ID_NUMBER = 2**31 - 1

#: A report's, a flag's or a warning's id in a request's address.
NumberId = Annotated[int, Path(ge=1, le=MAX_ID_NUMBER)]


class _Body(BaseModel):
    """A request body: its fields take their own JSON types only; unknown fields are
    ignored (as :mod:`keltis.server.bodies`' are)."""

    model_config = ConfigDict(strict=True)


class ReportRequest(_Body):
    """A report of a player."""

    name: AccountName = Field(description="the reported account's name")
    reason: Reason = Field(
        description="cheating, chat_abuse (abuse in chat), offensive_name, stalling or other"
    )
    text: str = Field(
        "",
        max_length=2000,
        description="what happened: up to 500 characters of plain text on one line "
        "(needed for other)",
    )
    match: MatchIdText | None = Field(None, description="the match it happened in")
    chat_line: int | None = Field(
        None, ge=1, le=MAX_ID_NUMBER, description="the reported chat message's id"
    )


class BlockRequest(_Body):
    """An account to block."""

    name: AccountName


class Why(_Body):
    """A moderator's reason, kept in the log: 1-200 characters on one line."""

    reason: str = Field(max_length=1000, description="why: 1-200 characters on one line")


class AccountAction(Why):
    """A moderator's action on an account, perhaps about a report."""

    name: AccountName
    report: int | None = Field(None, ge=1, le=MAX_ID_NUMBER, description="the report it answers")


class MuteAction(AccountAction):
    """Mute an account's chat for a time (0 lifts a mute)."""

    minutes: int = Field(ge=0, le=MAX_MUTE_MINUTES, description="how long; 0 lifts the mute")


class VoidAction(Why):
    """Void a match's rated result."""

    match: MatchIdText
    report: int | None = Field(None, ge=1, le=MAX_ID_NUMBER)
    flag: int | None = Field(None, ge=1, le=MAX_ID_NUMBER, description="the flag it answers")


# -- reports, blocks, warnings ------------------------------------------------------------


@reports_router.post("/api/reports", tags=["moderation"], status_code=201)
async def report(body: ReportRequest, member: Member, master: Master, lang: Lang) -> Any:
    """Report a player to the moderators (logged in; never oneself): a reason, a short
    text, and where — a match, a chat line of it. 10 reports a day per account, 3 about one
    account (``429`` ``report.too_many`` with ``Retry-After``)."""
    try:
        report_id = await asyncio.to_thread(
            master.moderation.report,
            member.account,
            body.name,
            body.reason,
            body.text,
            body.match,
            body.chat_line,
        )
    except ReportLimitError as refused:
        answer = error_response(429, refused.key, lang, **refused.params)
        answer.headers["Retry-After"] = str(max(1, math.ceil(refused.wait)))
        return answer
    return {"id": report_id, "status": "open"}


@reports_router.get("/api/me/blocks", tags=["moderation"])
async def blocks(member: Member, master: Master) -> dict[str, Any]:
    """The accounts this account blocked."""
    return {"blocks": await asyncio.to_thread(master.moderation.blocks, member.account)}


@reports_router.post("/api/me/blocks", tags=["moderation"], status_code=204)
async def block(body: BlockRequest, member: Member, master: Master) -> None:
    """Block an account: neither joins a seek or a match of the other, neither hears the
    other's chat."""
    await asyncio.to_thread(master.moderation.block, member.account, body.name, True)


@reports_router.delete("/api/me/blocks/{name}", tags=["moderation"], status_code=204)
async def unblock(name: AccountName, member: Member, master: Master) -> None:
    """Lift a block this account made."""
    await asyncio.to_thread(master.moderation.block, member.account, name, False)


@reports_router.get("/api/me/warnings", tags=["moderation"])
async def warnings(member: Member, master: Master) -> dict[str, Any]:
    """The moderators' warnings the account has not said it read (also in ``GET
    /api/sessions/current``)."""
    found = await asyncio.to_thread(master.moderation.warnings, member.account.id)
    return {"warnings": found}


@reports_router.post("/api/me/warnings/{warning_id}/seen", tags=["moderation"], status_code=204)
async def warning_seen(warning_id: NumberId, member: Member, master: Master) -> None:
    """The account read the warning: it is not shown again."""
    await asyncio.to_thread(master.moderation.seen, member.account.id, warning_id)


# -- the moderators -----------------------------------------------------------------------


async def _moderator(member: Member, master: Master) -> LoggedIn:
    """The request's session, of a moderator (``403`` ``moderation.forbidden`` for any
    other account; no session: ``401``)."""
    if not await asyncio.to_thread(master.moderation.is_moderator, member.account.id):
        raise RefusedError("moderation.forbidden", status=403)
    return member


#: The request's log-in session, a moderator's.
Moderator = Annotated[LoggedIn, Depends(_moderator)]
#: How many entries a list answers.
Limit = Annotated[int, Query(ge=1, le=500)]


@moderation_router.get("/api/moderation/reports", tags=["moderation"])
async def reports(
    moderator: Moderator,
    master: Master,
    status: Literal["open", "closed", "all"] = "open",
    limit: Limit = LIST_LIMIT,
) -> dict[str, Any]:
    """The reports (the open ones by default, oldest first), each with the reported
    account's state and the chat lines in context."""
    found = await asyncio.to_thread(master.moderation.reports, status, limit)
    return {"reports": found}


@moderation_router.get("/api/moderation/reports/{report_id}", tags=["moderation"])
async def one_report(report_id: NumberId, moderator: Moderator, master: Master) -> Any:
    """One report with the chat lines in context."""
    return await asyncio.to_thread(master.moderation.report_json, report_id)


@moderation_router.post("/api/moderation/reports/{report_id}/close", tags=["moderation"])
async def close_report(report_id: NumberId, body: Why, moderator: Moderator, master: Master) -> Any:
    """Close a report, saying why (the note is kept with it and in the log)."""
    return await asyncio.to_thread(
        master.moderation.close_report, moderator.account, report_id, body.reason
    )


@moderation_router.get("/api/moderation/flags", tags=["moderation"])
async def flags(
    moderator: Moderator,
    master: Master,
    status: Literal["open", "resolved", "all"] = "open",
    limit: Limit = LIST_LIMIT,
) -> dict[str, Any]:
    """The rated results flagged for moderators (the same two accounts from one address),
    newest first."""
    return {"flags": await asyncio.to_thread(master.moderation.flags, status, limit)}


@moderation_router.post("/api/moderation/flags/{flag_id}/resolve", tags=["moderation"])
async def resolve_flag(flag_id: NumberId, body: Why, moderator: Moderator, master: Master) -> Any:
    """Mark a flag as looked at."""
    return await asyncio.to_thread(
        master.moderation.resolve_flag, moderator.account, flag_id, body.reason
    )


@moderation_router.get("/api/moderation/log", tags=["moderation"])
async def moderation_log(moderator: Moderator, master: Master, limit: Limit = LIST_LIMIT) -> Any:
    """The moderation log, newest first: every action of the moderators and of ``keltis
    admin``, with who, about whom and why."""
    return {"log": await asyncio.to_thread(master.moderation.log, limit)}


@moderation_router.post("/api/moderation/warn", tags=["moderation"])
async def warn(body: AccountAction, moderator: Moderator, master: Master) -> Any:
    """Warn an account: the reason is what it reads on its next page."""
    return await asyncio.to_thread(
        master.moderation.warn, moderator.account, body.name, body.reason, body.report
    )


@moderation_router.post("/api/moderation/mute", tags=["moderation"])
async def mute(body: MuteAction, moderator: Moderator, master: Master) -> Any:
    """Mute an account's chat for ``minutes`` (0 lifts a mute)."""
    return await asyncio.to_thread(
        master.moderation.mute,
        moderator.account,
        body.name,
        body.minutes,
        body.reason,
        body.report,
    )


@moderation_router.post("/api/moderation/suspend", tags=["moderation"])
async def suspend(
    body: AccountAction, request: Request, moderator: Moderator, master: Master
) -> Any:
    """Suspend an account, as ``keltis admin suspend`` does: it cannot log in, its chat is
    hidden, its seeks are not shown, its sessions end and its seats' tokens stop."""
    account_id, answer = await asyncio.to_thread(
        master.moderation.suspend, moderator.account, body.name, body.reason, body.report
    )
    await master.seats_revoked(account_id)
    seeks = getattr(request.app.state, "seeks", None)
    if seeks is not None:  # its seeks leave the lobby's list
        seeks.events.changed()
    return answer


@moderation_router.post("/api/moderation/unsuspend", tags=["moderation"])
async def unsuspend(
    body: AccountAction, request: Request, moderator: Moderator, master: Master
) -> Any:
    """Lift a suspension, as ``keltis admin unsuspend`` does: the account may log in again,
    its chat and its seeks are shown again."""
    answer = await asyncio.to_thread(
        master.moderation.unsuspend, moderator.account, body.name, body.reason, body.report
    )
    seeks = getattr(request.app.state, "seeks", None)
    if seeks is not None:
        seeks.events.changed()
    return answer


@moderation_router.post("/api/moderation/void", tags=["moderation"])
async def void(body: VoidAction, moderator: Moderator, master: Master) -> Any:
    """Void a match's rated result: its rating changes are taken back."""
    return await asyncio.to_thread(
        master.moderation.void, moderator.account, body.match, body.reason, body.report, body.flag
    )
