"""Speed benchmark: random playouts on one core (legal actions, choice, apply, to the end)."""

from __future__ import annotations

import random
import time
from typing import Any, Final

from keltis._native import engine as native_engine
from keltis.games import get_game

#: ``reference``: the rules engine (keltis.board, keltis.cards); ``fast``: the numba batch
#: simulator (keltis.fast, ``pip install 'keltis[fast]'``).
ENGINES: Final = ("reference", "fast")


def random_playouts(
    game: str, players: int, seconds: float, seed: int = 0, engine: str = "reference"
) -> dict[str, Any]:
    """Play seeded random games for about ``seconds`` and measure the rate.

    Each game is set up from its own seed (``seed``, ``seed + 1``, …), then played to the end
    by uniformly random legal actions. Returns a JSON-ready dict with ``games_per_second``.
    ``engine="fast"`` plays the games with :func:`keltis.fast.simulate` instead (its own
    seeded deals; compiling the kernels is not timed).
    """
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    rules = get_game(game)
    rules.check_players(players)
    if engine == "fast":
        return _fast_playouts(game, players, seconds, seed)
    games = actions = 0
    ends: dict[str, int] = {}
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        state = rules.new_game(players, seed=seed + games)
        state.play_random(random.Random(seed + games))
        games += 1
        actions += len(state.history)
        reason = state.end_reason.value if state.end_reason else "none"
        ends[reason] = ends.get(reason, 0) + 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return {
        "benchmark": "random_playouts",
        "engine": "reference",
        "build": native_engine(),
        "game": game,
        "players": players,
        "seconds": round(elapsed, 3),
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "mean_actions_per_game": round(actions / games, 1),
        "end_reasons": ends,
    }


def _fast_playouts(game: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """``random_playouts`` with the batch simulator: batches of games until ``seconds``."""
    try:  # here: numba is optional (keltis[fast]); its absence is reported, not fatal
        from keltis.fast import simulate
    except ImportError as error:
        raise ValueError(str(error)) from None
    clock = time.perf_counter
    started = clock()
    simulate(game, players, 1, "random", seed)  # compiles, or loads the cached kernels
    compiled = clock() - started
    games = actions = 0
    ends: dict[str, int] = {}
    batch = 100
    start = clock()
    deadline = start + seconds
    while True:
        result = simulate(game, players, batch, "random", seed + games)
        games += batch
        actions += int(result.decisions.sum())
        for reason, count in result.end_reason_counts().items():
            ends[reason] = ends.get(reason, 0) + count
        now = clock()
        if now >= deadline:
            break
        batch = min(batch * 2, 100_000, max(100, int(games / (now - start) * (deadline - now))))
    elapsed = clock() - start
    return {
        "benchmark": "random_playouts",
        "engine": "fast",
        "game": game,
        "players": players,
        "seconds": round(elapsed, 3),
        "compile_seconds": round(compiled, 3),
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "mean_actions_per_game": round(actions / games, 1),
        "end_reasons": ends,
    }
