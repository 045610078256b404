"""The server's periodic work: players' presence written down (:class:`Presence`), the
sweep for matches whose bot should move but does not (:class:`Sweeper`), the seats whose
time control ran out (:class:`Timeouts`) and the lobby's seeks that bots are to fill
(:class:`SeekFiller`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from keltis.server import vacation
from keltis.server.cache import MatchCache
from keltis.server.config import ServerConfig
from keltis.server.store import Store, now

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


class Timeouts:
    """Hands the seats whose time control ran out to a bot (docs/server.md, "Time
    controls"): every ``timeout_interval`` seconds one indexed query finds the running
    matches past their ``deadline``; each late seat is marked ``timed_out`` with a stand-in
    of the ``--stand-in`` level (a conditional update: of several processes one does it),
    and ``resume`` catches the match up and lets the bot play on. It runs from the start,
    so a deadline that passed while no server ran is handled at once after a restart."""

    def __init__(
        self, store: Store, config: ServerConfig, resume: Callable[[str], Awaitable[None]]
    ) -> None:
        self.store = store
        self.config = config
        self.resume = resume

    async def check(self) -> None:
        """Time out every decision past its deadline now — but not a correspondence
        decision of an account on vacation (keltis.server.vacation: the vacations due to
        end are ended first, their deadlines pushed back)."""
        await asyncio.to_thread(vacation.upkeep, self.store.engine, now())
        decisions = await asyncio.to_thread(self.store.late_decisions, now())
        paused = await asyncio.to_thread(vacation.paused, self.store.engine, decisions, now())
        for late in decisions:
            if late.match_id in paused:
                continue
            try:
                level = self.config.stand_in_level
                if await asyncio.to_thread(self.store.time_out, late, level):
                    log.info("match %s: seat %d ran out of time", late.match_id, late.seat)
                    await self.resume(late.match_id)
            except Exception:
                log.exception("could not time out match %s", late.match_id)

    async def run(self) -> None:
        """Check at start, then every ``timeout_interval`` seconds."""
        await every(
            self.config.timeout_interval, self.check, "could not look for decisions out of time"
        )


class SeekFiller:
    """Fills the lobby's seeks whose wait for people is over with bots, and starts their
    matches (docs/server.md, "The lobby: seeks"): every ``interval`` seconds ``fill`` looks
    for them (:meth:`keltis.server.seeks.Seeks.fill_due`, which claims each seek in the
    transaction that stores its match: of several processes, one fills it). It runs from
    the start, so a seek whose wait ended while no server ran is filled at once."""

    def __init__(self, fill: Callable[[], Awaitable[None]], interval: float) -> None:
        self.fill = fill
        self.interval = interval

    async def run(self) -> None:
        """Fill at start, then every ``interval`` seconds."""
        await every(self.interval, self.fill, "could not fill the seeks waiting for bots")


async def every(interval: float, work: Callable[[], Awaitable[None]], failed: str) -> None:
    """Do ``work`` now and then every ``interval`` seconds, for ever; a failure is logged
    (``failed`` says what could not be done) and the next round comes as usual."""
    while True:
        try:
            await work()
        except Exception:
            log.exception(failed)
        await asyncio.sleep(interval)
