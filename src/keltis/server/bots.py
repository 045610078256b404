"""The bots' turns in live matches: while a bot (or a stand-in for an away player) is to
move, it thinks in the worker pool and its move is submitted like a person's.

One task per match moves its bots one after another, each after the configured delay. The
move is submitted only if the match is still where the bot looked at it: a person who moved
first, or took the seat back, makes the bot decide again or stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from keltis.core.errors import KeltisError
from keltis.match import NotYourTurnError, StaleActionError, Step
from keltis.server import workers
from keltis.server.config import ServerConfig
from keltis.server.livematch import LiveMatch
from keltis.server.tasks import Background

log = logging.getLogger("keltis.server")

#: Apply, store and tell a move, ``(live, seat, action, version)``, the caller holding the
#: match's lock: the match service's own way to submit, which a person's action takes too.
Submit = Callable[[LiveMatch, int, str, int], Awaitable[Step]]

#: A bot that failed this many times in a row stops until the next sweep.
MAX_FAILURES = 3


def bot_level(live: LiveMatch) -> str | None:
    """The level of the bot to move in ``live`` (a bot seat's or a stand-in's), or
    ``None`` where none is (a person to move, the match not running or over)."""
    if live.row.status != "running" or live.match.over:
        return None
    return live.row.seats[live.match.to_move].bot_level


class BotTurns:
    """Starts and runs the bots' turns of this process's live matches."""

    def __init__(
        self,
        config: ServerConfig,
        pool: workers.WorkerPool,
        background: Background,
        submit: Submit,
    ) -> None:
        self.config = config
        self.pool = pool
        self.background = background
        self.submit = submit

    def drive(self, live: LiveMatch) -> None:
        """If a bot (or a stand-in) is to move in ``live``, start its task (once)."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if bot_level(live) is None:
            return
        live.bot_task = self.background.spawn(self._turns(live))

    async def _turns(self, live: LiveMatch) -> None:
        """Bots move, one after another, while one is to move: each after the configured
        delay, thinking in the worker pool."""
        failures = 0
        while (level := bot_level(live)) is not None:
            seat, ply = live.match.to_move, live.match.ply
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            record = live.match.record.to_json()
            try:
                notation, _seconds = await self.pool.run(workers.choose, record, seat, level)
            except Exception:
                failures += 1
                log.exception("bot of match %s, seat %d failed", live.id, seat)
                if failures >= MAX_FAILURES:
                    return  # the sweep tries again later
                continue
            async with live.lock:
                if live.match.ply != ply or bot_level(live) != level:
                    continue  # someone moved, or the player took the seat back
                try:
                    await self.submit(live, seat, notation, ply)
                except (StaleActionError, NotYourTurnError):
                    continue  # another process moved first: decide again on the new position
                except KeltisError:
                    failures += 1
                    log.exception("bot of match %s, seat %d chose %r", live.id, seat, notation)
                    if failures >= MAX_FAILURES:
                        return
