"""The board game's actions: its :class:`~keltis.core.actions.ActionSpace` (124 ids).

The board game has number cards only (B-1) and five discard piles, and no claims (wish
stones are taken by moving onto them, B-10): it accepts lays and discards of number cards,
the figure choice (B-11), advances (B-14, B-17), a pass and draws from the draw pile or a
colour pile (B-15). Ids follow :data:`~keltis.core.actions.ALL_ACTIONS` order:

=========  =====================================
0-54       lay number card 0-54 (``G0`` … ``B10``)
55-109     discard number card 0-54
110, 111   ``small``, ``big``
112-116    advance on path 0-4 (``>G`` … ``>B``)
117        ``pass``
118        ``draw`` (the draw pile)
119-123    ``draw G`` … ``draw B``
=========  =====================================

>>> ACTIONS.size, ACTIONS.index(Action.parse("big")), ACTIONS.action(118)
(124, 111, Action('draw'))
"""

from __future__ import annotations

from typing import Final

from keltis.core.actions import ALL_ACTIONS, POINT_PILE, Action, ActionKind, ActionSpace
from keltis.core.card_codes import NUMBER_CARDS

_WITH_CARD: Final = (ActionKind.LAY, ActionKind.DISCARD)
_PLAIN: Final = (ActionKind.FIGURE, ActionKind.ADVANCE, ActionKind.PASS)


def accepts(action: Action) -> bool:
    """Whether the board game has ``action`` at all (in some position)."""
    kind = action.kind
    if kind in _WITH_CARD:
        return action.card < NUMBER_CARDS and action.target < 0
    if kind is ActionKind.DRAW:
        return action.target != POINT_PILE
    return kind in _PLAIN


#: The board game's action space.
ACTIONS: Final = ActionSpace("board", tuple(a for a in ALL_ACTIONS if accepts(a)), "the board game")

# The ids the kernel (keltis.board.kernel) works with, named.
DISCARD_BASE: Final = ACTIONS.index(Action.discard(0))
FIGURE_SMALL: Final = ACTIONS.index(Action.figure(False))
FIGURE_BIG: Final = ACTIONS.index(Action.figure(True))
ADVANCE_BASE: Final = ACTIONS.index(Action.advance(0))
PASS_INDEX: Final = ACTIONS.index(Action.parse("pass"))
DRAW_DECK: Final = ACTIONS.index(Action.draw())
DRAW_PILE_BASE: Final = ACTIONS.index(Action.draw(0))
