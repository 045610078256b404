"""The registry of games: ``get_game("board")`` or ``get_game("cards")``."""

from __future__ import annotations

from importlib import import_module

from keltis.core.protocol import Game

_GAMES = {"board": ("keltis.board", "BoardGame"), "cards": ("keltis.cards", "CardGame")}
GAME_NAMES = tuple(_GAMES)
#: The game a front end starts when none is named.
DEFAULT_GAME = "board"


def get_game(name: str) -> Game:
    """The rules object of a game by name (``board`` or ``cards``): it creates states and
    hands out the game's other parts (``Game.part``).

    >>> game = get_game("cards")
    >>> game.title, game.switches()
    ('Keltis: The Card Game', ('turn_cap',))
    >>> state = game.new_game(3, seed=1)
    >>> state.num_players, len(state.deck), state.legal_actions()[:2]
    (3, 77, [Action('G3'), Action('G6')])
    >>> game.new_game(2, setup=game.deal(2, 5)).to_json() == game.new_game(2, seed=5).to_json()
    True
    >>> get_game("chess")
    Traceback (most recent call last):
    ValueError: unknown game 'chess': choose one of board, cards
    """
    try:
        module, cls = _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(_GAMES)}") from None
    game = getattr(import_module(module), cls)()
    assert isinstance(game, Game)
    return game
