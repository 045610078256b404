"""Translations of the interface: English plus the languages of the rulebooks (Czech, Slovak,
Spanish, Polish, Hungarian).

Messages are ``str.format`` templates keyed by name. A missing translation falls back to
English, so a new message never breaks a language. The language comes from ``--lang``, else
from ``KELTIS_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``cs_CZ.UTF-8`` → ``cs``), else
English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Final

from keltis.describe import Event

LANGUAGES: Final = {
    "en": "English",
    "cs": "Čeština",
    "sk": "Slovenčina",
    "es": "Español",
    "pl": "Polski",
    "hu": "Magyar",
}

COLOURS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("green", "yellow", "red", "pink", "blue"),
}

MESSAGES: Final[dict[str, dict[str, str]]] = {
    "en": {
        # move descriptions (keltis.describe events)
        "ev.lay": "lays {card}",
        "ev.lay_onto": "lays {card} on the {onto} row",
        "ev.discard": "discards {card}",
        "ev.claim": "discards {first} and {second} and takes wish stone {value}",
        "ev.draw_deck": "draws from the draw pile",
        "ev.draw_pile": "takes {card} from the {pile} discard pile",
        "ev.figure.big": "sends the big figure onto the path",
        "ev.figure.small": "sends a small figure onto the path",
        "ev.advance": "moves the figure on the {path} path",
        "ev.pass": "passes",
        "ev.moved": "figure on the {path} path to row {row}",
        "ev.moved.big": "big figure on the {path} path to row {row}",
        "ev.points": "+{points} points from a tile",
        "ev.wish": "takes a wish stone ({count} now)",
        "ev.clover": "clover: may move a figure one stone",
        "ev.end.goal": "the fifth figure enters the goal area: game over",
        "ev.end.deck": "the last card of the draw pile is drawn: game over",
        "ev.end.closed": "five rows are closed: game over",
        "ev.end.truncated": "the turn cap is reached: game stopped",
        "pile.point": "point-card",
    },
}


def detect_language(explicit: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language to use: ``explicit`` if given, else from the environment, else ``en``."""
    if explicit:
        code = explicit.lower().split("_")[0].split("-")[0]
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {explicit!r}: choose one of {', '.join(LANGUAGES)}")
        return code
    env = os.environ if env is None else env
    for key in ("KELTIS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        code = value.lower().split(".")[0].split("_")[0].split("-")[0]
        if code in LANGUAGES:
            return code
    return "en"


class Translator:
    """Messages of one language with English as the fallback."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self._messages = {**MESSAGES["en"], **MESSAGES.get(lang, {})}
        self._colours = COLOURS.get(lang, COLOURS["en"])

    def __call__(self, key: str, **params: Any) -> str:
        """The message ``key`` filled with ``params`` (the key itself if unknown)."""
        template = self._messages.get(key)
        if template is None:
            return key
        return template.format(**params)

    def colour(self, index: int) -> str:
        """The name of colour ``index`` (0-4)."""
        return self._colours[index]

    def event(self, event: Event) -> str:
        """One :mod:`keltis.describe` event as a phrase."""
        key, params = event
        values = dict(params)
        for name in ("onto", "path", "pile"):
            if isinstance(values.get(name), int):
                values[name] = self.colour(values[name])
        if values.get("pile") == "*":
            values["pile"] = self("pile.point")
        if key == "figure":
            return self("ev.figure.big" if values["big"] else "ev.figure.small")
        if key == "moved" and values.get("big"):
            return self("ev.moved.big", **values)
        if key == "end":
            return self(f"ev.end.{values['reason']}")
        return self(f"ev.{key}", **values)

    def events(self, events: list[Event]) -> str:
        """Several events joined into one line."""
        return "; ".join(self.event(e) for e in events)
