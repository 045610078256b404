"""Levels for people: easy, medium and hard, each with a name, mapped to a bot and budget."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A playing strength offered to people."""

    key: str
    """``easy``, ``medium`` or ``hard``."""
    persona: str
    """The opponent's name shown to players."""
    description: str
    spec: str
    """The bot behind it, as a bot spec (``keltis.bots.spec``)."""


#: The levels, weakest first. ``hard`` is budgeted in playouts (800), so a game against it
#: replays the same from its seed; its 2.5 s time net is a safety that fires only on a very
#: slow or overloaded machine (docs/bots.md has the time its decisions take).
LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        "Brigid",
        "plays the move that looks best right now, without a plan",
        "greedy",
    ),
    "medium": Level(
        "medium",
        "Fionn",
        "plans rows from the hand, chases wish stones, watches the end",
        # the heuristic under the weights tuned for each game and number of players
        # (keltis.bots.weights; docs/bots.md)
        "heuristic:weights=medium",
    ),
    "hard": Level(
        "hard",
        "Morrigan",
        "searches: tries the best-looking moves on hundreds of dealings of the hidden cards",
        # its playouts on the weights measured best for each game and number of players
        # (keltis.bots.weights' set "hard"; docs/bots.md)
        "ismcts:iterations=800,playout_rounds=5,seconds=2.5,tuning=hard",
    ),
}


def find_level(name: str) -> Level | None:
    """The level called ``name``: its key or its persona's name, in any case
    (``"HARD"``, ``"morrigan"``); ``None`` if there is none."""
    wanted = name.strip().lower()
    for level in LEVELS.values():
        if wanted in (level.key, level.persona.lower()):
            return level
    return None
