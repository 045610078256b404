"""Determinization for the card game: a full state consistent with what one player has seen
(``Game.sample_state``), for search bots and previews."""

from __future__ import annotations

import random

from keltis.cards.state import (
    _ALL_WISHES,
    PHASE_NAMES,
    CardState,
    CardVariant,
    derive_rows,
    pile_mask,
)
from keltis.cards.tables import COPIES
from keltis.cards.view import CardView
from keltis.core.errors import SetupError
from keltis.core.protocol import EndReason
from keltis.core.setup import NO_HAND, deal_unseen, unseen_by


def sample_card_state(view: CardView, rng: random.Random) -> CardState:
    """A full state consistent with ``view`` (a determinization for search bots).

    The cards the viewer cannot see — every card not in the viewer's hand, a row, a point
    row, a discard pile or known to be in another hand — are shuffled and dealt to the hidden
    places: the rest of each other hand, the draw pile and the removed cards, with their sizes
    as seen. The decision in progress (phase, draws due, blocked piles, final lays) is kept;
    the history is not.
    """
    if view.viewer is None or view.hand is None:
        raise SetupError(NO_HAND)
    unseen = unseen_by(
        view.viewer, view.hand, view.known_cards, (*view.piles, *view.point_rows), view.rows, COPIES
    )
    hidden_total = (
        sum(view.hand_sizes[p] - len(view.known_cards[p]) for p in range(view.num_players))
        - (view.hand_sizes[view.viewer] - len(view.known_cards[view.viewer]))
        + view.deck_size
        + view.removed_count
    )
    if hidden_total != len(unseen):
        raise SetupError(
            f"the view hides {hidden_total} cards but {len(unseen)} cards are unseen: "
            "it is not a view of a card game"
        )
    hands, deck, removed = deal_unseen(
        unseen, rng, view.viewer, view.hand, view.known_cards, view.hand_sizes, view.deck_size
    )

    state = CardState.empty(view.num_players, CardVariant.from_json(dict(view.variant)))
    state.current_player = view.current_player
    state.over = view.over
    state.turn = view.turn
    state.phase = PHASE_NAMES.index(view.phase)
    state.hands = hands
    state.deck = deck
    state.removed = removed
    state.piles = [list(p) for p in view.piles]
    state.filled = pile_mask(state.piles)
    state.rows = [[list(r) for r in mine] for mine in view.rows]
    state.point_rows = [list(r) for r in view.point_rows]
    derive_rows(state)
    state.wish_stones = [list(w) for w in view.wish_stones]
    state.wish_mask = _ALL_WISHES & ~sum(1 << v for w in view.wish_stones for v in w)
    state.draws_left = view.draws_left
    state.blocked = sum(1 << pile for pile in view.blocked_piles)
    state.lays_left = view.final_lays_left
    state.ender = view.ender
    if view.outcome is not None:
        state.end_pending = state.end_reason = view.outcome.end_reason
    elif view.ender >= 0:
        # C-13 never empties the draw pile; C-14 always does.
        state.end_pending = EndReason.DECK if view.deck_size == 0 else EndReason.CLOSED
    state.known = [list(k) for k in view.known_cards]
    return state
