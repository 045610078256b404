"""Shared helpers of the bot tests: seeded positions of both games and a game loop."""

from __future__ import annotations

import random
from collections.abc import Iterator

from keltis.bots.base import Bot
from keltis.core.protocol import GameState
from keltis.games import get_game

GAMES = ("board", "cards")


def play_game(game: str, bots: list[Bot], seed: int, turn_cap: int = 1500) -> GameState:
    """Play a seeded game to the end, each bot seeing only its seat's view; every chosen
    action must be one of the view's legal actions."""
    state = get_game(game).new_game(len(bots), seed=seed, variant={"turn_cap": turn_cap})
    while not state.over:
        seat = state.current_player
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal, f"{bots[seat].name} chose {action}, not in {view.legal}"
        state.apply(action)
    return state


def positions(game: str, players: int, seed: int, every: int = 7) -> Iterator[GameState]:
    """Positions of a seeded random game, every ``every``-th decision, as clones."""
    state = get_game(game).new_game(players, seed=seed, variant={"turn_cap": 1500})
    rng = random.Random(seed)
    step = 0
    while not state.over:
        if step % every == 0:
            yield state.clone()
        actions = state.legal_actions()
        state.apply(actions[int(rng.random() * len(actions))])
        step += 1
