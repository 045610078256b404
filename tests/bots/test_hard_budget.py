"""The hard level is budgeted in playouts: the same seed gives the same decisions (its time
net is a safety far above what a search takes)."""

from __future__ import annotations

import pytest

from keltis.bots import make_bot
from keltis.bots.ismcts import IsmctsBot
from keltis.match import Match
from keltis.record import PlayerInfo


def _first_decisions(game: str, count: int) -> list[str]:
    bots = {0: make_bot("hard"), 1: make_bot("medium")}
    match = Match.new(game, [PlayerInfo("Morrigan", "hard"), PlayerInfo("Fionn", "medium")],
                      bots, seed=11)  # fmt: skip
    taken: list[str] = []
    while len(taken) < count:
        step = match.play_bot()
        if step.seat == 0:
            taken.append(str(step.action))
    return taken


def test_the_hard_level_is_budgeted_in_playouts() -> None:
    hard = make_bot("hard")
    assert isinstance(hard, IsmctsBot)
    assert hard.config.iterations == 800
    assert hard.config.seconds is not None
    assert hard.config.seconds >= 2.5


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_seeded_game_against_hard_replays_the_same(game: str) -> None:
    assert _first_decisions(game, 6) == _first_decisions(game, 6)
