"""Bots: each sees one player's view, never the full state, and is reproducible from a seed.

``make_bot("random", seed=1)`` builds a bot by name; ``BOTS`` lists the names. A spec may set
options after a colon, ``make_bot("ismcts:iterations=200,playout=random", seed=1)``, and the
level names ``easy``, ``medium`` and ``hard`` (see :data:`LEVELS`) are bots too.

=============  ==============================================================================
``random``     uniform over the legal actions
``greedy``     the best immediate gain, no plan
``heuristic``  a sensible human strategy for each game (``docs/bots.md``)
``ismcts``     information-set Monte Carlo tree search with heuristic playouts
``easy``       level *Brigid*: the greedy bot
``medium``     level *Fionn*: the heuristic bot
``hard``       level *Morrigan*: the search bot with its level budget
=============  ==============================================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from keltis.bots.base import Bot, RandomBot
from keltis.bots.greedy import GreedyBot
from keltis.bots.heuristic import HeuristicBot
from keltis.bots.ismcts import IsmctsBot, SearchConfig
from keltis.bots.levels import LEVELS, Level


def _search_bot(options: dict[str, str]) -> Callable[[int | None], Bot]:
    config = search_config(options)

    def build(seed: int | None) -> Bot:
        return IsmctsBot(seed, config)

    return build


def _level_bot(level: Level) -> Callable[[int | None], Bot]:
    def build(seed: int | None) -> Bot:
        bot = make_bot(level.spec, seed)
        bot.level = level.key
        return bot

    return build


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
    **{key: _level_bot(level) for key, level in LEVELS.items()},
}


def search_config(options: dict[str, str]) -> SearchConfig:
    """A :class:`SearchConfig` from text options (``{"iterations": "200"}``), with messages
    naming the option that is wrong."""
    fields = {f.name: f for f in dataclasses.fields(SearchConfig)}
    values: dict[str, Any] = {}
    for key, text in options.items():
        field = fields.get(key)
        if field is None:
            raise ValueError(f"ismcts has no option {key!r}: use one of {', '.join(fields)}")
        values[key] = _convert(key, text, str(field.type))
    try:
        return SearchConfig(**values)
    except ValueError as error:
        raise ValueError(f"ismcts: {error}") from None


def _convert(key: str, text: str, kind: str) -> Any:
    if text.lower() in ("none", "null", "") and "None" in kind:
        return None
    try:
        if kind.startswith("int"):
            return int(text)
        if kind.startswith("float"):
            return float(text)
        if kind.startswith("bool"):
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(text)
    except ValueError:
        raise ValueError(f"ismcts option {key}={text!r}: expected {kind}") from None
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in rest.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bot option {item.strip()!r} in {spec!r}: write key=value")
        options[key.strip()] = value.strip()
    return name.strip().lower(), options


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a name in ``BOTS``, optionally with options for ``ismcts``
    (``ismcts:iterations=200,seconds=0.5,playout=random``)."""
    name, options = parse_spec(spec)
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    if options:
        if name != "ismcts":
            raise ValueError(f"bot {name!r} takes no options (only ismcts does)")
        return _search_bot(options)(seed)
    return BOTS[name](seed)


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "Level",
    "RandomBot",
    "SearchConfig",
    "make_bot",
    "parse_spec",
    "search_config",
]
