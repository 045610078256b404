"""Quick pairing (``/api/pool``): join a pool, see one's entry (or the match it was paired
into), leave. docs/server.md, "Quick pairing"; the rules are
:class:`keltis.server.pool.Pool`'s."""

from __future__ import annotations

import math
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends
from fastapi.responses import Response
from starlette.requests import HTTPConnection, Request

from keltis.server.answers import error_response
from keltis.server.pool import JoinPool, Pool
from keltis.server.routes.deps import Lang, Member, address_of

router = APIRouter()


async def _pool(connection: HTTPConnection) -> Pool:
    return cast(Pool, connection.app.state.pool)


#: The quick-pairing pool of this process.
PoolDep = Annotated[Pool, Depends(_pool)]


@router.post("/api/pool", tags=["pool"], status_code=201)
async def join_pool(
    body: JoinPool, request: Request, member: Member, pool: PoolDep, lang: Lang
) -> Any:
    """Wait in a pool (logged in): the game, players, rated, time control and the wait for
    bots, each with a default. One entry per account: joining again replaces the entry
    (a match it was paired into goes on). Joins are limited per account and address
    (``--seek-rate``, as the seeks: ``429`` ``pool.slow_down``). The entry."""
    address = address_of(request)
    wait = pool.limits.take(member.account.id, address)
    if wait is not None:
        answer = error_response(429, "pool.slow_down", lang)
        answer.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        return answer
    return await pool.join(member.account, body)


@router.get("/api/pool", tags=["pool"])
async def my_entry(member: Member, pool: PoolDep) -> dict[str, Any]:
    """The account's entry (``{"entry": null}``: none): ``status`` ``waiting`` (since
    ``joined``, ``waiting`` people in its pool, the rating ``gap`` it accepts now) or
    ``paired`` (``match`` its match: the seat is in ``GET /api/me/matches``). Asking keeps
    the entry alive: one not asked for in 30 s is dropped."""
    return {"entry": await pool.mine(member.account)}


@router.delete("/api/pool", tags=["pool"], status_code=204)
async def leave_pool(member: Member, pool: PoolDep, lang: Lang) -> Response:
    """Leave the pool (``404`` ``pool.not_in`` without an entry). A match the entry was
    paired into goes on."""
    if not await pool.leave(member.account):
        return error_response(404, "pool.not_in", lang)
    return Response(status_code=204)
