"""Board-game previews (see :mod:`keltis.core.preview`): for each legal action, the figure
that moves — its path, the rows it goes from and to, the tile it reaches, whether it enters
the goal area — with the score change, the decision that follows and whether the game ends.
``BoardView.previews`` finds :func:`previews` here by name (see ``View.previews``).
"""

from __future__ import annotations

from keltis.board.events import board_events
from keltis.board.layout import CLOVER, NO_TILE, WISH
from keltis.board.sample import sample_board_state
from keltis.board.tables import GOAL_ROW, LAST_ROW
from keltis.board.view import BoardView
from keltis.core.actions import Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, COLOUR_LETTERS
from keltis.core.preview import game_previews
from keltis.core.protocol import JSON


def previews(view: BoardView) -> list[JSON]:
    """A preview per action of ``view.legal`` (empty unless the viewer is to decide): the
    common parts, and ``figure`` (:func:`figure_move`)."""
    return game_previews(view, sample_board_state, board_events, _figure)


def _figure(view: BoardView, action: Action, after: BoardView) -> JSON:
    """The board game's part of a preview: ``figure``, the figure ``action`` moves."""
    return {"figure": figure_move(view, action)}


def figure_move(view: BoardView, action: Action) -> JSON | None:
    """The figure ``action`` moves: ``path`` (letter), ``from`` and ``to`` (rows 0-9; a new
    path's figure goes from 0 to 1 once big or small is chosen), ``big`` (``null`` while that
    choice is still to come), ``overflow`` (the figure already stands on the end stone: another
    figure may move instead, B-14), ``goal`` (it enters the goal area) and ``tile`` (what lies
    on the stone it reaches: ``{"kind": "points", "points": 2}``, ``clover`` or ``wish``)."""
    me = view.current_player
    kind = action.kind
    if kind is ActionKind.LAY:
        path = CARD_COLOUR[action.card]
    elif kind is ActionKind.ADVANCE:
        path = action.target
    elif kind is ActionKind.FIGURE:
        path = view.pending
    else:
        return None
    row = view.positions[me][path]
    big: bool | None = view.big[me] == path if row else None
    if kind is ActionKind.FIGURE:
        row, big = 0, action.target == 1
    overflow = row >= LAST_ROW
    to = row if overflow else row + 1
    return {
        "path": COLOUR_LETTERS[path],
        "from": row,
        "to": to,
        "big": big,
        "overflow": overflow,
        "goal": not overflow and to == GOAL_ROW,
        "tile": None if overflow else tile_json(view.tiles[path][to]),
    }


def tile_json(tile: int) -> JSON | None:
    """A tile's wire form (``None``: an empty stone)."""
    if tile == NO_TILE:
        return None
    if tile == CLOVER:
        return {"kind": "clover"}
    if tile == WISH:
        return {"kind": "wish"}
    return {"kind": "points", "points": tile}
