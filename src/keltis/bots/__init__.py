"""Bots: each sees one player's view, never the full state, and is reproducible from a seed.

``make_bot("random", seed=1)`` builds a bot by name; ``BOTS`` lists the names.
"""

from __future__ import annotations

from collections.abc import Callable

from keltis.bots.base import Bot, RandomBot
from keltis.bots.greedy import GreedyBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (see ``BOTS``)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
