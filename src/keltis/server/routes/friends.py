"""Friends, challenges and vacation over HTTP (docs/server.md, "Friends and challenges",
"Vacation"). The rules are :mod:`keltis.server.friends`' and :mod:`keltis.server.vacation`';
these routes read requests and shape answers. Everything here needs a log-in session
(``401``) and, to change anything, the session's CSRF token (``403``)."""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Response
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.requests import HTTPConnection, Request

from keltis.server import vacation
from keltis.server.answers import RefusedError, error_response
from keltis.server.bodies import AccountName, IdText, _Strict
from keltis.server.friends import MAX_FOLLOWING, ChallengeBody, Friends
from keltis.server.master import MatchMaster
from keltis.server.ratelimit import Buckets
from keltis.server.routes.deps import Lang, Member
from keltis.server.seeks import Seeks

router = APIRouter()


async def _friends(connection: HTTPConnection) -> Friends:
    """This process's :class:`Friends` (made at its first use: it keeps the rate limits)."""
    state = connection.app.state
    found = getattr(state, "friends", None)
    if found is None:
        found = state.friends = Friends(cast(MatchMaster, state.master), cast(Seeks, state.seeks))
    return cast(Friends, found)


FriendsDep = Annotated[Friends, Depends(_friends)]


def _slow_down(buckets: Buckets, key: str, lang: str) -> Response | None:
    """``429`` ``friends.slow_down`` (with ``Retry-After``) over the rate; else ``None``
    and one more counted."""
    bucket = buckets.bucket(key)
    if bucket.take():
        return None
    answer = error_response(429, "friends.slow_down", lang)
    answer.headers["Retry-After"] = str(max(1, math.ceil(bucket.wait())))
    return answer


# -- following --------------------------------------------------------------------------


@router.get("/api/me/following", tags=["friends"])
async def following(member: Member, friends: FriendsDep) -> dict[str, Any]:
    """The accounts I follow, by name: ``name``, ``online`` (``null``: it hides it),
    ``vacation`` (until when) and ``playing`` (live matches I may see: ``id``, ``game``)."""
    listed = await asyncio.to_thread(friends.following, member.account)
    return {"following": listed, "limit": MAX_FOLLOWING}


@router.put("/api/me/following/{name}", tags=["friends"], status_code=204)
async def follow(name: AccountName, member: Member, friends: FriendsDep, lang: Lang) -> Response:
    """Follow the account ``name`` (``404`` none such; ``403`` a block stands between us;
    ``409`` over :data:`~keltis.server.friends.MAX_FOLLOWING`)."""
    refused = _slow_down(friends.follow_rate, member.account.id, lang)
    if refused is not None:
        return refused
    await asyncio.to_thread(friends.follow, member.account, name, True)
    return Response(status_code=204)


@router.delete("/api/me/following/{name}", tags=["friends"], status_code=204)
async def unfollow(name: AccountName, member: Member, friends: FriendsDep, lang: Lang) -> Response:
    """No longer follow the account ``name`` (``404`` none such)."""
    refused = _slow_down(friends.follow_rate, member.account.id, lang)
    if refused is not None:
        return refused
    await asyncio.to_thread(friends.follow, member.account, name, False)
    return Response(status_code=204)


class FriendSettings(_Strict):
    """What an account tells of itself to those who follow or challenge it."""

    hide_online: bool | None = Field(None, description="hide from followers whether I'm online")
    email_challenges: bool | None = Field(None, description="e-mail me a challenge")


@router.get("/api/me/friend-settings", tags=["friends"])
async def friend_settings(member: Member, friends: FriendsDep) -> dict[str, bool]:
    """My ``hide_online`` and ``email_challenges`` switches."""
    return await asyncio.to_thread(friends.settings, member.account.id, {})


@router.put("/api/me/friend-settings", tags=["friends"])
async def set_friend_settings(
    body: FriendSettings, member: Member, friends: FriendsDep
) -> dict[str, bool]:
    """Change ``hide_online`` or ``email_challenges`` (a switch left out stays)."""
    values = body.model_dump(exclude_none=True)
    return await asyncio.to_thread(friends.settings, member.account.id, values)


# -- challenges ---------------------------------------------------------------------------


