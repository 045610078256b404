"""What a card-game move did, as events (see :mod:`keltis.core.events`) computed from two
views of one receiver: the action, and the end of the game when C-13 or C-14 strikes."""

from __future__ import annotations

from keltis.cards.view import CardView
from keltis.core.actions import Action
from keltis.core.events import Event, action_events


def card_events(before: CardView, action: Action, after: CardView) -> list[Event]:
    """Events for ``action`` taken in ``before`` leading to ``after`` (views of one viewer).

    ``end`` comes when the game ends — in the turn where C-13 (five closed rows) or C-14 (the
    last card drawn) strikes, followed by ``final`` if the last lays of C-15 follow — or when
    the turn cap stops it.
    """
    events = action_events(before, action, after)
    if before.ender < 0 <= after.ender:
        reason = "deck" if after.deck_size == 0 else "closed"
        events.append(("end", {"reason": reason}))
        if after.phase == "final":
            events.append(("final", {}))
    elif after.over and not before.over and after.ender < 0 and after.outcome is not None:
        events.append(("end", {"reason": after.outcome.end_reason.value}))
    return events
