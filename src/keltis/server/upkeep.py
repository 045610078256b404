"""The server's periodic work: players' presence written down (:class:`Presence`) and the
sweep for matches whose bot should move but does not (:class:`Sweeper`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from keltis.server.cache import MatchCache
from keltis.server.config import ServerConfig
from keltis.server.store import Store

log = logging.getLogger("keltis.server")


class Presence:
    """Keeps ``last_seen`` fresh for every player connected to this process, so that a
    present player is never "away" (and so never handed to a stand-in bot)."""

    def __init__(self, cache: MatchCache, store: Store, interval: float) -> None:
        self.cache = cache
        self.store = store
        self.interval = interval

    async def run(self) -> None:
        """Every ``interval`` seconds, write down who is connected."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                await asyncio.to_thread(self.store.touch_many, self.cache.present())
            except Exception:
                log.exception("could not record the players' presence")


class Sweeper:
    """Starts the bots of matches waiting for one: after a restart, or when the process
    that should have moved it is gone. ``resume`` catches a match up and lets its bots
    move."""

    def __init__(
        self, store: Store, config: ServerConfig, resume: Callable[[str], Awaitable[None]]
    ) -> None:
        self.store = store
        self.config = config
        self.resume = resume

    async def sweep(self, quiet_for: float) -> None:
        """Resume every running match whose bot is to move and where nothing happened for
        ``quiet_for`` seconds."""
        for match_id in await asyncio.to_thread(
            self.store.waiting_for_bots, timedelta(seconds=quiet_for)
        ):
            try:
                await self.resume(match_id)
            except Exception:
                log.exception("could not resume match %s", match_id)

    async def run(self) -> None:
        """Sweep at start, then every ``sweep_interval`` seconds (a match is swept once
        its bot has been quiet for longer than its delay and one interval)."""
        await self.sweep(0)
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            await self.sweep(self.config.bot_delay + self.config.sweep_interval)
