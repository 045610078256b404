"""One game of a tournament: (game, seats as bot specs, seeds) → record and result.

:func:`play_game` is a pure function of its :class:`~keltis.arena.tournament.GameTask`, run in
a worker process, a Ray task or in-process alike. Each bot sees only its own seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from keltis.arena.tournament import GameTask
from keltis.core.errors import raised_at
from keltis.match import BotFailedError, Match
from keltis.record import GameRecord, PlayerInfo


@dataclass(frozen=True)
class GameResult:
    """What a finished (or failed) game sends back to the tournament.

    ``record`` is the game's record as text (JSON): the driver writes it, so workers need no
    shared disk. ``error`` is set when a bot failed; the record then stops before that move.
    ``game`` is the same record as an object, for the driver's results (it travels from a
    worker pickled, cheaper than reading the text back).
    """

    index: int
    record: str
    error: str | None = None
    game: GameRecord | None = None


def play_game(task: GameTask) -> GameResult:
    """Play game ``task.index`` to the end with fresh bots seeded from the task, on the match
    layer. A tournament's game is played through in one go and never resumed half-way, so each
    bot keeps its own random stream from its seed (no reseeding before every decision, which
    alone cost more than a random bot's whole decision)."""
    record = GameRecord.start(
        task.game,
        [PlayerInfo(spec.name, spec.text) for spec in task.seats],
        seed=task.seed,
        variant=task.variant,
    )
    seats = len(task.seats)
    record.meta = {"arena": {"game": task.index, "bot_seeds": list(task.bot_seeds)}}
    error: str | None = None
    seat = -1
    match: Match | None = None
    try:
        bots = {}
        for seat in range(seats):
            bots[seat] = task.seats[seat].build(task.bot_seeds[seat])
        match = Match(record, bots, bot_seeds=task.bot_seeds, narrate=False, reseed=False)
        match.play_bots()  # every seat is a bot: to the end
    except BotFailedError as failure:
        error = f"game {task.index}: {failure}"
    except Exception as failure:  # a bot that cannot even be built
        error = (
            f"game {task.index}: bot {task.seats[seat].name!r} (seat {seat}) failed: "
            f"{type(failure).__name__}: {failure}{raised_at(failure)}"
        )
    # what each seat's bot did (nothing, if a bot could not be built)
    decisions = match.bot_decisions if match is not None else [0] * seats
    think = match.bot_seconds if match is not None else [0.0] * seats
    record.meta["arena"]["decisions"] = decisions
    record.meta["arena"]["think_seconds"] = [round(t, 6) for t in think]
    return GameResult(task.index, record.dumps(), error, None if error else record)


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
