"""What the other server processes store reaches this one: PostgreSQL's LISTEN/NOTIFY.

The transaction that stores an action, a seat's change or a take-back also sends ``NOTIFY
keltis '<match>:<ply, "seats" or "undo">:<origin>'`` (:mod:`keltis.server.store`), delivered at
commit. A process that serves that match catches it up from the database and tells its
clients; its own changes it has told already. Without PostgreSQL (SQLite) there are no
notifications: only the periodic sweep (:mod:`keltis.server.upkeep`) notices bots to move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg
import sqlalchemy as sa

from keltis.server.cache import MatchCache
from keltis.server.store import CHANNEL
from keltis.server.tasks import Background

log = logging.getLogger("keltis.server")

#: Seconds to wait before connecting again after the notification connection dropped.
RECONNECT_AFTER = 1.0


class Notifier:
    """Follows the notifications of the other processes and catches the matches of
    ``cache`` up (``origin``: this process's name in its own notifications)."""

    def __init__(self, cache: MatchCache, origin: str, background: Background) -> None:
        self.cache = cache
        self.origin = origin
        self.background = background
        #: What else than a match's moves and seats is told (``<match>:<what>:<origin>``):
        #: the handler of each ``what`` (``"chat"``: :meth:`ChatRoom.notified`), called with
        #: the match id for the other processes' notices.
        self.handlers: dict[str, Callable[[str], Awaitable[None]]] = {}

    async def notified(self, payload: str) -> None:
        """A process stored something for a match (``<match>:<ply or "seats">:<origin>``):
        catch up if this process serves the match and does not know it yet — its own
        changes it has told its clients of already."""
        match_id, what, origin = ([*payload.split(":"), "", ""])[:3]
        handler = self.handlers.get(what)
        if handler is not None:
            if origin != self.origin:
                await handler(match_id)
            return
        live = self.cache.live.get(match_id)
        if live is None or origin == self.origin:
            return
        if what.isdigit() and int(what) <= live.match.ply:
            return
        async with live.lock:
            await self.cache.catch_up(live, compare_all=what == "undo")

    async def listen(self, url: str) -> None:
        """Follow the other processes' changes (PostgreSQL LISTEN), reconnecting when the
        connection drops; after a reconnection every live match catches up."""
        conninfo = libpq_url(url)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    for live in list(self.cache.live.values()):
                        self.background.spawn(self.notified(f"{live.id}:seats:"))
                    async for notice in connection.notifies():
                        self.background.spawn(self.notified(notice.payload))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the PostgreSQL notification connection; reconnecting")
                await asyncio.sleep(RECONNECT_AFTER)


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL ``url`` as libpq (psycopg) takes it."""
    parsed = sa.make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)
