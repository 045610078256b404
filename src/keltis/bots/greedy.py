"""A simple greedy bot: scores each legal action by its immediate effect, no look-ahead.

It is an easy opponent for the terminal game and a baseline for the stronger bots.

Board game: lay a card when it moves a figure forward on a row it already owns, preferring
steps that gain points, tiles and wish stones; open a new path only with three or more cards
of that colour in hand; discard the card least useful to its own rows; take a discard pile's
top card only if it fits one of its rows directly; use clovers and overflow moves on the
figure that gains most; put the big figure on the path with the most cards in hand.
"""

from __future__ import annotations

from typing import ClassVar

from keltis.bots.base import Bot
from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.cards import CARD_COLOUR, CARD_VALUE
from keltis.core.protocol import View
from keltis.core.scoring import BOARD_ROW_VALUES, LAST_ROW, follows


class GreedyBot(Bot):
    """Immediate-gain heuristics (see the module docstring); random tie-breaks."""

    name: ClassVar[str] = "greedy"
    description: ClassVar[str] = "takes the action with the best immediate gain"

    def choose(self, view: View) -> Action:
        """The legal action with the highest one-step score."""
        if not view.legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        score = self._board_score if view.game == "board" else self._generic_score
        scored = [(score(view, a), a) for a in view.legal]
        top = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s == top])

    @staticmethod
    def _generic_score(view: View, action: Action) -> float:
        return 1.0 if action.kind is ActionKind.LAY else 0.0

    def _board_score(self, view: View, action: Action) -> float:
        from keltis.board.view import BoardView

        assert isinstance(view, BoardView)
        me = view.viewer
        assert me is not None
        assert view.hand is not None
        kind = action.kind
        if kind is ActionKind.LAY:
            colour = CARD_COLOUR[action.card]
            value = CARD_VALUE[action.card]
            row = view.positions[me][colour]
            same = sum(1 for c in view.hand if CARD_COLOUR[c] == colour)
            if row == 0:
                return 1.0 + same if same >= 3 else -5.0 + same
            gap = 0
            laid = view.rows[me][colour]
            if laid:
                last = CARD_VALUE[laid[-1]]
                gap = abs(value - last)
            if row >= LAST_ROW:
                return 2.0 - 0.1 * gap
            gain = BOARD_ROW_VALUES[row + 1] - BOARD_ROW_VALUES[row]
            if view.big[me] == colour:
                gain *= 2
            tile = view.tiles[colour][row + 1]
            bonus = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3}.get(tile, 0)
            return 4.0 + gain + bonus - 0.5 * gap
        if kind is ActionKind.DISCARD:
            colour = CARD_COLOUR[action.card]
            value = CARD_VALUE[action.card]
            if view.positions[me][colour] == 0:
                same = sum(1 for c in view.hand if CARD_COLOUR[c] == colour)
                return -same * 0.5
            return -3.0 - _fit(view, me, colour, value)
        if kind is ActionKind.DRAW:
            if action.target == DECK:
                return 0.0
            card = view.piles[action.target][-1]
            colour = CARD_COLOUR[card]
            if view.positions[me][colour] == 0:
                return -1.0
            return _fit(view, me, colour, CARD_VALUE[card]) - 2.0
        if kind is ActionKind.FIGURE:
            return 1.0 if action.target == 1 else 0.5
        if kind is ActionKind.ADVANCE:
            row = view.positions[me][action.target]
            gain = BOARD_ROW_VALUES[row + 1] - BOARD_ROW_VALUES[row]
            if view.big[me] == action.target:
                gain *= 2
            return 1.0 + gain
        return 0.0  # pass


def _fit(view: View, me: int, colour: int, value: int) -> float:
    """How well a card of ``colour``/``value`` continues ``me``'s row (0-3)."""
    from keltis.board.view import BoardView

    assert isinstance(view, BoardView)
    laid = view.rows[me][colour]
    if not laid:
        return 0.0
    last = CARD_VALUE[laid[-1]]
    direction = view.directions[me][colour]
    if not follows(direction, last, value):
        return 0.0
    return max(0.0, 3.0 - 0.5 * abs(value - last))
