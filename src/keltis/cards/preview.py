"""Card-game previews (see :mod:`keltis.core.preview`): for each legal action, the row it
lengthens and what that row would score, the wish stone a claim takes, the score change, the
decision that follows and whether the game ends (C-13, C-14). ``CardView.previews`` finds
:func:`previews` here by name (see ``View.previews``)."""

from __future__ import annotations

from keltis.cards.events import card_events
from keltis.cards.sample import sample_card_state
from keltis.cards.tables import card_row_points
from keltis.cards.view import CardView, pile_letter
from keltis.core.actions import Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, COLOUR_LETTERS, is_closing, is_point
from keltis.core.preview import game_previews
from keltis.core.protocol import JSON


def previews(view: CardView) -> list[JSON]:
    """A preview per action of ``view.legal`` (empty unless the viewer is to decide): the
    common parts, and what :func:`_specific` adds."""
    return game_previews(view, sample_card_state, card_events, _specific)


def _specific(view: CardView, action: Action, after: CardView) -> JSON:
    """``row``: the row a lay lengthens — ``colour`` (letter, ``*`` for the point row),
    ``length`` and ``points`` (what the row scores then; +1 a card for the point row),
    ``closing`` (a closing card), ``closes_row`` (the row's first closing card); ``wish``: the
    value of the wish stone a claim takes; ``pile``: the discard pile a discard or draw uses."""
    me = view.current_player
    kind = action.kind
    card = action.card
    if kind is ActionKind.LAY:
        if is_point(card) and action.target < 0:
            length = len(after.point_rows[me])
            return {"row": {"colour": "*", "length": length, "points": length}}
        colour = action.target if action.target >= 0 else CARD_COLOUR[card]
        length = len(after.rows[me][colour])
        closing = is_closing(card)
        first = closing and not any(is_closing(c) for c in view.rows[me][colour])
        return {
            "row": {
                "colour": COLOUR_LETTERS[colour],
                "length": length,
                "points": card_row_points(length),
                "closing": closing,
                "closes_row": first,
            }
        }
    if kind is ActionKind.CLAIM:
        return {"wish": action.claim_value}
    if kind is ActionKind.DISCARD:
        return {"pile": "*" if is_point(card) else COLOUR_LETTERS[CARD_COLOUR[card]]}
    if kind is ActionKind.DRAW and action.target >= 0:
        return {"pile": pile_letter(action.target)}
    return {}