@router.get("/api/challenges", tags=["friends"])
async def challenges(member: Member, friends: FriendsDep) -> dict[str, Any]:
    """The open challenges to me (``to_me``) and from me (``from_me``). The client asks it
    on every page while logged in (its header's badge): it also counts me as online."""
    await asyncio.to_thread(friends.seen, member.account.id)
    return await asyncio.to_thread(friends.challenges, member.account)


@router.post("/api/challenges", tags=["friends"], status_code=201)
async def challenge(body: ChallengeBody, member: Member, friends: FriendsDep, lang: Lang) -> Any:
    """Challenge one account (``to``): a seek for two that only it may join, not in the
    public list; its lobby streams get a ``challenge`` event, its confirmed address an
    e-mail if it allows them. ``404`` no such account, ``400`` oneself, ``403``
    ``challenge.blocked`` (a block either way), ``409`` too many open, ``429`` too many an
    hour."""
    refused = _slow_down(friends.challenge_rate, member.account.id, lang)
    if refused is not None:
        return refused
    return (await friends.challenge(member.account, body)).to_json()


@router.post("/api/challenges/{seek_id}/accept", tags=["friends"])
async def accept(seek_id: IdText, member: Member, friends: FriendsDep) -> Any:
    """The addressee accepts a challenge: its match starts (``status`` ``started``,
    ``match`` its id). Others: ``403`` ``challenge.not_yours``."""
    return (await friends.seeks.join(member.account, seek_id)).to_json()


@router.post("/api/challenges/{seek_id}/decline", tags=["friends"])
async def decline(seek_id: IdText, member: Member, friends: FriendsDep) -> Any:
    """The addressee declines a challenge (``status`` ``declined``)."""
    return (await friends.seeks.decline(member.account, seek_id)).to_json()


@router.delete("/api/challenges/{seek_id}", tags=["friends"])
async def cancel(seek_id: IdText, member: Member, friends: FriendsDep) -> Any:
    """The challenger cancels a challenge (as ``DELETE /api/seeks/{id}``)."""
    seek = await friends.seeks.get(seek_id)
    if seek.for_account is None or seek.account_id != member.account.id:
        raise RefusedError("seek.no_seek", status=404)  # not a challenge of mine
    return (await friends.seeks.withdraw(member.account, seek_id)).to_json()


@router.post("/api/unsubscribe-challenges/{account}/{token}", tags=["friends"])
async def unsubscribe_challenges(
    account: IdText, token: IdText, friends: FriendsDep, lang: Lang
) -> Response:
    """Turn off the account's challenge e-mails (the e-mail's one-click unsubscribe, RFC
    8058): ``{"email_challenges": false}``; a wrong token: ``403``."""
    if not await asyncio.to_thread(friends.unsubscribe, account, token):
        return error_response(403, "mail.bad_unsubscribe", lang)
    return JSONResponse({"email_challenges": False})


# -- vacation -----------------------------------------------------------------------------


class StartVacation(_Strict):
    """A vacation of ``days`` days (``null``: all the days left this year)."""

    days: int | None = Field(None, ge=1, le=vacation.DAYS_PER_YEAR)


@router.get("/api/me/vacation", tags=["friends"])
async def my_vacation(member: Member, request: Request) -> dict[str, Any]:
    """My vacation: ``until`` (``null``: not on one), days ``used`` and ``left`` this year
    (UTC), ``per_year``."""
    engine = request.app.state.master.store.engine
    return await asyncio.to_thread(vacation.state, engine, member.account.id)


@router.post("/api/me/vacation", tags=["friends"])
async def start_vacation(body: StartVacation, member: Member, request: Request) -> Any:
    """Start a vacation: my correspondence clocks stop until it ends. ``409``: on one
    already, no days left, more days than left."""
    engine = request.app.state.master.store.engine
    return await asyncio.to_thread(vacation.start, engine, member.account.id, body.days)


@router.delete("/api/me/vacation", tags=["friends"])
async def end_vacation(member: Member, request: Request) -> Any:
    """End my vacation now: my correspondence deadlines are pushed back by the time their
    decisions waited through it. ``409`` ``vacation.none``: not on one."""
    engine = request.app.state.master.store.engine
    return await asyncio.to_thread(vacation.end, engine, member.account.id)
