"""Bots never choose an illegal action: thousands of games of the cheap bots, and a few
hundred search decisions with a small budget."""

from __future__ import annotations

import pytest

from keltis.bots import IsmctsBot, SearchConfig, make_bot

from .helpers import GAMES, play_game

CHEAP = ("random", "greedy", "heuristic")
GAMES_PER_CASE = 350


# The suite's slowest tests (30-55 s each on a busy 2-core machine): more than the default
# timeout's room.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_cheap_bots_choose_only_legal_actions(game: str, players: int) -> None:
    finished = 0
    for i in range(GAMES_PER_CASE):
        bots = [make_bot(CHEAP[(i + seat) % 3], seed=i * 10 + seat) for seat in range(players)]
        state = play_game(game, bots, seed=1000 * players + i)
        finished += not state.outcome().truncated
    assert finished == GAMES_PER_CASE


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("playout", ["heuristic", "random"])
def test_search_chooses_only_legal_actions(game: str, playout: str) -> None:
    config = SearchConfig(iterations=24, playout=playout, min_rounds=2)
    searched = 0
    for seed in range(4):
        bot = IsmctsBot(seed, config)
        opponent = make_bot("heuristic", seed + 100)
        state = play_game(game, [bot, opponent], seed=seed + 70)
        assert state.over
        searched += sum(1 for seat in state.actors if seat == 0)
    assert searched >= 200
