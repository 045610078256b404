"""The bots', hints' and reviews' thinking, in a pool of worker processes (never on the event
loop: a hard bot's second must not stall the other matches).

A job carries the match's record (as JSON): the worker replays it — bots are reseeded per
decision from the record's bot seeds and the ply, so the decision is the same in whatever
process it is made — and returns the chosen action's notation, or the hints, or one step of
a finished match's review (:mod:`keltis.server.reviews` hands them over one at a time, so a
bot's move never waits behind a whole review). The server's event loop hands jobs over
through :class:`WorkerPool`.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from keltis import review
from keltis.bots.hints import hints
from keltis.bots.levels import LEVELS
from keltis.bots.spec import make_bot
from keltis.core.protocol import JSON
from keltis.match import Match
from keltis.record import GameRecord

log = logging.getLogger("keltis.server")

#: The bot levels a seat may have: ``random`` and the levels for people.
BOT_LEVELS: tuple[str, ...] = ("random", *LEVELS)


def bot_spec(level: str) -> str:
    """The bot spec behind a seat's level."""
    return "random" if level == "random" else LEVELS[level].spec


def choose(record_json: dict[str, Any], seat: int, level: str) -> tuple[str, float]:
    """The action the ``level`` bot of ``seat`` takes at the end of the record (its
    notation) and the seconds it thought."""
    record = GameRecord.from_json(record_json)
    match = Match(record, {seat: make_bot(bot_spec(level))}, narrate=False)
    step = match.play_bot()
    return str(step.action), step.seconds or 0.0


def hint_list(record_json: dict[str, Any], seat: int, count: int) -> list[dict[str, object]]:
    """The best ``count`` actions for ``seat`` (to move) at the end of the record."""
    record = GameRecord.from_json(record_json)
    match = Match(record, narrate=False)
    seed = match.bot_seeds[seat] ^ (match.ply * 7919)
    return [hint.to_json() for hint in hints(match.view(seat), count, seed=seed)]


#: The positions of the record a worker reviewed last (its JSON text → positions): a review's
#: steps come one after another, mostly to the same worker, and each would replay it again.
_reviewed: dict[str, tuple[Any, Any]] = {}


def review_plan(record_json: dict[str, Any], budget_json: dict[str, int]) -> list[str]:
    """The steps of the review of every seat of the finished record
    (:func:`keltis.review.plan`)."""
    record = GameRecord.from_json(record_json)
    return review.plan(record, None, review.ReviewBudget(**budget_json))


def review_step(
    record_json: dict[str, Any], step: str, budget_json: dict[str, int]
) -> tuple[JSON, float]:
    """One step of a review (:func:`keltis.review.run_step`) and the CPU seconds it took."""
    started = time.process_time()
    record = GameRecord.from_json(record_json)
    key = repr(record_json)
    known = _reviewed.get(key)
    if known is None:
        known = review.positions(record)
        _reviewed.clear()
        _reviewed[key] = known
    result = review.run_step(record, step, review.ReviewBudget(**budget_json), known)
    return result, time.process_time() - started


def review_assemble(
    record_json: dict[str, Any],
    budget_json: dict[str, int],
    results: dict[str, JSON],
    cpu_seconds: float,
) -> JSON:
    """The review of every seat from its steps' results (:func:`keltis.review.assemble`)."""
    record = GameRecord.from_json(record_json)
    budget = review.ReviewBudget(**budget_json)
    return review.assemble(record, None, budget, results, cpu_seconds).to_json()


def make_pool(workers: int) -> Executor:
    """``workers`` processes (started fresh, not forked from the server's threads); 0 runs
    the jobs in threads of the server process instead (tests, tiny machines)."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="keltis-bot")
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_ignore_interrupts
    )


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the server (the terminal sends it to every process of the
    group): the server stops, and the workers with it, without a traceback from each."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerPool:
    """The pool the server's bots and hints think in (:func:`make_pool`'s), started again
    should a worker process die."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = make_pool(workers)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker, awaited without blocking the event loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, function, *args)
        except BrokenProcessPool:
            log.error("the bot worker pool broke; starting a new one")
            self.pool = make_pool(self.workers)
            return await loop.run_in_executor(self.pool, function, *args)

    def shutdown(self) -> None:
        """Stop the workers, dropping the jobs not yet begun."""
        self.pool.shutdown(wait=False, cancel_futures=True)
