"""What a board-game move did, as events (see :mod:`keltis.core.events`) computed from two
views of one receiver: the action, the figures it moved, the tiles they took, the end."""

from __future__ import annotations

from keltis.board.view import BoardView
from keltis.core.actions import Action
from keltis.core.card_codes import NUM_COLOURS
from keltis.core.events import Event, action_events


def board_events(before: BoardView, action: Action, after: BoardView) -> list[Event]:
    """Events for ``action`` taken in ``before`` leading to ``after`` (views of one viewer).

    ``moved`` (a figure's path, new row, whether it is the big one), ``points`` (a point
    tile), ``wish`` (a wish stone, with the count now), ``clover`` (a clover: one more move),
    and ``end`` when the game ended.
    """
    events = action_events(before, action, after)
    seat = before.current_player
    if seat >= 0:
        for path in range(NUM_COLOURS):
            old, new = before.positions[seat][path], after.positions[seat][path]
            if new != old:
                big = after.big[seat] == path
                events.append(("moved", {"path": path, "row": new, "big": big}))
                if after.phase == "clover" and after.pending == path:
                    events.append(("clover", {}))
        gained = after.tile_points[seat] - before.tile_points[seat]
        if gained:
            events.append(("points", {"points": gained}))
        if after.wishes[seat] > before.wishes[seat]:
            events.append(("wish", {"count": after.wishes[seat]}))
    if after.over and not before.over and after.outcome is not None:
        events.append(("end", {"reason": after.outcome.end_reason.value}))
    return events
