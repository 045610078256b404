"""What happened in one move, as language-neutral events, computed from *spectator views*.

Working from views (never from full states) means a description can be shown to anyone: it
cannot mention a card drawn from the draw pile. ``keltis.i18n`` turns events into sentences.
"""

from __future__ import annotations

from typing import Any

from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.cards import CARD_TEXT, NUM_COLOURS
from keltis.core.protocol import View

Event = tuple[str, dict[str, Any]]


def describe(before: View, action: Action, after: View) -> list[Event]:
    """Events for ``action`` taken in ``before`` leading to ``after`` (spectator views).

    Event keys: ``lay``, ``lay_onto``, ``discard``, ``claim``, ``draw_deck``, ``draw_pile``,
    ``figure``, ``advance``, ``pass``, ``moved``, ``points``, ``wish``, ``clover``,
    ``end`` (the game ended; in the card game when C-13 or C-14 strikes) and ``final`` (the
    card game's last lays, C-15, begin).
    """
    events: list[Event] = []
    kind = action.kind
    seat = before.current_player
    if kind is ActionKind.LAY:
        if action.target >= 0:
            events.append(("lay_onto", {"card": CARD_TEXT[action.card], "onto": action.target}))
        else:
            events.append(("lay", {"card": CARD_TEXT[action.card]}))
    elif kind is ActionKind.DISCARD:
        events.append(("discard", {"card": CARD_TEXT[action.card]}))
    elif kind is ActionKind.CLAIM:
        events.append(
            (
                "claim",
                {
                    "first": CARD_TEXT[action.card],
                    "second": CARD_TEXT[action.card2],
                    "value": action.claim_value,
                },
            )
        )
    elif kind is ActionKind.DRAW:
        if action.target == DECK:
            events.append(("draw_deck", {}))
        else:
            pile = _piles(before)[action.target]
            events.append(
                (
                    "draw_pile",
                    {
                        "card": CARD_TEXT[pile[-1]] if pile else "?",
                        "pile": "*" if action.target == POINT_PILE else action.target,
                    },
                )
            )
    elif kind is ActionKind.FIGURE:
        events.append(("figure", {"big": action.target == 1}))
    elif kind is ActionKind.ADVANCE:
        events.append(("advance", {"path": action.target}))
    else:
        events.append(("pass", {}))
    if before.game == "board" and seat >= 0:
        events.extend(_board_effects(before, after, seat))
    ender_before = getattr(before, "ender", -1)
    ender_after = getattr(after, "ender", -1)
    if ender_before < 0 <= ender_after:
        # Card game: C-13 or C-14 ended the game; C-15's last lays may follow.
        reason = "deck" if after.deck_size == 0 else "closed"
        events.append(("end", {"reason": reason}))
        if after.phase == "final":
            events.append(("final", {}))
    elif after.over and not before.over and ender_after < 0 and after.outcome is not None:
        events.append(("end", {"reason": after.outcome.end_reason.value}))
    return events


def _piles(view: View) -> tuple[tuple[int, ...], ...]:
    piles = getattr(view, "piles", ())
    assert isinstance(piles, tuple)
    return piles


def _board_effects(before: View, after: View, seat: int) -> list[Event]:
    from keltis.board.view import BoardView

    assert isinstance(before, BoardView)
    assert isinstance(after, BoardView)
    events: list[Event] = []
    for path in range(NUM_COLOURS):
        old, new = before.positions[seat][path], after.positions[seat][path]
        if new != old:
            events.append(("moved", {"path": path, "row": new, "big": after.big[seat] == path}))
            if after.phase == "clover" and after.pending == path:
                events.append(("clover", {}))
    gained = after.tile_points[seat] - before.tile_points[seat]
    if gained:
        events.append(("points", {"points": gained}))
    if after.wishes[seat] > before.wishes[seat]:
        events.append(("wish", {"count": after.wishes[seat]}))
    return events
