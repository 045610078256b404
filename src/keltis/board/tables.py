"""The board game's tables: the rows of its paths and their values (B-2, B-19, B-21) and
the points of its wish stones (B-23). The rules shared with the card game are in
:mod:`keltis.core.scoring`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from keltis.core.scoring import wish_points

#: Value of a board row 0-9 (row 0 is the start stone: 0 points) — B-2, B-21.
BOARD_ROW_VALUES: Final = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)
#: First row of the goal area (rows 7-9) — B-2, B-19.
GOAL_ROW: Final = 7
#: The end stone — B-2.
LAST_ROW: Final = 9
#: Figures that must be in the goal area to end the board game — B-19.
GOAL_FIGURES: Final = 5

#: Points for 0, 1, 2, 3, 4, 5+ wish stones — B-23.
BOARD_WISH_POINTS: Final = (-4, -3, 2, 3, 6, 10)


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
