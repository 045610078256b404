"""The card game's actions: its :class:`~keltis.core.actions.ActionSpace` (500 ids).

The card game has no figures (they are the board game's, B-11, B-14, B-17); it accepts every
lay, point card onto a row (C-11) and discard, the claims its rules can accept (C-8: two
cards of a value 1-9, in either order, the same card twice only where two copies exist),
a pass (C-15) and draws from the draw pile or any of the six discard piles (C-12). Ids follow
:data:`~keltis.core.actions.ALL_ACTIONS` order:

=========  ====================================================================
0-70       lay card code 0-70 (``G0`` … ``BX``, ``*0`` … ``*10``)
71-125     point card 0-10 onto row G … B (``*0>G`` … ``*10>B``)
126-196    discard card code 0-70
197-491    claims, by value 1-9, then the first card's slot, then the second's
           (slots 0-4: the number card of that colour, 5: the point card)
492        ``pass``
493        ``draw`` (the draw pile)
494-499    ``draw G`` … ``draw B``, ``draw *``
=========  ====================================================================

:meth:`~keltis.cards.state.CardState.legal_actions` lists each pair of claiming cards once,
the lower card code first (the order changes nothing: the two cards go to different piles);
the other order is accepted when typed, so it has an id too.

>>> ACTIONS.size, ACTIONS.index(Action.parse("wish G1 Y1")), ACTIONS.action(492)
(500, 197, Action('pass'))
"""

from __future__ import annotations

from typing import Final

from keltis.cards.tables import COPIES
from keltis.core.actions import ALL_ACTIONS, Action, ActionKind, ActionSpace
from keltis.core.card_codes import POINT_BASE

_NOT_HERE: Final = (ActionKind.FIGURE, ActionKind.ADVANCE)


def accepts(action: Action) -> bool:
    """Whether the card game has ``action`` at all (in some position)."""
    kind = action.kind
    if kind is ActionKind.CLAIM:
        return action.card != action.card2 or COPIES[action.card] > 1
    return kind not in _NOT_HERE


#: The card game's action space.
ACTIONS: Final = ActionSpace("cards", tuple(a for a in ALL_ACTIONS if accepts(a)), "the card game")

# The ids the kernel (keltis.cards.kernel) works with, named.
LAY_ONTO_BASE: Final = ACTIONS.index(Action.lay(POINT_BASE, 0))
DISCARD_BASE: Final = ACTIONS.index(Action.discard(0))
CLAIM_BASE: Final = ACTIONS.index(Action.claim(1, 1 + 11))
PASS_INDEX: Final = ACTIONS.index(Action.parse("pass"))
DRAW_DECK: Final = ACTIONS.index(Action.draw())
DRAW_PILE_BASE: Final = ACTIONS.index(Action.draw(0))


#: A claim's id by ``(value - 1) * 36 + first slot * 6 + second slot`` (-1: not an action
#: of the game), and the two cards of each claim by ``id - CLAIM_BASE``: the kernel's tables.
CLAIM_IDS: Final = tuple(
    ACTIONS.index(a) if a in ACTIONS else -1 for a in ALL_ACTIONS if a.kind is ActionKind.CLAIM
)
CLAIM_FIRST: Final = tuple(a.card for a in ACTIONS.actions if a.kind is ActionKind.CLAIM)
CLAIM_SECOND: Final = tuple(a.card2 for a in ACTIONS.actions if a.kind is ActionKind.CLAIM)
