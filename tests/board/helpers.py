"""Shared helpers of the board-game tests: explicit set-ups, playing moves, refusals."""

from __future__ import annotations

from typing import Any

from keltis.board import BoardGame, BoardState
from keltis.core.card_codes import CARD_TEXT
from keltis.games import get_game
from support import legal as legal
from support import play as play
from support import refused as refused
from support import rehide as rehide

GAME = get_game("board")
assert isinstance(GAME, BoardGame)

#: Eight cards no rule test lays: the hands of seats that only discard and draw.
FILLER = (
    "B0 B0 B1 B1 B2 B2 B3 B3",
    "B4 B4 B5 B5 B6 B6 B7 B7",
    "B8 B8 B9 B9 B10 B10 P10 P10",
)

_CARD_LISTS = ("deck", "removed")


def new(
    players: int = 2,
    *,
    hands: list[str],
    variant: dict[str, Any] | None = None,
    layout: dict[str, Any] | None = None,
    **setup: Any,
) -> BoardState:
    """A state from an explicit set-up. ``hands`` (and ``deck``, ``removed``) may be given as
    space-separated card text; seats without a hand get a :data:`FILLER` hand. Tiles default
    to none at all, so that only the tiles a test names can act."""
    given = [h.split() for h in hands]
    given += [FILLER[i].split() for i in range(players - len(given))]  # seats not named
    data: dict[str, Any] = {"hands": given, "tiles": {}}
    for key, value in setup.items():
        data[key] = value.split() if key in _CARD_LISTS and isinstance(value, str) else value
    return GAME.new_game(players, setup=data, variant=variant, layout=layout)


def discard_any(state: BoardState) -> BoardState:
    """The current seat discards its first card and draws from the draw pile."""
    card = state.hands[state.current_player][0]
    return play(state, "-" + CARD_TEXT[card], "draw")
