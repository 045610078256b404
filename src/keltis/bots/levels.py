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
    """The bot behind it, as a ``make_bot`` spec."""


#: The levels, weakest first. ``hard`` answers well within a second per decision.
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
        "plans rows from the hand, chases wish stones, watches the end (the heuristic)",
        "heuristic",
    ),
    "hard": Level(
        "hard",
        "Morrigan",
        "searches: tries the best-looking moves on hundreds of dealings of the hidden cards",
        "ismcts:iterations=800,playout_rounds=5,seconds=0.85",
    ),
}
