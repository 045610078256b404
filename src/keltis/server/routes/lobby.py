"""The lobby's seeks (``/api/seeks…``) and its live stream (``GET /api/lobby/events``,
Server-Sent Events): docs/server.md, "The lobby: seeks". The rules are
:class:`keltis.server.seeks.Seeks`'; these routes read requests and shape answers."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends
from fastapi.responses import Response, StreamingResponse
from starlette.requests import HTTPConnection, Request
from starlette.types import Receive, Scope, Send

from keltis.server import guards
from keltis.server.accounts import LoggedIn
from keltis.server.answers import error_response
from keltis.server.bodies import IdText, OpenSeek
from keltis.server.routes.deps import Connections, Lang, Member, Viewer, address_of
from keltis.server.seeks import LobbyEvents, Queue, Seeks

router = APIRouter()

#: Seconds a refused stream is asked to wait before it tries again.
RETRY_AFTER = "10"


async def _seeks(connection: HTTPConnection) -> Seeks:
    return cast(Seeks, connection.app.state.seeks)


async def _streams(connection: HTTPConnection) -> guards.Connections:
    return cast(guards.Connections, connection.app.state.lobby_streams)


#: The lobby's seeks of this process.
SeeksDep = Annotated[Seeks, Depends(_seeks)]
#: The lobby streams held, by address.
Streams = Annotated[guards.Connections, Depends(_streams)]


@router.get("/api/seeks", tags=["lobby"])
async def list_seeks(seeks: SeeksDep) -> dict[str, Any]:
    """The open seeks, oldest first."""
    return {"seeks": [s.to_json() for s in await seeks.open_seeks()]}


def _too_fast(request: Request, member: LoggedIn, seeks: Seeks, lang: str) -> Response | None:
    """A change to the seeks over the account's or the address's rate
    (:class:`~keltis.server.seeks.SeekLimits`): ``429`` ``seek.slow_down``, with the
    seconds to wait in ``Retry-After``; else ``None`` (and the change counted)."""
    address = address_of(request)
    wait = seeks.limits.take(member.account.id, address)
    if wait is None:
        return None
    answer = error_response(429, "seek.slow_down", lang)
    answer.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return answer


@router.post("/api/seeks", tags=["lobby"], status_code=201)
async def open_seek(
    body: OpenSeek, request: Request, member: Member, seeks: SeeksDep, lang: Lang
) -> Any:
    """Open a seek (logged in; at most 3 open at once): everyone in the lobby sees it.
    Opening, joining, leaving and cancelling seeks are limited together per account and
    per address (``--seek-rate``: ``429`` ``seek.slow_down``)."""
    refused = _too_fast(request, member, seeks, lang)
    if refused is not None:
        return refused
    return (await seeks.open(member.account, body)).to_json()


@router.post("/api/seeks/{seek_id}/join", tags=["lobby"])
async def join_seek(
    seek_id: IdText, request: Request, member: Member, seeks: SeeksDep, lang: Lang
) -> Any:
    """Take a place in a seek (the account's rating in its game within its range): the
    seek; the last place starts its match (``status`` ``started``, ``match`` its id — each
    player finds their seat and token in ``GET /api/me/matches``)."""
    refused = _too_fast(request, member, seeks, lang)
    if refused is not None:
        return refused
    return (await seeks.join(member.account, seek_id)).to_json()


@router.delete("/api/seeks/{seek_id}", tags=["lobby"])
async def withdraw(
    seek_id: IdText, request: Request, member: Member, seeks: SeeksDep, lang: Lang
) -> Any:
    """The seeker cancels its seek; another player in it leaves it. The seek as it is
    now."""
    refused = _too_fast(request, member, seeks, lang)
    if refused is not None:
        return refused
    return (await seeks.withdraw(member.account, seek_id)).to_json()


@router.get(
    "/api/lobby/events",
    tags=["lobby"],
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def lobby_events(
    request: Request,
    seeks: SeeksDep,
    streams: Streams,
    connections: Connections,
    lang: Lang,
    viewer: Viewer,
) -> Response:
    """The lobby live (Server-Sent Events): ``seeks`` (``{"seeks": […]}``, the open seeks)
    at once and after every change, whichever process made it; ``started`` (``{"seek",
    "match"}``) when a seek became a match; a comment line every 15 s. A logged-in stream
    also gets ``challenge`` (a seek addressed to its account: opened, then ended with its
    ``status``), and only its own (:mod:`keltis.server.friends`)."""
    address = address_of(request)
    refused = streams.admit(address)
    if refused is None:
        refused = connections.admit(address)
        if refused is not None:
            streams.release(address)
    if refused is not None:
        return _refusal(refused, lang)

    def release() -> None:
        streams.release(address)
        connections.release(address)

    try:
        # a logged-in stream also gets the challenges to its account (``challenge``)
        queue = await seeks.events.subscribe(None if viewer is None else viewer.account.id)
    except BaseException:
        release()
        raise
    if queue is None:  # the server is stopping
        release()
        return _refusal("server.busy", lang)

    def ended() -> None:
        seeks.events.unsubscribe(queue)
        release()

    return EventStream(seeks.events, queue, ended)


def _refusal(key: str, lang: str) -> Response:
    """A stream refused before it began: ``429`` over the address's limit, ``503`` over the
    process's (or while it stops)."""
    answer = error_response(429 if key == "server.too_many_connections" else 503, key, lang)
    answer.headers["Retry-After"] = RETRY_AFTER
    return answer


class EventStream(StreamingResponse):
    """A lobby stream: ``text/event-stream``, never cached or buffered by a proxy; it ends
    when the client goes (Starlette stops it on the client's disconnect) or the server
    stops (:meth:`LobbyEvents.close`), and ``ended`` then lets its place go, however it
    ended."""

    def __init__(self, events: LobbyEvents, queue: Queue, ended: Callable[[], None]) -> None:
        super().__init__(
            events.stream(queue),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self.ended = ended

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.ended()
