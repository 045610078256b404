"""Hints: the best few actions for a view, with estimates, from the view alone."""

from __future__ import annotations

import json

import pytest

from keltis.bots.hints import Hint, hints
from keltis.games import get_game

from .helpers import GAMES, positions


def a_choice(game: str, players: int = 3):  # type: ignore[no-untyped-def]
    """A position some way into a game where the player to move has several options."""
    for i, state in enumerate(positions(game, players, seed=4, every=3)):
        if i > 10 and len(state.legal_actions()) >= 5:
            return state
    raise AssertionError("no position with a choice")


@pytest.mark.parametrize("game", GAMES)
def test_hints_are_legal_with_estimates(game: str) -> None:
    state = a_choice(game)
    view = state.view(state.current_player)
    found = hints(view, count=3, iterations=90)
    assert len(found) == 3
    assert len({h.action for h in found}) == 3
    for hint in found:
        assert isinstance(hint, Hint)
        assert hint.action in view.legal
        assert 0.0 <= hint.win <= 1.0
        assert hint.playouts > 0
        assert json.loads(json.dumps(hint.to_json()))["action"] == str(hint.action)


@pytest.mark.parametrize("game", GAMES)
def test_hints_are_reproducible(game: str) -> None:
    state = a_choice(game)
    view = state.view(state.current_player)
    assert hints(view, iterations=60, seed=3) == hints(view, iterations=60, seed=3)


def test_a_forced_move_is_the_only_hint() -> None:
    state = get_game("board").new_game(2, seed=1)
    state.apply(state.legal_actions()[-1])  # the first discard: only the deck may be drawn (B-15)
    view = state.view(state.current_player)
    assert len(view.legal) == 1
    found = hints(view, count=3, iterations=30)
    assert [h.action for h in found] == list(view.legal)


def test_hints_refuse_views_without_a_decision() -> None:
    state = get_game("cards").new_game(2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        hints(state.view(None))
    with pytest.raises(ValueError, match="not to move"):
        hints(state.view(1))
    with pytest.raises(ValueError, match="count must be at least 1"):
        hints(state.view(0), count=0)
