"""``GET /api/me/export``: the logged-in account's own data as one JSON file
(:mod:`keltis.server.export`; docs/server.md, "Your data").

Heavy for an account of many matches, so limited: :data:`PER_HOUR` per account (each
process counts its own), and at most :data:`AT_ONCE` archives written at once per process.
A plain ``GET`` with the session cookie, so that the settings page's link downloads it; a
request from another site cannot read what it answers (no CORS), and it changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from keltis.server.answers import RefusedError
from keltis.server.export import Exporter
from keltis.server.ratelimit import Buckets
from keltis.server.routes.deps import Master, Viewer
from keltis.server.store import now

router = APIRouter()

#: Archives an account may download per hour (all at once, or one every 20 minutes).
PER_HOUR = 3
#: Archives written at the same time by one process (the rest are asked to wait).
AT_ONCE = 4


def _limits(request: Request) -> tuple[Buckets, list[int]]:
    """The application's per-account buckets and its count of archives being written."""
    state = request.app.state
    if not hasattr(state, "export_limits"):
        state.export_limits = (Buckets(PER_HOUR / 3600, PER_HOUR), [0])
    limits: tuple[Buckets, list[int]] = state.export_limits
    return limits


@router.get("/api/me/export", tags=["accounts"])
async def export(request: Request, viewer: Viewer, master: Master) -> StreamingResponse:
    """The account's data as one JSON file (``keltis-data-{date}.json``): the account and
    its settings, ratings and their history, every match it sat in (a finished one's record,
    an unfinished one's view of its own seats), its chat lines, mutes, blocks, reports."""
    if viewer is None:
        raise RefusedError("account.no_session", status=401)
    buckets, running = _limits(request)
    if running[0] >= AT_ONCE:
        raise RefusedError("export.busy", status=503)
    if not buckets.bucket(viewer.account.id).take():
        raise RefusedError("export.slow_down", status=429)
    account = viewer.account
    exporter = Exporter(master)

    async def pieces() -> AsyncIterator[bytes]:
        # counted from its first piece: a response never sent leaves no count behind
        running[0] += 1
        try:
            async for piece in exporter.stream(account, asyncio.to_thread):
                yield piece.encode()
        finally:
            running[0] -= 1

    filename = f"keltis-data-{now().date().isoformat()}.json"
    return StreamingResponse(
        pieces(),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )
