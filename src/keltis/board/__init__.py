"""Keltis, the board game ("The Stone Path"): rules B-1 … B-24 of RULES.md."""

from __future__ import annotations

import random
from typing import ClassVar

from keltis.board.layout import DEFAULT_LAYOUT, Layout, layout_from_json
from keltis.board.state import BoardSetup, BoardState, BoardVariant
from keltis.board.view import BoardView, board_view, sample_board_state
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON, Game, View


class BoardGame(Game):
    """The board game's rules: creates :class:`BoardState` objects."""

    name: ClassVar[str] = "board"
    title: ClassVar[str] = "Keltis (board game)"

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
        layout: JSON | str | None = None,
    ) -> BoardState:
        """A new game; ``setup`` is the JSON form of :class:`BoardSetup`, ``layout`` a
        layout's JSON form, ``"default"`` or ``None``."""
        self.check_players(players)
        board = layout_from_json(layout)
        rules = BoardVariant.from_json(variant)
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return BoardSetup.from_json(setup, players).build(players, rules, board)
        return BoardState.new(players, seed=seed, variant=rules, layout=board)

    def sample_state(self, view: View, rng: random.Random) -> BoardState:
        """A full state consistent with a board-game view."""
        if not isinstance(view, BoardView):
            raise TypeError("the board game samples from a BoardView")
        return sample_board_state(view, rng)


__all__ = [
    "DEFAULT_LAYOUT",
    "BoardGame",
    "BoardSetup",
    "BoardState",
    "BoardVariant",
    "BoardView",
    "Layout",
    "board_view",
    "sample_board_state",
]
