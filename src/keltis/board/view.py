"""The one door out of a board-game state: what a player or a spectator may see.

Hidden cards — other players' hands, the draw pile, the cards removed in a 2-player game —
appear only as counts. Cards a player took from a discard pile are public (everyone saw them
taken) and are listed as ``known_cards`` until they are played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from keltis.board.actions import ACTIONS
from keltis.board.labels import action_label
from keltis.board.layout import TILE_LETTERS, Layout
from keltis.board.tables import BOARD_WISH_POINTS, board_parts, path_points
from keltis.core.actions import Action, ActionSpace
from keltis.core.card_codes import COLOUR_LETTERS, NUM_COLOURS
from keltis.core.labels import Label
from keltis.core.protocol import JSON, View, cards_json
from keltis.core.scoring import wish_points

#: How many of the last moves a view lists (``View.recent``).
RECENT_MOVES = 12


@dataclass(frozen=True)
class BoardView(View):
    """A board-game view. Everything here is public, except ``hand`` (the viewer's own)."""

    actions: ClassVar[ActionSpace] = ACTIONS

    layout: Layout
    tiles: tuple[tuple[int, ...], ...]
    """tiles[colour][row], rows 0-9 (codes: see ``keltis.board.layout``)."""
    piles: tuple[tuple[int, ...], ...]
    """The five discard piles, bottom first (all face up)."""
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    """rows[player][colour]: the cards each player laid."""
    directions: tuple[tuple[int, ...], ...]
    positions: tuple[tuple[int, ...], ...]
    """positions[player][colour]: row 1-9 of the figure on that path, 0 if none."""
    big: tuple[int, ...]
    """Path of each player's big figure, -1 while it is on the start stone."""
    tile_points: tuple[int, ...]
    wishes: tuple[int, ...]
    goal_count: int
    pending: int
    """Path of the figure a pending figure/clover/overflow decision is about (-1 if none)."""
    discarded_pile: int
    """The pile the current player discarded to this turn (-1 if none)."""

    def score_breakdown(self, player: int) -> dict[str, int]:
        """``player``'s score as it stands, part by part (B-21-B-23)."""
        return board_parts(
            self.positions[player], self.big[player], self.tile_points[player], self.wishes[player]
        )

    def action_label(self, action: Action, preview: JSON) -> Label:
        """A legal action in words (see :mod:`keltis.board.labels`)."""
        return action_label(action, preview)

    def score_parts(self, player: int) -> JSON:
        """What ``player``'s score is made of as it stands (B-21-B-23): each path's figure
        (its row's value, double for the big figure), the point tiles, the wish stones' points
        and how many they are."""
        paths = path_points(self.positions[player], self.big[player])
        wishes = self.wishes[player]
        return {
            "paths": {COLOUR_LETTERS[c]: paths[c] for c in range(NUM_COLOURS)},
            "tiles": self.tile_points[player],
            "wishes": wish_points(BOARD_WISH_POINTS, wishes),
            "wish_count": wishes,
        }

    def to_json(self) -> JSON:
        """A JSON-ready dict: cards and actions as notation."""

        return {
            **self.base_json(),
            "layout": self.layout.to_json(),
            "tiles": {
                COLOUR_LETTERS[c]: "".join(TILE_LETTERS[t] for t in self.tiles[c][1:])
                for c in range(NUM_COLOURS)
            },
            "discards": {COLOUR_LETTERS[c]: cards_json(p) for c, p in enumerate(self.piles)},
            "players": [
                {
                    **self.rows_json(self.rows[p], self.directions[p]),
                    "positions": {
                        COLOUR_LETTERS[c]: self.positions[p][c] for c in range(NUM_COLOURS)
                    },
                    "big": COLOUR_LETTERS[self.big[p]] if self.big[p] >= 0 else None,
                    "tile_points": self.tile_points[p],
                    "wishes": self.wishes[p],
                    "score": self.scores[p],
                    "parts": self.score_parts(p),
                }
                for p in range(self.num_players)
            ],
            "goal_count": self.goal_count,
            "pending": COLOUR_LETTERS[self.pending] if self.pending >= 0 else None,
            "discarded_pile": (
                COLOUR_LETTERS[self.discarded_pile] if self.discarded_pile >= 0 else None
            ),
        }
