"""The card game's tables: how many copies of each card there are (C-1-C-3) and the points
of its rows and wish stone cards (C-16, C-18). The rules shared with the board game are in
:mod:`keltis.core.scoring`."""

from __future__ import annotations

from collections.abc import Sequence, Sized
from typing import Final

from keltis.core.card_codes import NUM_CARD_CODES, NUMBER_CARDS, POINT_BASE
from keltis.core.scoring import wish_points


def _copies(card: int) -> int:
    if card < NUMBER_CARDS:
        return 2 if 3 <= card % 11 <= 7 else 1
    if card < POINT_BASE:
        return 2
    return 1


#: How many copies of each card code exist (C-1-C-3).
COPIES: Final = tuple(_copies(c) for c in range(NUM_CARD_CODES))

#: Points for 0, 1, 2, 3, 4, 5+ wish stone cards — C-18.
CARD_WISH_POINTS: Final = (-4, -1, 0, 4, 6, 10)

#: Points of a colour row by its number of cards (0 = never started) — C-16.
CARD_ROW_POINTS: Final = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)


def card_row_points(cards: int) -> int:
    """Points of a card-game colour row with ``cards`` cards (C-16)."""
    return CARD_ROW_POINTS[min(cards, len(CARD_ROW_POINTS) - 1)]


def card_parts(rows: Sequence[Sized], point_row: int, wish_stones: int) -> dict[str, int]:
    """A card-game score breakdown (C-16-C-18) from public facts: the colour rows, the cards
    in the point row and the wish stone cards claimed."""
    return {
        "rows": sum(card_row_points(len(row)) for row in rows),
        "point_row": point_row,
        "wishes": wish_points(CARD_WISH_POINTS, wish_stones),
        "wish_count": wish_stones,
    }
