"""The registry of games: ``get_game("board")`` or ``get_game("cards")``."""

from __future__ import annotations

from importlib import import_module

from keltis.core.protocol import Game

_GAMES = {"board": ("keltis.board", "BoardGame"), "cards": ("keltis.cards", "CardGame")}
GAME_NAMES = tuple(_GAMES)


def get_game(name: str) -> Game:
    """The rules object of a game by name (``board`` or ``cards``)."""
    try:
        module, cls = _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(_GAMES)}") from None
    game = getattr(import_module(module), cls)()
    assert isinstance(game, Game)
    return game
