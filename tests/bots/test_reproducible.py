"""A bot's choices are reproducible from its seed."""

from __future__ import annotations

import pytest

from keltis.bots import make_bot

from .helpers import GAMES, play_game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=20"])
def test_same_seeds_same_game(game: str, spec: str) -> None:
    histories = []
    for _ in range(2):
        bots = [make_bot(spec, seed=4), make_bot("heuristic", seed=5)]
        state = play_game(game, bots, seed=9)
        histories.append([str(a) for a in state.history])
    assert histories[0] == histories[1]


@pytest.mark.parametrize("game", GAMES)
def test_other_seeds_other_random_games(game: str) -> None:
    histories = set()
    for seed in range(3):
        state = play_game(game, [make_bot("random", seed), make_bot("random", seed + 50)], seed=9)
        histories.add(tuple(str(a) for a in state.history))
    assert len(histories) == 3


def test_reset_replays_the_same_choices() -> None:
    bot = make_bot("random", seed=11)
    first = play_game("board", [bot, make_bot("heuristic", 1)], seed=2)
    bot.reset()
    second = play_game("board", [bot, make_bot("heuristic", 1)], seed=2)
    assert first.history == second.history
