"""Finished matches after the fact: the full record (``/api/matches/{id}/record``) and a
replay, position by position, as a spectator sees it (``/api/matches/{id}/replay``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from keltis.server.answers import RefusedError, bad_request
from keltis.server.bodies import IdText
from keltis.server.routes.deps import Lang, Master, Replays

router = APIRouter()


@router.get("/api/matches/{match_id}/record", tags=["matches"])
async def record(match_id: IdText, master: Master) -> Any:
    """A finished match's full record (the project's record JSON, replayable with
    ``keltis replay``)."""
    live = await master.get(match_id)
    if not live.match.over:
        raise RefusedError("server.not_finished")
    return JSONResponse(
        live.match.record.to_json(),
        headers={"Content-Disposition": f'attachment; filename="keltis-{match_id}.json"'},
    )


@router.get("/api/matches/{match_id}/replay", tags=["matches"])
async def replay(
    match_id: IdText, master: Master, replays: Replays, lang: Lang, ply: int = 0
) -> Any:
    """A finished match's position after ``ply`` actions (0: the start), as a spectator
    sees it: ``version`` and ``total`` (the number of actions), ``view`` (the public
    view), ``step`` (the action that led there; null at 0) and ``match``."""
    live = await master.get(match_id)
    if not live.match.over:
        raise RefusedError("server.not_finished")
    record = live.match.record
    total = len(record.actions)
    if not 0 <= ply <= total:
        return bad_request(400, lang, f"ply {ply} is not a position of this match (0 to {total})")
    position = await asyncio.to_thread(lambda: replays.get(match_id, record).position(ply))
    return {
        "version": total,
        "ply": ply,
        "total": total,
        **position,
        "match": master.summary(live),
    }
