"""The board game's observation for learning: its fields and how a view fills them (the
encoding's shared part, the layout and the one-seat-view rule, is :mod:`keltis.env.encode`).
Needs numpy; handed out as ``BoardGame().part("encoding")``."""

from __future__ import annotations

from typing import Final

from keltis.board.layout import TILE_LETTERS
from keltis.board.view import BoardView
from keltis.core.card_codes import CARD_VALUE, COLOUR_LETTERS, NUM_COLOURS, NUMBER_CARDS
from keltis.core.protocol import View
from keltis.env.encode import (
    MAX_PLAYERS,
    Array,
    Field,
    ObservationLayout,
    add_counts,
    encode_common,
    encode_piles,
    encode_seat_common,
    one_hot_direction,
    seats_in_block_order,
)

_BOARD_CARDS: Final = NUMBER_CARDS  # 55: the board game's card codes
_BOARD_PHASES: Final = ("play", "figure", "clover", "overflow", "draw", "over")
_BOARD_DECK: Final = 110
_TILE_KINDS: Final = 6  # none, 1, 2, 3 points, clover, wish stone (keltis.board.layout)
_BOARD_ROWS: Final = 9  # stones 1-9 of each path
_BOARD_PILE_MAX: Final = 22  # every number card of a colour, twice
_TILE_POINTS_MAX: Final = 14  # the point tiles 1, 1, 2, 2, 2, 3, 3
_WISH_STONES: Final = 9


def _board_table() -> tuple[Field, ...]:
    return (
        Field("phase", 6, "phase one-hot: play, figure, clover, overflow, draw, over"),
        Field("to_move", MAX_PLAYERS, "who decides, one-hot by seat relative to you (0 = you)"),
        Field("turn", 1, "completed turns / the variant's turn cap"),
        Field("hand", _BOARD_CARDS, "your hand: copies of each card (codes 0-54) / 2"),
        Field("deck", 1, "cards in the draw pile / 110"),
        Field("removed", 1, "cards put back in the box unseen (2 players) / 30"),
        Field(
            "tiles",
            NUM_COLOURS * _BOARD_ROWS * _TILE_KINDS,
            "path tiles: per path G Y R P B, per stone 1-9, one-hot of none, 1, 2, 3 points, "
            "clover, wish stone (a taken wish stone leaves none)",
        ),
        Field("pile_tops", _BOARD_CARDS, "top card of each discard pile (1 at its code)"),
        Field("pile_sizes", NUM_COLOURS, "cards in each discard pile G Y R P B / 22"),
        Field("piles", _BOARD_CARDS, "every card in the discard piles: copies / 2"),
        Field("goal", 1, "figures in the goal area (all players) / 5"),
        Field("pending", NUM_COLOURS + 1, "path of the pending figure decision G Y R P B, none"),
        Field(
            "discarded_pile",
            NUM_COLOURS + 1,
            "pile discarded to this turn (not drawable back) G Y R P B, none",
        ),
    )


def _board_player() -> tuple[Field, ...]:
    return (
        Field("rows", _BOARD_CARDS, "cards in the seat's rows: copies of each card / 2"),
        Field("row_last", NUM_COLOURS * 11, "per row G Y R P B, value 0-10 of its last card"),
        Field("directions", NUM_COLOURS * 3, "per row, one-hot: open, ascending, descending"),
        Field("figures", NUM_COLOURS * 10, "per path, one-hot of the figure's stone 0-9 (0: none)"),
        Field("big", NUM_COLOURS + 1, "path of the big figure G Y R P B, or still on the start"),
        Field("tile_points", 1, "points from point tiles / 14"),
        Field("wishes", 1, "wish stones taken / 9"),
        Field("score", 1, "score as if the game ended now / 100", -1.0, 1.0),
        Field("hand_size", 1, "cards in the seat's hand / 8"),
        Field("known", _BOARD_CARDS, "cards known in its hand (taken from a pile): copies / 2"),
    )


#: The table part's fields, then one player block's (``keltis.env.encode.observation_layout``).
TABLE: Final = _board_table()
PLAYER: Final = _board_player()


def encode_view(view: View, lay: ObservationLayout, out: Array) -> None:
    """Fill ``out`` (zeroed) with the observation of a seat's board-game view."""
    if not isinstance(view, BoardView):
        raise TypeError(f"the board game encodes a BoardView, not a {type(view).__name__}")
    _encode_board(view, lay, out)


def _encode_board(view: BoardView, lay: ObservationLayout, out: Array) -> None:
    encode_common(view, lay, out, _BOARD_PHASES)
    o = lay.offset
    out[o("deck")] = view.deck_size / _BOARD_DECK
    tiles = o("tiles")
    for colour in range(NUM_COLOURS):
        for stone in range(1, _BOARD_ROWS + 1):
            at = tiles + (colour * _BOARD_ROWS + stone - 1) * _TILE_KINDS
            out[at + view.tiles[colour][stone]] = 1.0
    encode_piles(lay, out, view.piles, _BOARD_PILE_MAX)
    out[o("goal")] = view.goal_count / 5
    out[o("pending") + (view.pending if view.pending >= 0 else NUM_COLOURS)] = 1.0
    discarded = view.discarded_pile
    out[o("discarded_pile") + (discarded if discarded >= 0 else NUM_COLOURS)] = 1.0
    for k, seat in enumerate(seats_in_block_order(view)):
        rows, last, dirs = o("rows", k), o("row_last", k), o("directions", k)
        figures = o("figures", k)
        for colour in range(NUM_COLOURS):
            row = view.rows[seat][colour]
            add_counts(out, rows, row)
            if row:
                out[last + colour * 11 + CARD_VALUE[row[-1]]] = 1.0
            one_hot_direction(out, dirs + colour * 3, view.directions[seat][colour])
            out[figures + colour * 10 + view.positions[seat][colour]] = 1.0
        big = view.big[seat]
        out[o("big", k) + (big if big >= 0 else NUM_COLOURS)] = 1.0
        out[o("tile_points", k)] = view.tile_points[seat] / _TILE_POINTS_MAX
        out[o("wishes", k)] = min(view.wishes[seat] / _WISH_STONES, 1.0)
        encode_seat_common(view, lay, out, k, seat)


# -- plain text (the environments' ``render_mode="ansi"``: ``keltis.env.common.render_view``)


def table_text(view: View) -> list[str]:
    """Lines about the table beyond the discard piles: none in the board game."""
    return []


def seat_text(view: View, seat: int) -> str:
    """What a seat has beyond its rows: wish stones and tile points."""
    assert isinstance(view, BoardView)
    return f"wish stones {view.wishes[seat]}, tile points {view.tile_points[seat]}"


def row_note(view: View, seat: int, colour: int) -> str:
    """The seat's figure on the path of ``colour``, if it has one there."""
    assert isinstance(view, BoardView)
    stone = view.positions[seat][colour]
    if not stone:
        return ""
    size = "big" if view.big[seat] == colour else "small"
    return f"   [{size} figure on stone {stone}]"


def setup_text(view: View) -> str:
    """What every seat sees of the deal before the first action: the tiles on the paths."""
    assert isinstance(view, BoardView)
    return "tiles " + " ".join(
        COLOUR_LETTERS[c] + ":" + "".join(TILE_LETTERS[t] for t in path[1:])
        for c, path in enumerate(view.tiles)
    )
