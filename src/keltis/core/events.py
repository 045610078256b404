"""What happened in one move, as language-neutral events: the parts both games share.

An event is ``(key, params)``: ``("lay", {"card": "G7"})``. Each game computes its events
from two views of the *receiver* — before and after the move (``keltis.board.events``,
``keltis.cards.events``) — so an event can only mention what that receiver may see: from
spectator views a draw from the draw pile names no card; from the drawing seat's own views it
names the card drawn. ``keltis.i18n`` turns events into sentences; :func:`event_json` gives
their wire form.

Keys of both games: ``lay``, ``lay_onto``, ``discard``, ``claim``, ``draw_deck``,
``draw_pile``, ``figure``, ``advance``, ``pass`` (the action itself), ``end`` (the game
ended, with its ``reason``); the board game adds ``moved``, ``points``, ``wish``,
``clover``; the card game ``final`` (the last lays of C-15 begin).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.card_codes import CARD_TEXT, COLOUR_LETTERS
from keltis.core.labels import event_label
from keltis.core.protocol import JSON, View

Event = tuple[str, dict[str, Any]]

#: Event parameters that hold a colour (an index 0-4; the wire form uses its letter).
COLOUR_PARAMS: Final = ("onto", "path", "pile", "colour")


def action_events(before: View, action: Action, after: View) -> list[Event]:
    """The event naming ``action`` itself, as ``before``'s viewer saw it taken."""
    kind = action.kind
    if kind is ActionKind.LAY:
        if action.target >= 0:
            return [("lay_onto", {"card": CARD_TEXT[action.card], "onto": action.target})]
        return [("lay", {"card": CARD_TEXT[action.card]})]
    if kind is ActionKind.DISCARD:
        return [("discard", {"card": CARD_TEXT[action.card]})]
    if kind is ActionKind.CLAIM:
        first, second = CARD_TEXT[action.card], CARD_TEXT[action.card2]
        return [("claim", {"first": first, "second": second, "value": action.claim_value})]
    if kind is ActionKind.DRAW:
        if action.target == DECK:
            return [("draw_deck", _drawn(before, after))]
        pile: Sequence[int] = getattr(before, "piles", ())[action.target]
        where = "*" if action.target == POINT_PILE else action.target
        return [("draw_pile", {"card": CARD_TEXT[pile[-1]] if pile else "?", "pile": where})]
    if kind is ActionKind.FIGURE:
        return [("figure", {"big": action.target == 1})]
    if kind is ActionKind.ADVANCE:
        return [("advance", {"path": action.target})]
    return [("pass", {})]


def _drawn(before: View, after: View) -> dict[str, Any]:
    """The card a seat drew from the draw pile, if these are that seat's own views."""
    seat = before.current_player
    if before.viewer is None or before.viewer != seat or before.hand is None:
        return {}
    if after.hand is None:
        return {}
    new = list(after.hand)
    for card in before.hand:
        new.remove(card)
    return {"card": CARD_TEXT[new[0]]} if len(new) == 1 else {}


def event_json(event: Event) -> JSON:
    """An event's wire form: ``{"type": key, ...params, "label": …}``, colours as letters
    (``G`` …), with its label (:func:`keltis.core.labels.event_label`)."""
    key, params = event
    out: JSON = {"type": key}
    for name, value in params.items():
        if name in COLOUR_PARAMS and isinstance(value, int) and not isinstance(value, bool):
            out[name] = COLOUR_LETTERS[value]
        else:
            out[name] = value
    out["label"] = event_label(out).to_json()
    return out
