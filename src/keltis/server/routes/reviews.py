"""A finished match's review (``/api/matches/{id}/review``): asked for with ``POST``, its
progress and then the review itself with ``GET`` (docs/server.md, "Reviews").

Who may: whoever may see the match's record and review — anyone for a public match; for a
private one only its participants (a seat's or the host's token, or the account that plays a
seat): to anyone else a private match does not exist (``404``, as for an unknown id). A
match not over is refused (``409``): a review during play would be a hint.
"""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from keltis.server.answers import RefusedError, error_response, printable
from keltis.server.bodies import IdText
from keltis.server.livematch import LiveMatch
from keltis.server.reviews import ReviewQueue
from keltis.server.routes.deps import Lang, Master, Token, Viewer, address_of, same_site

router = APIRouter()


async def _reviews(connection: HTTPConnection) -> ReviewQueue:
    return cast(ReviewQueue, connection.app.state.reviews)


#: This process's review queue.
Reviews = Annotated[ReviewQueue, Depends(_reviews)]


async def _reviewable(
    match_id: str, master: Master, token: str | None, viewer: Viewer
) -> LiveMatch:
    """The match, if the request may see its review (else ``404`` ``server.no_match``, as
    for a match that does not exist), and it is over (else ``409``)."""
    live = await master.get(match_id)
    if not live.row.public and not await _participant(live, master, token, viewer):
        raise RefusedError("server.no_match", status=404, id=printable(match_id))
    if not live.match.over:
        raise RefusedError("server.review_not_finished", status=409)
    return live


async def _participant(live: LiveMatch, master: Master, token: str | None, viewer: Viewer) -> bool:
    """Whether the request comes from one of the match's participants: its token opens a
    seat or is the host's, or its session's account plays a seat."""
    if viewer is not None and any(s.account_id == viewer.account.id for s in live.row.seats):
        return True
    if token is None:
        return False
    if await master.seat_for_token(live.id, token) is not None:
        return True
    return await asyncio.to_thread(master.store.is_host, live.id, token)


@router.post("/api/matches/{match_id}/review", tags=["matches"], status_code=202)
async def ask_review(
    match_id: IdText,
    request: Request,
    master: Master,
    reviews: Reviews,
    token: Token,
    viewer: Viewer,
    lang: Lang,
) -> Any:
    """Ask for the review of a finished match (every seat, the server's budget): ``202``
    when this request queued it, ``200`` with its state when it was asked for already
    (nothing is computed again). The answer: ``{"status": "queued"|"running"|"done"|
    "failed", "done", "total", "review"}`` (``review``: the review, once done). New reviews
    are limited per account and per address (``429`` ``server.review_slow_down``)."""
    live = await _reviewable(match_id, master, token, viewer)
    existing = await reviews.answer(live.id)
    if existing is not None:
        return JSONResponse(existing)
    # an account counts only if the request proves it comes from the client itself
    account = viewer.account.id if viewer is not None and same_site(request, viewer) else None
    address = address_of(request)
    wait = reviews.limits.take(account, address)
    if wait is not None:
        refused = error_response(429, "server.review_slow_down", lang)
        refused.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        return refused
    row, created = await reviews.ask(live.id, live.match.record.to_json(), account, address)
    if not created:  # another request queued it meanwhile
        reviews.limits.give_back(account, address)
        return JSONResponse(row.answer())
    return JSONResponse(row.answer(), status_code=202)


@router.get("/api/matches/{match_id}/review", tags=["matches"])
async def get_review(
    match_id: IdText, master: Master, reviews: Reviews, token: Token, viewer: Viewer
) -> Any:
    """A finished match's review: its state while it is computed (``done`` of ``total``
    steps), then the review; ``{"status": "none", …}`` if nobody asked for it yet."""
    live = await _reviewable(match_id, master, token, viewer)
    return await reviews.get(live.id)
