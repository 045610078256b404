"""Board-game actions in words (see :mod:`keltis.core.labels`): where a figure goes and what
it finds there, the pile a card is discarded to or drawn from, from the action's preview."""

from __future__ import annotations

from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, COLOUR_LETTERS
from keltis.core.labels import Label, drawn_card
from keltis.core.protocol import JSON

_ENDS = Label("act.ends_game")


def action_label(action: Action, preview: JSON) -> Label:
    """The label of a legal ``action`` with its ``preview`` (``keltis.board.preview``)."""
    kind = action.kind
    figure = preview.get("figure")
    ends = (_ENDS,) if preview.get("ends_game") else ()
    if figure is not None:
        path = figure["path"]
        if kind is ActionKind.FIGURE:
            return Label("act.figure.big" if action.target else "act.figure.small", {"path": path})
        if figure["overflow"]:
            return Label("act.lay_end", {"path": path})
        if kind is ActionKind.LAY and figure["from"] == 0:
            key, params = "act.lay_open", {"path": path}
        else:
            key = "act.lay_step" if kind is ActionKind.LAY else "act.advance"
            params = {"path": path, "row": figure["to"]}
        notes = [Label("act.goal")] if figure["goal"] else []
        tile = figure["tile"]
        if ends:
            notes.append(_ENDS)
        elif tile is not None:
            if tile["kind"] == "points":
                notes.append(Label("act.tile.points", {"points": tile["points"]}))
            else:
                notes.append(Label(f"act.tile.{tile['kind']}"))
        return Label(key, params, tuple(notes))
    if kind is ActionKind.DISCARD:
        return Label("act.discard", {"pile": COLOUR_LETTERS[CARD_COLOUR[action.card]]})
    if kind is ActionKind.DRAW:
        if action.target == DECK:
            return Label("act.draw_deck", {}, ends)
        card = drawn_card(preview)
        return Label("act.draw_pile", {"card": card, "pile": COLOUR_LETTERS[action.target]}, ends)
    return Label("act.pass")
