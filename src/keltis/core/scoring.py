"""Scoring tables and the row direction rule shared by both games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized
from typing import Final

#: Value of a board row 0-9 (row 0 is the start stone: 0 points) — B-2, B-21.
BOARD_ROW_VALUES: Final = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)
#: First row of the goal area (rows 7-9) — B-2, B-19.
GOAL_ROW: Final = 7
#: The end stone — B-2.
LAST_ROW: Final = 9
#: Figures that must be in the goal area to end the board game — B-19.
GOAL_FIGURES: Final = 5

#: Board game: points for 0, 1, 2, 3, 4, 5+ wish stones — B-23.
BOARD_WISH_POINTS: Final = (-4, -3, 2, 3, 6, 10)
#: Card game: points for 0, 1, 2, 3, 4, 5+ wish stone cards — C-18.
CARD_WISH_POINTS: Final = (-4, -1, 0, 4, 6, 10)

#: Card game: points of a colour row by its number of cards (0 = never started) — C-16.
CARD_ROW_POINTS: Final = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)

#: Direction of a row: not fixed yet, ascending, descending — B-13.
UNDECIDED: Final = 0
ASCENDING: Final = 1
DESCENDING: Final = -1


def wish_points(table: tuple[int, ...], stones: int) -> int:
    """Points for ``stones`` wish stones from a 0…5+ table."""
    return table[min(stones, len(table) - 1)]


def card_row_points(cards: int) -> int:
    """Points of a card-game colour row with ``cards`` cards (C-16)."""
    return CARD_ROW_POINTS[min(cards, len(CARD_ROW_POINTS) - 1)]


def path_points(positions: Sequence[int], big: int) -> tuple[int, ...]:
    """What each path's figure scores (B-21): its row's value, double for the big figure
    (negative values too), 0 on the start stone."""
    return tuple(
        2 * BOARD_ROW_VALUES[row] if colour == big else BOARD_ROW_VALUES[row]
        for colour, row in enumerate(positions)
    )


def board_parts(
    positions: Sequence[int], big: int, tile_points: int, wishes: int
) -> dict[str, int]:
    """A board-game score breakdown (B-21-B-23) from public facts: each figure's row, the big
    figure's path, the points of the tiles taken and the wish stones."""
    return {
        "figures": sum(path_points(positions, big)),
        "tiles": tile_points,
        "wishes": wish_points(BOARD_WISH_POINTS, wishes),
        "wish_count": wishes,
    }


def card_parts(rows: Sequence[Sized], point_row: int, wish_stones: int) -> dict[str, int]:
    """A card-game score breakdown (C-16-C-18) from public facts: the colour rows, the cards
    in the point row and the wish stone cards claimed."""
    return {
        "rows": sum(card_row_points(len(row)) for row in rows),
        "point_row": point_row,
        "wishes": wish_points(CARD_WISH_POINTS, wish_stones),
        "wish_count": wish_stones,
    }


def total_points(parts: Mapping[str, int]) -> int:
    """The total of a score breakdown (keys ending in ``_count`` are counts, not points)."""
    return sum(v for k, v in parts.items() if not k.endswith("_count"))


def follows(direction: int, last: int, value: int) -> bool:
    """Whether ``value`` may follow ``last`` in a row of ``direction`` (B-13).

    Equal values are always allowed; an undecided row takes any value.
    """
    if direction == ASCENDING:
        return value >= last
    if direction == DESCENDING:
        return value <= last
    return True


def direction_after(direction: int, last: int, value: int) -> int:
    """The row's direction once ``value`` follows ``last`` (the first different value fixes it)."""
    if direction != UNDECIDED or value == last:
        return direction
    return ASCENDING if value > last else DESCENDING


def direction_name(direction: int) -> str:
    """``ascending``, ``descending`` or ``open``."""
    return {ASCENDING: "ascending", DESCENDING: "descending"}.get(direction, "open")
