"""Scoring and the row direction rule shared by both games: wish stone points from a game's
table, a score's total, and which card may follow which in a row (B-13, C-9). Each game's own
tables are in its package (``keltis.board.tables``, ``keltis.cards.tables``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: Direction of a row: not fixed yet, ascending, descending — B-13.
UNDECIDED: Final = 0
ASCENDING: Final = 1
DESCENDING: Final = -1


def wish_points(table: tuple[int, ...], stones: int) -> int:
    """Points for ``stones`` wish stones from a 0…5+ table."""
    return table[min(stones, len(table) - 1)]


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
