"""Keltis, the board game ("The Stone Path"): rules B-1 … B-24 of RULES.md."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from keltis.board.actions import ACTIONS
from keltis.board.events import board_events
from keltis.board.layout import DEFAULT_LAYOUT, Layout, layout_from_json
from keltis.board.sample import sample_board_state
from keltis.board.setup import BoardSetup
from keltis.board.state import BoardState, BoardVariant
from keltis.board.tables import (
    BOARD_ROW_VALUES,
    BOARD_WISH_POINTS,
    GOAL_FIGURES,
    GOAL_ROW,
    LAST_ROW,
)
from keltis.board.view import BoardView
from keltis.core.actions import Action, ActionSpace
from keltis.core.card_codes import NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.events import Event
from keltis.core.protocol import JSON, Game, View


class BoardGame(Game):
    """The board game's rules: creates :class:`BoardState` objects."""

    name: ClassVar[str] = "board"
    title: ClassVar[str] = "Keltis (board game)"
    actions: ClassVar[ActionSpace] = ACTIONS
    options: ClassVar[tuple[str, ...]] = ("layout",)
    #: The review's calibration maps (keltis.review.calibrated): fitted on seeds
    #: 410001-410012 of benchmarks/review_calibration.py, measured on 410013-410025.
    review_calibration: ClassVar[Mapping[int, tuple[float, float]]] = {
        2: (0.701, -0.210),
        4: (0.857, -0.892),
    }

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
        **options: Any,
    ) -> BoardState:
        """A new game; ``setup`` is the JSON form of :class:`BoardSetup`. The one option is
        ``layout``: a layout's JSON form, ``"default"`` or ``None`` (B-4's printed board)."""
        self.check_players(players)
        board = self._layout(options)
        rules = BoardVariant.from_json(variant)
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return BoardSetup.from_json(setup, players).build(players, rules, board)
        return BoardState.new(players, seed=seed, variant=rules, layout=board)

    def deal(self, players: int, seed: int, **options: Any) -> JSON:
        """The tiles and cards ``seed`` deals on ``layout`` (an option: a layout's JSON form,
        ``"default"`` or ``None``), as an explicit set-up."""
        self.check_players(players)
        board = self._layout(options)
        return BoardSetup.from_seed(players, seed, board).to_json()

    def _layout(self, options: dict[str, Any]) -> Layout:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise SetupError(f"the board game takes the option layout, not {', '.join(unknown)}")
        return layout_from_json(options.get("layout"))

    def load_option(self, name: str, path: str) -> JSON:
        """The ``layout`` option from a layout file (docs/records.md)."""
        if name != "layout":
            return super().load_option(name, path)
        return Layout.load(path).to_json()

    def record_variant(self, variant: JSON, version: int) -> JSON:
        """Version-1 records come from before B-15 forbade taking back the card discarded
        this turn: unless their variant says otherwise, they allowed it."""
        if version == 1:
            return {"no_take_back": False, **variant}
        return variant

    def variant_json(self, variant: JSON | None) -> JSON:
        """Every switch of the board game's variant, defaults filled in."""
        return BoardVariant.from_json(variant).to_json()

    def tables(self) -> JSON:
        """``row_values``: what a figure scores on each row, 0 (the start stone) to 9 (B-2,
        B-21: the big figure twice that); ``wish_points``: what 0, 1, … wish stones score, the
        last for that many or more (B-23); the goal area from ``goal_row`` on, and the game
        ends when ``goal_figures`` figures are in it (B-19)."""
        return {
            "row_values": list(BOARD_ROW_VALUES),
            "wish_points": list(BOARD_WISH_POINTS),
            "goal_row": GOAL_ROW,
            "goal_figures": GOAL_FIGURES,
        }

    def max_game_length(self, players: int, turn_cap: int) -> int:
        """A turn has at most four decisions besides figure moves by clover or overflow (lay
        or discard, big or small, one pass, draw); a player's figures move at most
        5 paths x 9 stones in a whole game, so that bounds the clover and overflow moves."""
        return 4 * turn_cap + NUM_COLOURS * LAST_ROW * players

    def events(self, before: View, action: Action, after: View) -> list[Event]:
        """What ``action`` did, from two views of one receiver (see :func:`board_events`)."""
        if not isinstance(before, BoardView) or not isinstance(after, BoardView):
            raise TypeError("events of this game come from two BoardViews")
        return board_events(before, action, after)

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
    "sample_board_state",
]
