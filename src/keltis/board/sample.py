"""Determinization for the board game: a full state consistent with what one player has
seen (``Game.sample_state``), for search bots and previews."""

from __future__ import annotations

import random

from keltis.board.state import COPIES, PHASE_NAMES, BoardState, BoardVariant, layable_mask
from keltis.board.view import BoardView
from keltis.core.card_codes import CARD_VALUE
from keltis.core.errors import SetupError
from keltis.core.setup import NO_HAND, deal_unseen, unseen_by


def sample_board_state(view: BoardView, rng: random.Random) -> BoardState:
    """A full state consistent with ``view`` (a determinization for search bots).

    The cards the viewer cannot see — every card not in the viewer's hand, a row, a discard
    pile or known to be in another hand — are shuffled and dealt to the hidden places: the
    rest of each other hand, the draw pile and the removed cards, with their sizes as seen.
    The decision in progress (phase, pending path) is kept; the history is not.
    """
    if view.viewer is None or view.hand is None:
        raise SetupError(NO_HAND)
    unseen = unseen_by(view.viewer, view.hand, view.known_cards, view.piles, view.rows, COPIES)
    hands, deck, removed = deal_unseen(
        unseen, rng, view.viewer, view.hand, view.known_cards, view.hand_sizes, view.deck_size
    )

    state = BoardState.empty(
        view.num_players, BoardVariant.from_json(dict(view.variant)), view.layout
    )
    state.current_player = view.current_player
    state.over = view.over
    state.turn = view.turn
    state.phase = PHASE_NAMES.index(view.phase)
    state.end_reason = view.outcome.end_reason if view.outcome else None
    state.hands = hands
    state.deck = deck
    state.removed = removed
    state.piles = [list(p) for p in view.piles]
    state.rows = [[list(r) for r in mine] for mine in view.rows]
    state.last = [[CARD_VALUE[r[-1]] if r else -1 for r in mine] for mine in view.rows]
    state.dirs = [list(d) for d in view.directions]
    state.layable = [layable_mask(d, x) for d, x in zip(state.dirs, state.last, strict=True)]
    state.pos = [list(x) for x in view.positions]
    state.started = [sum(1 for r in x if r) for x in view.positions]
    if view.phase == "figure":  # the path just opened waits for its figure
        state.started[view.current_player] += 1
    state.big = list(view.big)
    state.tiles = [list(t) for t in view.tiles]
    state.points = list(view.tile_points)
    state.wishes = list(view.wishes)
    state.goal = view.goal_count
    state.pending = view.pending
    state.discarded_pile = view.discarded_pile
    state.known = [list(k) for k in view.known_cards]
    return state
