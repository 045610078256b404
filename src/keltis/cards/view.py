"""The one door out of a card-game state: what a player or a spectator may see.

Hidden cards — other players' hands, the draw pile, the cards removed in a 2-player game —
appear only as counts. Cards a player took from a discard pile are public (everyone saw them
taken) and are listed as ``known_cards`` until they are played. Everything else (discard
piles, rows, point rows, wish stone cards) lies face up on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from keltis.cards.actions import ACTIONS
from keltis.cards.labels import action_label
from keltis.cards.tables import CARD_WISH_POINTS, card_parts, card_row_points
from keltis.core.actions import POINT_PILE, Action, ActionSpace
from keltis.core.card_codes import COLOUR_LETTERS, NUM_COLOURS
from keltis.core.labels import Label
from keltis.core.protocol import JSON, View, cards_json
from keltis.core.scoring import wish_points

#: How many of the last moves a view lists (``View.recent``).
RECENT_MOVES = 12


def pile_letter(pile: int) -> str:
    """``G`` … ``B`` for the colour piles, ``*`` for the point-card pile."""
    return "*" if pile == POINT_PILE else COLOUR_LETTERS[pile]


@dataclass(frozen=True)
class CardView(View):
    """A card-game view. Everything here is public, except ``hand`` (the viewer's own)."""

    actions: ClassVar[ActionSpace] = ACTIONS

    wish_row: tuple[int, ...]
    """Values (1-9) of the wish stone cards still face up, ascending."""
    piles: tuple[tuple[int, ...], ...]
    """The six discard piles, bottom first: colours 0-4, then point cards (index 5)."""
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    """rows[player][colour]: the cards laid (number, point and closing cards)."""
    directions: tuple[tuple[int, ...], ...]
    """directions[player][colour]: 0 open, 1 ascending, -1 descending."""
    point_rows: tuple[tuple[int, ...], ...]
    """Per player: the point cards in the separate point row."""
    wish_stones: tuple[tuple[int, ...], ...]
    """Per player: values of the wish stone cards claimed, in the order claimed."""
    closed_rows: int
    """Rows (all players) holding at least one closing card; the game ends at 5 (C-13)."""
    draws_left: int
    """In the draw phase: draws still due this turn (1 or 2); else 0."""
    blocked_piles: tuple[int, ...]
    """Piles that received a card this turn: not drawable this turn (C-12)."""
    final_lays_left: int
    """In the final phase: cards the current player may still lay (1 or 2); else 0."""
    ender: int
    """Seat that ended the game by C-13 or C-14 (-1 while it runs, and for a truncated game)."""

    def score_breakdown(self, player: int) -> dict[str, int]:
        """``player``'s score as it stands, part by part (C-16-C-18)."""
        return card_parts(
            self.rows[player], len(self.point_rows[player]), len(self.wish_stones[player])
        )

    def action_label(self, action: Action, preview: JSON) -> Label:
        """A legal action in words (see :mod:`keltis.cards.labels`)."""
        return action_label(action, preview)

    def score_parts(self, player: int) -> JSON:
        """What ``player``'s score is made of as it stands (C-16-C-18): each colour row's
        points by its length, the point row's cards, the wish stones' points and how many
        they are."""
        stones = len(self.wish_stones[player])
        return {
            "rows": {
                COLOUR_LETTERS[c]: card_row_points(len(self.rows[player][c]))
                for c in range(NUM_COLOURS)
            },
            "point_row": len(self.point_rows[player]),
            "wishes": wish_points(CARD_WISH_POINTS, stones),
            "wish_count": stones,
        }

    def to_json(self) -> JSON:
        """A JSON-ready dict: cards and actions as notation, piles and rows keyed by letter."""

        return {
            **self.base_json(),
            "wish_row": list(self.wish_row),
            "discards": {pile_letter(i): cards_json(p) for i, p in enumerate(self.piles)},
            "players": [
                {
                    **self.rows_json(self.rows[p], self.directions[p]),
                    "point_row": cards_json(self.point_rows[p]),
                    "wish_stones": list(self.wish_stones[p]),
                    "score": self.scores[p],
                    "parts": self.score_parts(p),
                }
                for p in range(self.num_players)
            ],
            "closed_rows": self.closed_rows,
            "draws_left": self.draws_left,
            "blocked_piles": [pile_letter(i) for i in self.blocked_piles],
            "final_lays_left": self.final_lays_left,
            "ender": self.ender,
        }
