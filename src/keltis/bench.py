"""Speed benchmark: random playouts on one core (legal actions, choice, apply, to the end)."""

from __future__ import annotations

import random
import time
from typing import Any

from keltis.games import get_game


def random_playouts(game: str, players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Play seeded random games for about ``seconds`` and measure the rate.

    Each game is set up from its own seed (``seed``, ``seed + 1``, …), then played to the end
    by uniformly random legal actions. Returns a JSON-ready dict with ``games_per_second``.
    """
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    rules = get_game(game)
    rules.check_players(players)
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
        "game": game,
        "players": players,
        "seconds": round(elapsed, 3),
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "mean_actions_per_game": round(actions / games, 1),
        "end_reasons": ends,
    }
