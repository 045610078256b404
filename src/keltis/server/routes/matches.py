"""The lobby and play over HTTP: create a match, list and describe matches, join with an
invite, start, play again; a seat's view and its actions (``/api/matches…``).

Secrets never travel in a URL: a seat's token goes in the ``Authorization: Bearer …``
header, an invite code in the join request's body. The routes read the request and shape
the answer; the match service (:mod:`keltis.server.master`) does the rest and refuses what
it must (:class:`~keltis.server.answers.RefusedError`, answered by the application's
handler with its status).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from keltis.core.errors import KeltisError
from keltis.server.accounts import Account, LoggedIn
from keltis.server.answers import RefusedError, error_response, refusal_response
from keltis.server.bodies import ActionRequest, CreateMatch, IdText, JoinRequest
from keltis.server.lobby import plan_match
from keltis.server.master import Created
from keltis.server.routes.deps import Creations, Lang, Master, Token, Viewer, address_of, same_site

router = APIRouter()


@router.post("/api/matches", tags=["matches"], status_code=201)
async def create_match(
    body: CreateMatch,
    request: Request,
    master: Master,
    creations: Creations,
    lang: Lang,
    viewer: Viewer,
) -> Any:
    """Create a match. The answer holds the secrets: the host token (to start the match),
    the creator's seat token, and one invite per other person seat — share each invite
    link with one friend. Logged in, the creator plays under the account's name, and may
    create a rated match."""
    address = address_of(request)
    if not creations.take(address):
        return error_response(429, "server.rate_limited", lang)
    creator = _account(request, viewer)
    if body.rated and viewer is not None and creator is None:
        # logged in, but the request did not prove it comes from the client: say so
        raise RefusedError("account.cross_site", status=403)
    plan = plan_match(body, master.config.allow_setup, creator)
    created = await master.create(plan, address=address)
    return _created_json(created, master)


def _created_json(created: Created, master: Master) -> dict[str, Any]:
    """The answer to a match's creation: its id, secrets and links, and its description."""
    return {
        "id": created.live.id,
        "host_token": created.host_token,
        "seat": created.seat,
        "token": created.token,
        "invites": [
            {"seat": invite.seat, "invite": invite.code, "link": invite.link}
            for invite in created.invites
        ],
        "watch": created.watch,
        "match": master.summary(created.live),
    }


@router.get("/api/matches", tags=["matches"])
async def list_matches(
    master: Master,
    status: Literal["open", "running", "finished"] = "open",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Public matches with ``status``, most recently changed first."""
    return {"matches": await master.list_public(status, limit)}


@router.get("/api/matches/{match_id}", tags=["matches"])
async def get_match(match_id: IdText, master: Master) -> Any:
    """A match's public description."""
    return master.summary(await master.get(match_id))


def _address(request: Request) -> str | None:
    """The client's address (as the server sees it: behind a trusted proxy, the one the
    proxy names), kept with the seats it takes and plays."""
    return request.client.host if request.client else None


def _account(request: Request, viewer: LoggedIn | None) -> Account | None:
    """The account a request acts for: its session's, if it proves it comes from the
    client itself (else it acts as a guest: a page of another site cannot make a browser
    play for its account)."""
    if viewer is None or not same_site(request, viewer):
        return None
    return viewer.account


@router.post("/api/matches/{match_id}/join", tags=["matches"])
async def join(
    match_id: IdText, body: JoinRequest, request: Request, master: Master, viewer: Viewer
) -> Any:
    """Take the seat of an invite: the answer holds the seat's secret token. Logged in,
    the seat is the account's (under its name); a rated match's seats are for accounts
    only, a different account in each. Joining a match whose people agreed to hints
    (``options.hints_agreed``) is agreeing to them."""
    live, seat, token = await master.join(
        match_id, body.invite, body.name, _account(request, viewer), _address(request)
    )
    return {"seat": seat, "token": token, "match": master.summary(live)}


@router.post("/api/matches/{match_id}/start", tags=["matches"])
async def start(match_id: IdText, master: Master, token: Token) -> Any:
    """Start the match (the host token; every person seat must be taken)."""
    return master.summary(await master.start(match_id, token))


@router.post("/api/matches/{match_id}/again", tags=["matches"], status_code=201)
async def again(match_id: IdText, master: Master, token: Token) -> Any:
    """Play again (a person seat's token of a finished match): the next match, with the
    same seats, names and settings and a new deal. The first player to ask creates it;
    the others learn of it live (``next`` in the match's description) and take their own
    seats in it the same way; bots follow; it starts once every person is in. The
    answer holds the new seat's token."""
    following, seat, new_token = await master.play_again(match_id, token)
    return {
        "id": following.id,
        "seat": seat,
        "token": new_token,
        "match": master.summary(following),
    }


@router.delete("/api/matches/{match_id}/again", tags=["matches"])
async def no_again(
    match_id: IdText,
    request: Request,
    master: Master,
    creations: Creations,
    lang: Lang,
    token: Token,
) -> Any:
    """Say no to playing again (a person seat's token of the finished match): the player
    waiting in the next match withdraws (``withdrew``), one asked to join declines
    (``declined``). The next match, not started, is cancelled (status ``cancelled``: every
    person must join for it to start) and the match names none again, so that anyone may
    ask again later. The other players are told live (``rematch`` in the match's
    description) and, logged in, by a notice in ``GET /api/me/matches``. Saying it again is
    no change (``repeated``); ``409`` if the next match began or nobody asked."""
    address = address_of(request)
    if not creations.take(address):
        return error_response(429, "server.rate_limited", lang)
    live, answered = await master.decline_again(match_id, token)
    return {
        "answer": answered.answer,
        "next": answered.next_match,
        "repeated": answered.repeated,
        "match": master.summary(live),
    }


@router.get("/api/matches/{match_id}/view", tags=["play"])
async def view(match_id: IdText, master: Master, token: Token) -> Any:
    """What the token's seat (no token: a spectator) sees now, with the version."""
    live = await master.get(match_id)
    seat = None if token is None else await master.seat_of(live, token)
    return await master.snapshot(live, seat)


@router.post("/api/matches/{match_id}/actions", tags=["play"])
async def act(
    match_id: IdText,
    body: ActionRequest,
    request: Request,
    master: Master,
    token: Token,
    lang: Lang,
) -> Any:
    """Play an action for the token's seat (the same rules as on the WebSocket): stored
    before the answer; a stale ``version`` or an illegal action is refused."""
    live = await master.get(match_id)
    seat = await master.seat_of(live, token)
    try:
        step = await master.act(live, seat, body.action, body.version, _address(request))
    except (RefusedError, KeltisError) as error:
        return refusal_response(error, lang, 409)
    return {
        "version": step.ply,
        "step": step.to_json(seat),
        "view": live.match.view(seat).to_json(),
    }
