"""Reading the JSON form of set-ups and variants: shared checks with messages that say which
entry is wrong. Every function raises :class:`SetupError`."""

from __future__ import annotations

from typing import Any

from keltis.core.actions import POINT_PILE
from keltis.core.cards import COLOUR_LETTERS, NUMBER_CARDS, parse_card
from keltis.core.errors import NotationError, SetupError


def read_cards(data: Any, what: str, *, numbers_only: bool = False) -> list[int]:
    """A list of card notations (``["G7", "RX", "*3"]``) as card codes.

    ``numbers_only`` refuses closing and point cards (the board game has none).
    """
    if not isinstance(data, list):
        example = "['G7', 'B10']" if numbers_only else "['G7', 'RX', '*3']"
        raise SetupError(f"{what} must be a list of cards like {example}")
    out = []
    for item in data:
        if not isinstance(item, str):
            raise SetupError(f"{what}: {item!r} is not a card")
        try:
            card = parse_card(item)
        except NotationError as error:
            raise SetupError(f"{what}: {error}") from None
        if numbers_only and card >= NUMBER_CARDS:
            raise SetupError(f"{what}: {item} is not a board-game card")
        out.append(card)
    return out


def colour_key(key: Any, what: str, *, point_pile: bool = False) -> int:
    """A colour letter (``G`` … ``B``) as its index; with ``point_pile``, ``*`` is the
    point-card pile (``POINT_PILE``)."""
    text = str(key).upper()
    if point_pile and text == "*":
        return POINT_PILE
    index = COLOUR_LETTERS.find(text) if len(text) == 1 else -1
    if index < 0:
        extra = " or * for the point-card pile" if point_pile else ""
        raise SetupError(f"{what}: {key!r} is not a colour letter (G, Y, R, P, B){extra}")
    return index


def read_per_colour(data: Any, what: str, *, point_pile: bool = False) -> dict[int, Any]:
    """An object keyed by colour letter (and ``*`` with ``point_pile``), keys as indexes."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SetupError(f"{what} must be an object keyed by colour letter (G, Y, R, P, B)")
    return {colour_key(key, what, point_pile=point_pile): value for key, value in data.items()}


def read_per_player(data: Any, players: int, what: str) -> list[Any]:
    """A list with one entry per seat."""
    if not isinstance(data, list) or len(data) != players:
        raise SetupError(f"{what} must be a list with one entry per player ({players})")
    return data


def read_int(data: Any, what: str, low: int, high: int) -> int:
    """A whole number (not a bool) from ``low`` to ``high``."""
    if not isinstance(data, int) or isinstance(data, bool) or not low <= data <= high:
        raise SetupError(f"{what} must be a whole number {low}-{high}, not {data!r}")
    return data


def read_turn_cap(data: Any) -> int | None:
    """The ``turn_cap`` switch of a variant: ``None`` or a whole number of turns, at least 1."""
    if data is None:
        return None
    if not isinstance(data, int) or isinstance(data, bool):
        raise SetupError(f"turn_cap must be a whole number or null, not {data!r}")
    check_turn_cap(data)
    return data


def check_turn_cap(cap: int | None) -> None:
    """Refuse a turn cap below 1."""
    if cap is not None and cap < 1:
        raise SetupError(f"turn_cap must be at least 1, not {cap}")


def refuse_unknown(data: dict[str, Any], known: set[str], message: str) -> None:
    """Refuse keys of ``data`` that are not in ``known``: ``message`` followed by their names
    (e.g. ``"set-up: unknown entries"``)."""
    unknown = set(data) - known
    if unknown:
        raise SetupError(f"{message} {', '.join(sorted(unknown))}")
