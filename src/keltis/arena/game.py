"""One game of a tournament: (game, seats as bot specs, seeds) → record and result.

:func:`play_game` is a pure function of its :class:`~keltis.arena.tournament.GameTask`, run in
a worker process, a Ray task or in-process alike. Each bot sees only its own seat's view.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from typing import Any

from keltis.arena.tournament import GameTask
from keltis.core.errors import KeltisError
from keltis.core.protocol import GameState
from keltis.record import GameRecord, PlayerInfo


class BotFailedError(RuntimeError):
    """A bot failed in a game: it raised, or chose an action that is not legal."""


@dataclass(frozen=True)
class GameResult:
    """What a finished (or failed) game sends back to the tournament.

    ``record`` is the game's record as text (JSON): the driver writes it, so workers need no
    shared disk. ``error`` is set when a bot failed; the record then stops before that move.
    """

    index: int
    record: str
    error: str | None = None


def play_game(task: GameTask) -> GameResult:
    """Play game ``task.index`` to the end with fresh bots seeded from the task."""
    record = GameRecord.start(
        task.game,
        [PlayerInfo(spec.name, spec.text) for spec in task.seats],
        seed=task.seed,
        variant=task.variant,
    )
    think = [0.0] * len(task.seats)
    decisions = [0] * len(task.seats)
    record.meta = {"arena": {"game": task.index, "bot_seeds": list(task.bot_seeds)}}
    state = record.new_state()
    error: str | None = None
    try:
        _play(task, state, think, decisions)
    except BotFailedError as failure:
        error = str(failure)
    record.finish(state)
    record.meta["arena"]["decisions"] = decisions
    record.meta["arena"]["think_seconds"] = [round(t, 6) for t in think]
    return GameResult(task.index, record.dumps(), error)


def _play(task: GameTask, state: GameState, think: list[float], decisions: list[int]) -> None:
    seat = -1
    try:
        bots = []
        for seat in range(len(task.seats)):
            bots.append(task.seats[seat].build(task.bot_seeds[seat]))
        clock = time.perf_counter
        while not state.over:
            seat = state.current_player
            view = state.view(seat)
            start = clock()
            action = bots[seat].choose(view)
            think[seat] += clock() - start
            decisions[seat] += 1
            try:
                state.apply(action)
            except KeltisError as error:
                raise BotFailedError(
                    f"game {task.index}: bot {task.seats[seat].name!r} (seat {seat}) chose "
                    f"an illegal action {action}: {error}"
                ) from error
    except BotFailedError:
        raise
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        raise BotFailedError(
            f"game {task.index}: bot {task.seats[seat].name!r} (seat {seat}) failed: "
            f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})"
        ) from error


def result_of(record: GameRecord) -> dict[str, Any]:
    """A game's result for the statistics, from its record (``scores``, ``winners``,
    ``end_reason``, ``seats``, ``actions``)."""
    if record.result is None:
        raise ValueError("the record holds no result: the game did not finish")
    return {
        "scores": list(record.result["scores"]),
        "winners": list(record.result["winners"]),
        "end_reason": record.result["end_reason"],
        "seats": [p.name for p in record.players],
        "actions": len(record.actions),
    }
