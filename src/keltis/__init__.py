"""Keltis: Reiner Knizia's board game and card game, exactly by the rules, with bots,
records, terminal play and research tools.

A game from its rules, a seat's view of it, a move:

>>> import keltis
>>> from keltis.core.card_codes import CARD_TEXT
>>> state = keltis.get_game("board").new_game(2, seed=7)
>>> state.current_player, state.phase_name
(0, 'play')
>>> view = state.view(0)  # what seat 0 may see: its own hand, never the other one
>>> [CARD_TEXT[card] for card in view.hand]
['Y4', 'R2', 'R5', 'R8', 'P6', 'P10', 'B0', 'B6']
>>> view.legal[:3]
(Action('Y4'), Action('R2'), Action('R5'))
>>> state.apply(view.legal[0])  # the yellow 4 opens the yellow path...
>>> state.phase_name  # ...so the big or a small figure enters it (B-11)
'figure'
>>> state.apply(keltis.Action.parse("small"))
>>> state.phase_name  # it stands on a clover: one more step for any figure (B-17)
'clover'
>>> state.apply(keltis.Action.parse("G3"))  # refused, naming the rule; nothing changes
Traceback (most recent call last):
keltis.core.errors.IllegalActionError: B-17: now move a figure (>G) or pass, not G3
"""

# First: choose compiled or pure Python before any compiled module is imported.
from keltis import _native  # noqa: F401
from keltis.core import Action, EndReason, GameState, IllegalActionError, Outcome
from keltis.core.version import __version__
from keltis.games import get_game

__all__ = [
    "Action",
    "EndReason",
    "GameState",
    "IllegalActionError",
    "Outcome",
    "__version__",
    "get_game",
]
