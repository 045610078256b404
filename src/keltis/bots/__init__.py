"""Bots: each sees one player's view, never the full state, and is reproducible from a seed.

``make_bot("random", seed=1)`` builds a bot from a spec (:mod:`keltis.bots.spec`, the one
grammar for bots everywhere): a name of ``BOTS``, options after a colon
(``make_bot("ismcts:iterations=200,playout=random", seed=1)``), a level by key or persona
(``hard``, ``Morrigan``, ``hard:seconds=2``; see :data:`LEVELS`) or your own
:class:`Bot` subclass by import path (``mybots:MyBot:depth=3``).

==================  ==========================================================================
``random``          uniform over the legal actions
``greedy``          the best immediate gain, no plan
``heuristic``       a sensible human strategy for each game (``docs/bots.md``)
``ismcts``          information-set Monte Carlo tree search with heuristic playouts
``learned-search``  experimental: the search judging positions with a learned network
                    (``keltis.learn``, ``docs/bots.md``)
``easy``            level *Brigid*: the greedy bot
``medium``          level *Fionn*: the heuristic bot
``hard``            level *Morrigan*: the search bot with its level budget
==================  ==========================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from keltis.bots.base import Bot, RandomBot
from keltis.bots.greedy import GreedyBot
from keltis.bots.heuristic import HeuristicBot
from keltis.bots.levels import LEVELS, Level, find_level
from keltis.bots.spec import BOTS, BotSpec, BotSpecError, bot_list, make_bot

if TYPE_CHECKING:
    from keltis.bots.ismcts import IsmctsBot, SearchConfig

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotSpec",
    "BotSpecError",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "Level",
    "RandomBot",
    "SearchConfig",
    "bot_list",
    "find_level",
    "make_bot",
]


def __getattr__(name: str) -> Any:
    """The search's names (``IsmctsBot``, ``SearchConfig``), imported when first used: a
    game against medium bots never loads the search."""
    if name in ("IsmctsBot", "SearchConfig"):
        from keltis.bots import ismcts  # on first use: see above

        return getattr(ismcts, name)
    raise AttributeError(f"module 'keltis.bots' has no attribute {name!r}")
