"""Keltis: Reiner Knizia's board game and card game, exactly by the rules, with bots,
records, terminal play and research tools."""

# First: choose compiled or pure Python before any compiled module is imported.
from keltis import _native  # noqa: F401
from keltis.core import Action, EndReason, GameState, IllegalActionError, Outcome
from keltis.games import get_game

__version__ = "0.1.0"

__all__ = ["Action", "EndReason", "GameState", "IllegalActionError", "Outcome", "get_game"]
