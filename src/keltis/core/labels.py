"""Moves and events in words, for any language: a :class:`Label` is a message key of the
translation catalogs (``keltis.messages``) with its parameters, which every front end only
translates (the terminal with ``keltis.i18n.Translator.label``, the browser with its own
translator over the same catalogs). Each game's package labels its legal actions
(``keltis.board.labels``, ``keltis.cards.labels``); the events of both games are labelled
here, from their wire form.

Parameters are wire values: colours as letters (``G`` … ``B``; ``*`` the point cards), cards
in notation (``G7``; a front end words them as it shows cards), numbers as numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from keltis.core.outcome import JSON

#: Label parameters that hold a card in notation (a front end words them its own way).
CARD_PARAMS = ("card", "first", "second")


@dataclass(frozen=True)
class Label:
    """A message ``key`` with its ``params``, then ``notes``, each worded in brackets after
    it and joined by commas: ``{path} figure to row {row} (goal area, clover)``."""

    key: str
    params: Mapping[str, str | int | bool] = field(default_factory=dict)
    notes: tuple[Label, ...] = ()

    def to_json(self) -> JSON:
        """The wire form (``common.schema.json#/$defs/label``)."""
        return {
            "key": self.key,
            "params": dict(self.params),
            "notes": [note.to_json() for note in self.notes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Label:
        """A label from its wire form."""
        return cls(
            str(data["key"]),
            dict(data.get("params", {})),
            tuple(cls.from_json(n) for n in data.get("notes", ())),
        )


def event_label(event: Mapping[str, Any]) -> Label:
    """An event's label, from its wire form (``{"type": "lay", "card": "G7"}``): the key
    ``ev.<type>``, or the form for the case (a draw from the point-card pile, a draw whose
    card the receiver saw, the big or a small figure, the reason the game ended)."""
    kind = str(event["type"])
    params = {k: v for k, v in event.items() if k not in ("type", "label")}
    key = f"ev.{kind}"
    if kind == "draw_pile" and params.get("pile") == "*":
        key = "ev.draw_pile.point"
    elif kind == "draw_deck" and params.get("card"):
        key = "ev.draw_deck.card"
    elif kind == "figure":
        return Label("ev.figure.big" if params.get("big") else "ev.figure.small")
    elif kind == "moved" and params.get("big"):
        key = "ev.moved.big"
    elif kind == "end":
        return Label(f"ev.end.{params.get('reason')}")
    return Label(key, params)


def drawn_card(preview: Mapping[str, Any]) -> str:
    """The card a draw from a discard pile takes, as its preview's event names it."""
    for event in preview["events"]:
        if event["type"] == "draw_pile":
            return str(event["card"])
    raise ValueError("a draw from a discard pile without its draw_pile event")


__all__ = ["CARD_PARAMS", "Label", "drawn_card", "event_label"]
