"""Bot specifications for tournaments: the project's one bot-spec grammar
(:mod:`keltis.bots.spec`, re-exported here) plus :func:`parse_bots`, which reads a
tournament's bots and refuses the same bot twice without labels.

A spec is one of::

    greedy                                  a bot of keltis.bots.BOTS by name (any case)
    hard, Morrigan, hard:seconds=2          a level, by key or persona, optionally with options
                                            (easy/Brigid, medium/Fionn, hard/Morrigan)
    ismcts:iterations=200,exploration=0.5   a bot with options
    mypackage.mybots:MyBot                  a keltis.bots.Bot subclass by import path
    mypackage.mybots:MyBot:depth=3          the same with options
    mine=mypackage.mybots:MyBot             any of these with a label (the name in reports)
"""

from __future__ import annotations

from keltis.bots.spec import BotSpec, BotSpecError, OptionValue, format_value, parse_value

__all__ = [
    "BotSpec",
    "BotSpecError",
    "OptionValue",
    "format_value",
    "parse_bots",
    "parse_value",
]


def parse_bots(texts: list[str]) -> tuple[BotSpec, ...]:
    """Read several specs; names (labels or spec texts) must differ."""
    specs = tuple(BotSpec.parse(t) for t in texts)
    names = [s.name for s in specs]
    for name in names:
        if names.count(name) > 1:
            raise BotSpecError(
                f"bot {name!r} is given twice: to compare a bot with itself, give the copies "
                f"labels, e.g. a={name} b={name}"
            )
    return specs
