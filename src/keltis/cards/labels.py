"""Card-game actions in words (see :mod:`keltis.core.labels`): the row a card lengthens and
what it would score, the wish stone a claim takes, the pile of a discard or a draw."""

from __future__ import annotations

from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, COLOUR_LETTERS, is_point
from keltis.core.labels import Label, drawn_card
from keltis.core.protocol import JSON

_ENDS = Label("act.ends_game")


def action_label(action: Action, preview: JSON) -> Label:
    """The label of a legal ``action`` with its ``preview`` (``keltis.cards.preview``)."""
    kind = action.kind
    ends = (_ENDS,) if preview.get("ends_game") else ()
    if kind is ActionKind.LAY:
        row = preview["row"]
        if row["colour"] == "*":
            return Label("act.cards.point_row", {}, ends)
        if row.get("closing"):
            return Label("act.cards.close", {"row": row["colour"]}, ends)
        params = {"row": row["colour"], "count": row["length"], "points": f"{row['points']:+d}"}
        return Label("act.cards.lay", params, ends)
    if kind is ActionKind.CLAIM:
        return Label("act.cards.claim", {"value": action.claim_value})
    if kind is ActionKind.DISCARD:
        if is_point(action.card):
            return Label("act.discard.point")
        return Label("act.discard", {"pile": COLOUR_LETTERS[CARD_COLOUR[action.card]]})
    if kind is ActionKind.DRAW:
        if action.target == DECK:
            return Label("act.draw_deck", {}, ends)
        card = drawn_card(preview)
        if action.target == POINT_PILE:
            return Label("act.draw_pile.point", {"card": card}, ends)
        return Label("act.draw_pile", {"card": card, "pile": COLOUR_LETTERS[action.target]}, ends)
    return Label("act.cards.pass", {}, ends)
