"""The one door out of a card-game state: what a player or a spectator may see.

Hidden cards — other players' hands, the draw pile, the cards removed in a 2-player game —
appear only as counts. Cards a player took from a discard pile are public (everyone saw them
taken) and are listed as ``known_cards`` until they are played. Everything else (discard
piles, rows, point rows, wish stone cards) lies face up on the table.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from keltis.core.actions import POINT_PILE
from keltis.core.cards import COLOUR_LETTERS, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON, EndReason, View, cards_json
from keltis.core.scoring import direction_name

if TYPE_CHECKING:
    from keltis.cards.state import CardState

RECENT_MOVES = 12


def pile_letter(pile: int) -> str:
    """``G`` … ``B`` for the colour piles, ``*`` for the point-card pile."""
    return "*" if pile == POINT_PILE else COLOUR_LETTERS[pile]


@dataclass(frozen=True)
class CardView(View):
    """A card-game view. Everything here is public, except ``hand`` (the viewer's own)."""

    wish_row: tuple[int, ...]
    """Values (1-9) of the wish stone cards still face up, ascending."""
    piles: tuple[tuple[int, ...], ...]
    """The six discard piles, bottom first: colours 0-4, then point cards (index 5)."""
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    """rows[player][colour]: the cards laid (number, point and closing cards)."""
    directions: tuple[tuple[int, ...], ...]
    """directions[player][colour]: 0 open, 1 ascending, -1 descending."""
    point_rows: tuple[tuple[int, ...], ...]
    """Per player: the point cards in the separate point row."""
    wish_stones: tuple[tuple[int, ...], ...]
    """Per player: values of the wish stone cards claimed, in the order claimed."""
    closed_rows: int
    """Rows (all players) holding at least one closing card; the game ends at 5 (C-13)."""
    draws_left: int
    """In the draw phase: draws still due this turn (1 or 2); else 0."""
    blocked_piles: tuple[int, ...]
    """Piles that received a card this turn: not drawable this turn (C-12)."""
    final_lays_left: int
    """In the final phase: cards the current player may still lay (1 or 2); else 0."""
    ender: int
    """Seat that ended the game by C-13 or C-14 (-1 while it runs, and for a truncated game)."""
    scores: tuple[int, ...]
    """Totals as if the game ended now (every part of a score is public)."""

    def previews(self) -> list[JSON]:
        """What each legal action would do (see :mod:`keltis.cards.preview`)."""
        from keltis.cards.preview import card_previews

        return card_previews(self)

    def to_json(self) -> JSON:
        """A JSON-ready dict: cards and actions as notation, piles and rows keyed by letter."""

        return {
            **self.base_json(),
            "wish_row": list(self.wish_row),
            "discards": {pile_letter(i): cards_json(p) for i, p in enumerate(self.piles)},
            "players": [
                {
                    "rows": {
                        COLOUR_LETTERS[c]: cards_json(self.rows[p][c]) for c in range(NUM_COLOURS)
                    },
                    "directions": {
                        COLOUR_LETTERS[c]: direction_name(self.directions[p][c])
                        for c in range(NUM_COLOURS)
                    },
                    "point_row": cards_json(self.point_rows[p]),
                    "wish_stones": list(self.wish_stones[p]),
                    "score": self.scores[p],
                }
                for p in range(self.num_players)
            ],
            "closed_rows": self.closed_rows,
            "draws_left": self.draws_left,
            "blocked_piles": [pile_letter(i) for i in self.blocked_piles],
            "final_lays_left": self.final_lays_left,
            "ender": self.ender,
        }


def card_view(state: CardState, player: int | None) -> CardView:
    """The view of ``state`` for seat ``player``, or for a spectator (``None``)."""
    final = state.phase_name == "final"
    return CardView(
        **state.view_fields(player, RECENT_MOVES),
        wish_row=tuple(state.wish_row),
        piles=tuple(tuple(p) for p in state.piles),
        rows=tuple(tuple(tuple(r) for r in mine) for mine in state.rows),
        directions=tuple(tuple(d) for d in state.dirs),
        point_rows=tuple(tuple(r) for r in state.point_rows),
        wish_stones=tuple(tuple(w) for w in state.wish_stones),
        closed_rows=state.closed_rows,
        draws_left=state.draws_left if state.phase_name == "draw" else 0,
        blocked_piles=tuple(state.blocked_piles()),
        final_lays_left=state.lays_left if final else 0,
        ender=state.ender,
        scores=tuple(state.scores()),
    )


def sample_card_state(view: CardView, rng: random.Random) -> CardState:
    """A full state consistent with ``view`` (a determinization for search bots).

    The cards the viewer cannot see — every card not in the viewer's hand, a row, a point
    row, a discard pile or known to be in another hand — are shuffled and dealt to the hidden
    places: the rest of each other hand, the draw pile and the removed cards, with their sizes
    as seen. The decision in progress (phase, draws due, blocked piles, final lays) is kept;
    the history is not.
    """
    from keltis.cards.state import (
        _ALL_WISHES,
        FULL_DECK,
        PHASE_NAMES,
        CardState,
        CardVariant,
        derive_rows,
        pile_mask,
    )

    if view.viewer is None or view.hand is None:
        raise SetupError("a spectator's view has no hand to sample from")
    seen = Counter(view.hand)
    for pile in view.piles:
        seen.update(pile)
    for mine in view.rows:
        for row in mine:
            seen.update(row)
    for point_row in view.point_rows:
        seen.update(point_row)
    for p, known in enumerate(view.known_cards):
        if p != view.viewer:
            seen.update(known)
    unseen = list((Counter(FULL_DECK) - seen).elements())
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
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for p in range(view.num_players):
        if p == view.viewer:
            hands.append(sorted(view.hand))
            continue
        hidden = view.hand_sizes[p] - len(view.known_cards[p])
        hands.append(sorted([*view.known_cards[p], *unseen[:hidden]]))
        del unseen[:hidden]

    state = object.__new__(CardState)
    state._init_empty(view.num_players, CardVariant.from_json(dict(view.variant)))
    state.current_player = view.current_player
    state.over = view.over
    state.turn = view.turn
    state.phase = PHASE_NAMES.index(view.phase)
    state.hands = hands
    state.deck = unseen[: view.deck_size]
    state.removed = unseen[view.deck_size :]
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
        state.ending = state.end_reason = view.outcome.end_reason
    elif view.ender >= 0:
        # C-13 never empties the draw pile; C-14 always does.
        state.ending = EndReason.DECK if view.deck_size == 0 else EndReason.CLOSED
    state.known = [list(k) for k in view.known_cards]
    return state
