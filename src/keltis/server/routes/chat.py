"""A match's chat over HTTP (docs/server.md, "Chat"): send a message, read a channel's
history (``/api/matches/{id}/chat``).

Who speaks on which channel: a seat's bearer token opens the players' channel; without one,
a log-in session opens the spectators' channel — or the players' where its account plays a
seat of the match, since a player never reads the spectators' channel. Anyone else is
refused. The chat itself (limits, storage, telling the live clients) is
:mod:`keltis.server.chat`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from keltis.server.accounts import LoggedIn
from keltis.server.answers import RefusedError
from keltis.server.bodies import ChatRequest, IdText
from keltis.server.chat import SPECTATORS, Speaker, seat_of_account, seat_speaker
from keltis.server.livematch import LiveMatch
from keltis.server.routes.deps import Master, Token, Viewer, same_site

router = APIRouter()


async def _speaker(
    master: Master, live: LiveMatch, token: str | None, viewer: LoggedIn | None
) -> Speaker:
    """Who the request speaks (or reads) as: the token's seat, else the session's account —
    as its seat where it plays one. Neither: ``401`` ``chat.guest``."""
    if token is not None:
        return seat_speaker(live, await master.seat_of(live, token))
    if viewer is None:
        raise RefusedError("chat.guest", status=401)
    account = viewer.account
    seat = seat_of_account(live, account.id)
    if seat is not None:
        return seat_speaker(live, seat)
    return Speaker(SPECTATORS, None, account.name, account.id, account.name)


@router.post("/api/matches/{match_id}/chat", tags=["chat"], status_code=201)
async def send(
    match_id: IdText,
    body: ChatRequest,
    request: Request,
    master: Master,
    token: Token,
    viewer: Viewer,
) -> Any:
    """Say something in the match's chat: a seat (its token) on the players' channel, a
    logged-in spectator on the spectators'. 1-300 characters of plain text, at most one a
    second (burst 5). The answer is the message as stored; every client of the channel
    gets it live."""
    live = await master.get(match_id)
    if token is None and viewer is not None and not same_site(request, viewer):
        raise RefusedError("account.cross_site", status=403)
    speaker = await _speaker(master, live, token, viewer)
    return await master.chat.say(live, speaker, body.text)


@router.get("/api/matches/{match_id}/chat", tags=["chat"])
async def history(
    match_id: IdText,
    master: Master,
    token: Token,
    viewer: Viewer,
    after: Annotated[int, Query(ge=0, le=2**53, description="only messages with a greater id")] = 0,
) -> Any:
    """The newest 200 messages (after id ``after``) of the caller's channel, oldest first:
    a seat's token reads the players', a logged-in spectator the spectators'. Messages of
    suspended accounts and of accounts the session's account muted are left out."""
    live = await master.get(match_id)
    speaker = await _speaker(master, live, token, viewer)
    reader = viewer.account.id if viewer is not None else speaker.account_id
    messages = await master.chat.history(live.id, speaker.channel, after, reader)
    return {"channel": speaker.channel, "messages": messages}
