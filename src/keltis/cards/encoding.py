"""The card game's observation for learning: its fields and how a view fills them (the
encoding's shared part, the layout and the one-seat-view rule, is :mod:`keltis.env.encode`).
Needs numpy; handed out as ``CardGame().part("encoding")``."""

from __future__ import annotations

from typing import Final

from keltis.cards.view import CardView
from keltis.core.card_codes import CARD_VALUE, CLOSING_BASE, NUM_COLOURS
from keltis.core.protocol import View
from keltis.env.encode import (
    MAX_PLAYERS,
    Array,
    Field,
    ObservationLayout,
    add_counts,
    cards_text,
    encode_common,
    encode_piles,
    encode_seat_common,
    one_hot_direction,
    relative_seat,
    seats_in_block_order,
)

_CARD_CODES: Final = 71
_CARD_PHASES: Final = ("play", "draw", "final", "over")
_CARDS_DECK: Final = 101
_CARDS_PILE_MAX: Final = 18  # a colour's 16 number cards and 2 closing cards
_CARDS_ROW_MAX: Final = 29  # 16 number cards, 2 closing cards, 11 point cards
_WISH_STONES: Final = 9


def _cards_table() -> tuple[Field, ...]:
    return (
        Field("phase", 4, "phase one-hot: play, draw, final, over"),
        Field("to_move", MAX_PLAYERS, "who decides, one-hot by seat relative to you (0 = you)"),
        Field("turn", 1, "completed turns / the variant's turn cap"),
        Field("hand", _CARD_CODES, "your hand: copies of each card (codes 0-70) / 2"),
        Field("deck", 1, "cards in the draw pile / 101"),
        Field("removed", 1, "cards put back in the box unseen (2 players) / 30"),
        Field("wish_row", _WISH_STONES, "wish stone cards 1-9 still in the row"),
        Field("pile_tops", _CARD_CODES, "top card of each discard pile (1 at its code)"),
        Field("pile_sizes", 6, "cards in each discard pile G Y R P B * / 18"),
        Field("piles", _CARD_CODES, "every card in the discard piles: copies / 2"),
        Field("blocked", 6, "piles G Y R P B * not drawable this turn"),
        Field("draws_left", 1, "draws still due this turn / 2"),
        Field("final_lays_left", 1, "last lays left to the seat deciding (end phase) / 2"),
        Field("closed_rows", 1, "rows (all players) holding a closing card / 10"),
        Field("ender", MAX_PLAYERS + 1, "who ended the game, by relative seat, or nobody yet"),
    )


def _cards_player() -> tuple[Field, ...]:
    return (
        Field("rows", _CARD_CODES, "cards in the seat's colour rows: copies / 2"),
        Field("point_row", 11, "point cards 0-10 in its point row"),
        Field("row_lengths", NUM_COLOURS, "cards in each colour row G Y R P B / 29"),
        Field(
            "row_last",
            NUM_COLOURS * 12,
            "per row G Y R P B, its last card: value 0-10 (a point card's too) or closing",
        ),
        Field("directions", NUM_COLOURS * 3, "per row, one-hot: open, ascending, descending"),
        Field("wishes", _WISH_STONES, "wish stone cards 1-9 it claimed"),
        Field("score", 1, "score as if the game ended now / 100", -1.0, 1.0),
        Field("hand_size", 1, "cards in the seat's hand / 8"),
        Field("known", _CARD_CODES, "cards known in its hand (taken from a pile): copies / 2"),
    )


#: The table part's fields, then one player block's (``keltis.env.encode.observation_layout``).
TABLE: Final = _cards_table()
PLAYER: Final = _cards_player()


def encode_view(view: View, lay: ObservationLayout, out: Array) -> None:
    """Fill ``out`` (zeroed) with the observation of a seat's card-game view."""
    if not isinstance(view, CardView):
        raise TypeError(f"the card game encodes a CardView, not a {type(view).__name__}")
    _encode_cards(view, lay, out)


def _encode_cards(view: CardView, lay: ObservationLayout, out: Array) -> None:
    encode_common(view, lay, out, _CARD_PHASES)
    o = lay.offset
    out[o("deck")] = view.deck_size / _CARDS_DECK
    wish_row = o("wish_row")
    for value in view.wish_row:
        out[wish_row + value - 1] = 1.0
    encode_piles(lay, out, view.piles, _CARDS_PILE_MAX)
    blocked = o("blocked")
    for pile_number in view.blocked_piles:
        out[blocked + pile_number] = 1.0
    out[o("draws_left")] = view.draws_left / 2
    out[o("final_lays_left")] = view.final_lays_left / 2
    out[o("closed_rows")] = view.closed_rows / 10
    ender = relative_seat(view, view.ender) if view.ender >= 0 else MAX_PLAYERS
    out[o("ender") + ender] = 1.0
    for k, seat in enumerate(seats_in_block_order(view)):
        rows, lengths = o("rows", k), o("row_lengths", k)
        last, dirs = o("row_last", k), o("directions", k)
        for colour in range(NUM_COLOURS):
            row = view.rows[seat][colour]
            add_counts(out, rows, row)
            out[lengths + colour] = len(row) / _CARDS_ROW_MAX
            if row:
                card = row[-1]
                is_closing = CLOSING_BASE <= card < CLOSING_BASE + NUM_COLOURS
                out[last + colour * 12 + (11 if is_closing else CARD_VALUE[card])] = 1.0
            one_hot_direction(out, dirs + colour * 3, view.directions[seat][colour])
        point_row = o("point_row", k)
        for card in view.point_rows[seat]:
            out[point_row + CARD_VALUE[card]] = 1.0
        wishes = o("wishes", k)
        for value in view.wish_stones[seat]:
            out[wishes + value - 1] = 1.0
        encode_seat_common(view, lay, out, k, seat)


# -- plain text (the environments' ``render_mode="ansi"``: ``keltis.env.common.render_view``)


def table_text(view: View) -> list[str]:
    """The wish stone cards still in the row."""
    assert isinstance(view, CardView)
    return ["wish stones " + (" ".join(map(str, view.wish_row)) or "-")]


def seat_text(view: View, seat: int) -> str:
    """What a seat has beyond its colour rows: wish stones and its point row."""
    assert isinstance(view, CardView)
    stones = " ".join(map(str, view.wish_stones[seat])) or "-"
    return f"wish stones {stones}, point row {cards_text(view.point_rows[seat])}"


def row_note(view: View, seat: int, colour: int) -> str:
    """Nothing beside a card game's row."""
    return ""


def setup_text(view: View) -> str:
    """Nothing of a card game's deal is public before the first action."""
    return ""
