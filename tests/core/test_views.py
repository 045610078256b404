"""Views are built without the dataclass's field-by-field ``__init__`` and with caches of the
rows, tiles, recent moves and variant: they must equal views built the plain way, field for
field, at every step of seeded games."""

from __future__ import annotations

import dataclasses
import random

import pytest

from keltis.core.protocol import View
from keltis.games import get_game


def _plain(view: View) -> View:
    """The same view through the dataclass's own ``__init__``."""
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    return type(view)(**values)


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("players", [2, 4])
def test_views_hold_every_field_and_equal_plainly_built_ones(game: str, players: int) -> None:
    rng = random.Random(players)
    state = get_game(game).new_game(players, seed=7)
    names = {f.name for f in dataclasses.fields(state.view(None))}
    while not state.over:
        for seat in (None, *range(players)):
            view = state.view(seat)
            assert set(vars(view)) == names
            assert view == _plain(view)
        copy = state.clone()
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
        # a clone shares the caches but not the moves after it
        assert copy.view(None).ply == len(copy.history)
        assert copy.view(None).recent == tuple(
            (copy.actors[i], str(copy.history[i]))
            for i in range(max(0, len(copy.history) - 12), len(copy.history))
        )
        fresh = state.view(None)
        assert fresh.recent[-1] == (state.actors[-1], str(state.history[-1]))
        assert fresh.scores == tuple(state.scores())
