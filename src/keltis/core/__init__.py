"""The shared vocabulary of both games: colours, cards, actions (and the action space type
each game builds its own from), the scoring rules both use, errors and the game protocol.
Standard library only; no I/O."""

from keltis.core.actions import ALL_ACTIONS, Action, ActionKind, ActionSpace, parse_action
from keltis.core.card_codes import Colour, card_text, parse_card
from keltis.core.errors import (
    IllegalActionError,
    KeltisError,
    NotationError,
    RecordError,
    SetupError,
)
from keltis.core.protocol import EndReason, Game, GameState, Outcome, View

__all__ = [
    "ALL_ACTIONS",
    "Action",
    "ActionKind",
    "ActionSpace",
    "Colour",
    "EndReason",
    "Game",
    "GameState",
    "IllegalActionError",
    "KeltisError",
    "NotationError",
    "Outcome",
    "RecordError",
    "SetupError",
    "View",
    "card_text",
    "parse_action",
    "parse_card",
]
