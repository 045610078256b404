"""Colours and cards shared by both games.

Every card is a small ``int`` (a *card code*), so that hands, piles and rows are plain lists
of ints in the hot path:

* ``0 … 54`` — a number card: ``colour * 11 + value`` (value 0–10). The board game uses only
  these (B-1); the card game has one or two copies of each (C-1).
* ``55 … 59`` — a closing card of a colour: ``55 + colour`` (card game only, C-2).
* ``60 … 70`` — a point card: ``60 + value`` (card game only, C-3).

Text form: a colour letter and a value (``G7``, ``B10``), a colour letter and ``X`` for a
closing card (``RX``), and ``*`` and a value for a point card (``*7``). Parsing accepts
lower case.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from keltis.core.colours import COLOUR_LETTERS as COLOUR_LETTERS
from keltis.core.colours import COLOUR_NAMES as COLOUR_NAMES
from keltis.core.colours import NUM_COLOURS as NUM_COLOURS
from keltis.core.errors import NotationError


class Colour(IntEnum):
    """The five colours (B-1, C-1). Never shown by hue alone: each has a letter."""

    GREEN = 0
    YELLOW = 1
    RED = 2
    PINK = 3
    BLUE = 4

    @property
    def letter(self) -> str:
        """The one-letter code used in notation and on screen."""
        return COLOUR_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour for a letter (``G``, ``Y``, ``R``, ``P``, ``B``; any case)."""
        index = COLOUR_LETTERS.find(letter.upper()) if len(letter) == 1 else -1
        if index < 0:
            raise NotationError(key="not_a_colour", params={"text": letter})
        return cls(index)


COLOURS: Final = tuple(Colour)

NUMBER_CARDS: Final = 55
CLOSING_BASE: Final = 55
POINT_BASE: Final = 60
NUM_CARD_CODES: Final = 71
NO_COLOUR: Final = -1
NO_VALUE: Final = -1


def number_card(colour: int, value: int) -> int:
    """The code of the number card of ``colour`` and ``value`` (0–10)."""
    if not 0 <= colour < NUM_COLOURS or not 0 <= value <= 10:
        raise ValueError(f"no number card of colour {colour} and value {value}")
    return colour * 11 + value


def closing_card(colour: int) -> int:
    """The code of a closing card of ``colour`` (card game)."""
    if not 0 <= colour < NUM_COLOURS:
        raise ValueError(f"no colour {colour}")
    return CLOSING_BASE + colour


def point_card(value: int) -> int:
    """The code of the point card with corner number ``value`` (card game)."""
    if not 0 <= value <= 10:
        raise ValueError(f"no point card of value {value}")
    return POINT_BASE + value


def _colour_of(card: int) -> int:
    if card < NUMBER_CARDS:
        return card // 11
    if card < POINT_BASE:
        return card - CLOSING_BASE
    return NO_COLOUR


def _value_of(card: int) -> int:
    if card < NUMBER_CARDS:
        return card % 11
    if card < POINT_BASE:
        return NO_VALUE
    return card - POINT_BASE


def _text_of(card: int) -> str:
    if card < NUMBER_CARDS:
        return f"{COLOUR_LETTERS[card // 11]}{card % 11}"
    if card < POINT_BASE:
        return f"{COLOUR_LETTERS[card - CLOSING_BASE]}X"
    return f"*{card - POINT_BASE}"


#: Colour of each card code (-1 for point cards). Indexing beats a function call in hot loops.
CARD_COLOUR: Final = tuple(_colour_of(c) for c in range(NUM_CARD_CODES))
#: Value of each card code (-1 for closing cards).
CARD_VALUE: Final = tuple(_value_of(c) for c in range(NUM_CARD_CODES))
#: Text of each card code.
CARD_TEXT: Final = tuple(_text_of(c) for c in range(NUM_CARD_CODES))
_BY_TEXT: Final = {text: code for code, text in enumerate(CARD_TEXT)}


def card_colour(card: int) -> int:
    """The colour index of a card, or -1 for a point card."""
    return CARD_COLOUR[card]


def card_value(card: int) -> int:
    """The value of a card, or -1 for a closing card."""
    return CARD_VALUE[card]


def is_number(card: int) -> bool:
    """True for a number card."""
    return 0 <= card < NUMBER_CARDS


def is_closing(card: int) -> bool:
    """True for a closing card."""
    return CLOSING_BASE <= card < POINT_BASE


def is_point(card: int) -> bool:
    """True for a point card."""
    return POINT_BASE <= card < NUM_CARD_CODES


def card_text(card: int) -> str:
    """The notation of a card, e.g. ``G7``, ``RX`` or ``*3``."""
    if not 0 <= card < NUM_CARD_CODES:
        raise ValueError(f"no card with code {card}")
    return CARD_TEXT[card]


def parse_card(text: str) -> int:
    """The card code for a card's notation (``G7``, ``b10``, ``RX``, ``*3``)."""
    code = _BY_TEXT.get(text.strip().upper())
    if code is None:
        raise NotationError(key="not_a_card", params={"text": text})
    return code


def sort_cards(cards: list[int]) -> list[int]:
    """Cards in display order: by colour, then value; point cards last."""
    return sorted(cards)
