"""What happened in one move, as language-neutral events: the front door to each game's
event function (``keltis.board.events``, ``keltis.cards.events``; see
:mod:`keltis.core.events`).

Given spectator views, the events can be shown to anyone: they cannot mention a card drawn
from the draw pile. Given a seat's own views, they may name what that seat alone saw (the card
it drew). ``keltis.i18n`` turns events into sentences.
"""

from __future__ import annotations

from keltis.core.actions import Action
from keltis.core.events import Event, event_json
from keltis.core.protocol import View
from keltis.games import get_game


def describe(before: View, action: Action, after: View) -> list[Event]:
    """Events for ``action`` taken in ``before`` leading to ``after`` (two views of one
    viewer), from the game's own event function."""
    return get_game(before.game).events(before, action, after)


__all__ = ["Event", "describe", "event_json"]
