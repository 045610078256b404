"""The one door out of a board-game state: what a player or a spectator may see.

Hidden cards — other players' hands, the draw pile, the cards removed in a 2-player game —
appear only as counts. Cards a player took from a discard pile are public (everyone saw them
taken) and are listed as ``known_cards`` until they are played.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from keltis.board.layout import TILE_LETTERS, Layout
from keltis.core.cards import CARD_VALUE, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON, View, cards_json
from keltis.core.scoring import direction_name

if TYPE_CHECKING:
    from keltis.board.state import BoardState

RECENT_MOVES = 12
_PENDING_PHASES = frozenset({"figure", "clover", "overflow"})


@dataclass(frozen=True)
class BoardView(View):
    """A board-game view. Everything here is public, except ``hand`` (the viewer's own)."""

    layout: Layout
    tiles: tuple[tuple[int, ...], ...]
    """tiles[colour][row], rows 0-9 (codes: see ``keltis.board.layout``)."""
    piles: tuple[tuple[int, ...], ...]
    """The five discard piles, bottom first (all face up)."""
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    """rows[player][colour]: the cards each player laid."""
    directions: tuple[tuple[int, ...], ...]
    positions: tuple[tuple[int, ...], ...]
    """positions[player][colour]: row 1-9 of the figure on that path, 0 if none."""
    big: tuple[int, ...]
    """Path of each player's big figure, -1 while it is on the start stone."""
    tile_points: tuple[int, ...]
    wishes: tuple[int, ...]
    goal_count: int
    pending: int
    """Path of the figure a pending figure/clover/overflow decision is about (-1 if none)."""
    discarded_pile: int
    """The pile the current player discarded to this turn (-1 if none)."""
    scores: tuple[int, ...]
    """Totals as if the game ended now (every part of a score is public)."""

    def previews(self) -> list[JSON]:
        """What each legal action would do (see :mod:`keltis.board.preview`)."""
        from keltis.board.preview import board_previews

        return board_previews(self)

    def to_json(self) -> JSON:
        """A JSON-ready dict: cards and actions as notation."""

        return {
            **self.base_json(),
            "layout": self.layout.to_json(),
            "tiles": {
                COLOUR_LETTERS[c]: "".join(TILE_LETTERS[t] for t in self.tiles[c][1:])
                for c in range(NUM_COLOURS)
            },
            "discards": {COLOUR_LETTERS[c]: cards_json(p) for c, p in enumerate(self.piles)},
            "players": [
                {
                    "rows": {
                        COLOUR_LETTERS[c]: cards_json(self.rows[p][c]) for c in range(NUM_COLOURS)
                    },
                    "directions": {
                        COLOUR_LETTERS[c]: direction_name(self.directions[p][c])
                        for c in range(NUM_COLOURS)
                    },
                    "positions": {
                        COLOUR_LETTERS[c]: self.positions[p][c] for c in range(NUM_COLOURS)
                    },
                    "big": COLOUR_LETTERS[self.big[p]] if self.big[p] >= 0 else None,
                    "tile_points": self.tile_points[p],
                    "wishes": self.wishes[p],
                    "score": self.scores[p],
                }
                for p in range(self.num_players)
            ],
            "goal_count": self.goal_count,
            "pending": COLOUR_LETTERS[self.pending] if self.pending >= 0 else None,
            "discarded_pile": (
                COLOUR_LETTERS[self.discarded_pile] if self.discarded_pile >= 0 else None
            ),
        }


def board_view(state: BoardState, player: int | None) -> BoardView:
    """The view of ``state`` for seat ``player``, or for a spectator (``None``)."""
    return BoardView(
        **state.view_fields(player, RECENT_MOVES),
        layout=state.layout,
        tiles=tuple(tuple(t) for t in state.tiles),
        piles=tuple(tuple(p) for p in state.piles),
        rows=tuple(tuple(tuple(r) for r in mine) for mine in state.rows),
        directions=tuple(tuple(d) for d in state.dirs),
        positions=tuple(tuple(x) for x in state.pos),
        big=tuple(state.big),
        tile_points=tuple(state.points),
        wishes=tuple(state.wishes),
        goal_count=state.goal,
        pending=state.pending if state.phase_name in _PENDING_PHASES else -1,
        discarded_pile=state.discarded_pile,
        scores=tuple(state.scores()),
    )


def sample_board_state(view: BoardView, rng: random.Random) -> BoardState:
    """A full state consistent with ``view`` (a determinization for search bots).

    The cards the viewer cannot see — every card not in the viewer's hand, a row, a discard
    pile or known to be in another hand — are shuffled and dealt to the hidden places: the
    rest of each other hand, the draw pile and the removed cards, with their sizes as seen.
    The decision in progress (phase, pending path) is kept; the history is not.
    """
    from keltis.board.state import (
        FULL_DECK,
        PHASE_NAMES,
        BoardState,
        BoardVariant,
        layable_mask,
    )

    if view.viewer is None or view.hand is None:
        raise SetupError("a spectator's view has no hand to sample from")
    seen = Counter(view.hand)
    for pile in view.piles:
        seen.update(pile)
    for mine in view.rows:
        for row in mine:
            seen.update(row)
    for p, known in enumerate(view.known_cards):
        if p != view.viewer:
            seen.update(known)
    unseen = list((Counter(FULL_DECK) - seen).elements())
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for p in range(view.num_players):
        if p == view.viewer:
            hands.append(sorted(view.hand))
            continue
        hidden = view.hand_sizes[p] - len(view.known_cards[p])
        hands.append(sorted([*view.known_cards[p], *unseen[:hidden]]))
        del unseen[:hidden]

    state = object.__new__(BoardState)
    state.num_players = view.num_players
    state.first_player = 0
    state.current_player = view.current_player
    state.over = view.over
    state.turn = view.turn
    state.phase = PHASE_NAMES.index(view.phase)
    state.end_reason = view.outcome.end_reason if view.outcome else None
    state.history = []
    state.actors = []
    state.variant = BoardVariant.from_json(dict(view.variant))
    state.layout = view.layout
    state.hands = hands
    state.deck = unseen[: view.deck_size]
    state.removed = unseen[view.deck_size :]
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
