"""Finished matches after the fact: the full record (``/api/matches/{id}/record``) and a
replay, position by position, as a spectator or one seat saw it
(``/api/matches/{id}/replay``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from keltis.server.answers import RefusedError
from keltis.server.bodies import IdText
from keltis.server.routes.deps import Master, Replays

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
    match_id: IdText,
    master: Master,
    replays: Replays,
    ply: int = 0,
    seat: int | None = None,
) -> Any:
    """A finished match's position after ``ply`` actions (0: the start), as a spectator
    sees it — or, with ``seat``, as that seat saw it then (its own hand: the record with
    every card is public once the match is over): ``version`` and ``total`` (the number of
    actions), ``seat``, ``view``, ``step`` (the action that led there; null at 0) and
    ``match``."""
    live = await master.get(match_id)
    if not live.match.over:
        raise RefusedError("server.not_finished")
    record = live.match.record
    total = len(record.actions)
    if not 0 <= ply <= total:
        raise RefusedError("server.no_ply", status=400, ply=ply, total=total)
    if seat is not None and not 0 <= seat < len(record.players):
        raise RefusedError("server.no_seat", status=400, seat=seat)
    position = await asyncio.to_thread(lambda: replays.get(match_id, record).position(ply, seat))
    return {
        "version": total,
        "ply": ply,
        "total": total,
        "seat": seat,
        **position,
        "match": master.summary(live),
    }
