"""Actions: one decision each, shared by both games, with a text notation that round-trips.

An :class:`Action` is a small immutable value. The same vocabulary serves both games (the board
game simply never offers closing cards, point cards or claims). ``Action.parse(str(a)) == a``
for every action; ``docs/notation.md`` documents the notation:

=================  ==============================================================
``G7``             lay a card: green 7 on your green row (``GX`` closing card,
                   ``*7`` point card on your point row)
``*7>G``           lay point card 7 on the end of your green row (card game, C-11)
``-G7``            discard green 7 (``-GX``, ``-*7``)
``wish G5 *5``     claim wish stone 5 with green 5 and point card 5, in that order
``big``/``small``  which figure enters a new path (board game, B-11)
``>G``             move your figure on the green path one stone forward (clover
                   B-17 or end-stone overflow B-14)
``pass``           decline an optional move, or stop laying in the end phase (C-15)
``draw``           draw the top card of the draw pile
``draw G``         take the top card of the green discard pile (``draw *``: point pile)
=================  ==============================================================

Every action has a dense ``index`` in ``range(NUM_ACTIONS)`` (the same for both games), which
learning interfaces use as the integer action id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from keltis.core.card_codes import (
    CARD_COLOUR,
    CARD_TEXT,
    CARD_VALUE,
    COLOUR_LETTERS,
    NUM_CARD_CODES,
    NUM_COLOURS,
    POINT_BASE,
    Colour,
    is_point,
    parse_card,
)
from keltis.core.errors import NotationError


class ActionKind(IntEnum):
    """What an action does."""

    LAY = 0
    DISCARD = 1
    CLAIM = 2
    FIGURE = 3
    ADVANCE = 4
    PASS = 5
    DRAW = 6


#: ``Action.target`` of a draw from the draw pile.
DECK: Final = -1
#: ``Action.target`` of a draw from the point-card discard pile (card game).
POINT_PILE: Final = 5
#: ``Action.target`` of the FIGURE choice.
SMALL: Final = 0
BIG: Final = 1

_LAY_ONTO_ROW_BASE: Final = NUM_CARD_CODES  # 71
_DISCARD_BASE: Final = _LAY_ONTO_ROW_BASE + 11 * NUM_COLOURS  # 126
_CLAIM_BASE: Final = _DISCARD_BASE + NUM_CARD_CODES  # 197
_FIGURE_BASE: Final = _CLAIM_BASE + 9 * 36  # 521
_ADVANCE_BASE: Final = _FIGURE_BASE + 2  # 523
_PASS_INDEX: Final = _ADVANCE_BASE + NUM_COLOURS  # 528
_DRAW_BASE: Final = _PASS_INDEX + 1  # 529: deck, then piles 0-5
#: Size of the shared action space.
NUM_ACTIONS: Final = _DRAW_BASE + 7  # 536


def _claim_slot(card: int) -> int:
    """Slot 0-4 for a number card of that colour, 5 for a point card."""
    return 5 if card >= POINT_BASE else CARD_COLOUR[card]


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. Build actions with the class methods (they are cached), or parse text."""

    kind: ActionKind
    card: int = -1
    card2: int = -1
    target: int = -1

    def __post_init__(self) -> None:
        if not _valid(self.kind, self.card, self.card2, self.target):
            raise ValueError(
                f"no such action: kind {self.kind!r}, card {self.card}, card2 {self.card2}, "
                f"target {self.target}"
            )

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Pickled as its dense index (a compiled frozen dataclass cannot be restored field by
        field); unpickling gives the cached action back."""
        return (Action.from_index, (self.index,))

    # -- constructors (cached: the same decision is always the same object) ---------------

    @staticmethod
    def lay(card: int, onto: int = -1) -> Action:
        """Lay ``card`` on its row; a point card with ``onto`` = colour goes on that row."""
        if onto < 0:
            return _LAY[card]
        return _LAY_ONTO[(card - POINT_BASE) * NUM_COLOURS + onto]

    @staticmethod
    def discard(card: int) -> Action:
        """Discard ``card`` face up on its pile."""
        return _DISCARD[card]

    @staticmethod
    def claim(first: int, second: int) -> Action:
        """Claim the wish stone of the two cards' value, discarding ``first`` then ``second``."""
        return Action(ActionKind.CLAIM, first, second)

    @staticmethod
    def figure(big: bool) -> Action:
        """Choose the big (``True``) or a small figure for a new path."""
        return BIG_ACTION if big else SMALL_ACTION

    @staticmethod
    def advance(path: int) -> Action:
        """Move your figure on ``path`` one stone forward (clover or overflow)."""
        return _ADVANCE[path]

    @staticmethod
    def draw(source: int = DECK) -> Action:
        """Draw from the draw pile (``DECK``) or take the top of discard pile ``source``."""
        return _DRAW[source + 1]

    # -- properties ----------------------------------------------------------------------

    @property
    def index(self) -> int:
        """Dense integer id in ``range(NUM_ACTIONS)``, the same for both games."""
        kind = self.kind
        if kind is ActionKind.LAY:
            if self.target < 0:
                return self.card
            return _LAY_ONTO_ROW_BASE + (self.card - POINT_BASE) * NUM_COLOURS + self.target
        if kind is ActionKind.DISCARD:
            return _DISCARD_BASE + self.card
        if kind is ActionKind.CLAIM:
            value = CARD_VALUE[self.card]
            return (
                _CLAIM_BASE
                + (value - 1) * 36
                + _claim_slot(self.card) * 6
                + _claim_slot(self.card2)
            )
        if kind is ActionKind.FIGURE:
            return _FIGURE_BASE + self.target
        if kind is ActionKind.ADVANCE:
            return _ADVANCE_BASE + self.target
        if kind is ActionKind.PASS:
            return _PASS_INDEX
        return _DRAW_BASE + 1 + self.target

    @staticmethod
    def from_index(index: int) -> Action:
        """The action with a given dense id (inverse of :attr:`index`)."""
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action index {index} is outside 0..{NUM_ACTIONS - 1}")
        if index < _LAY_ONTO_ROW_BASE:
            return _LAY[index]
        if index < _DISCARD_BASE:
            return _LAY_ONTO[index - _LAY_ONTO_ROW_BASE]
        if index < _CLAIM_BASE:
            return _DISCARD[index - _DISCARD_BASE]
        if index < _FIGURE_BASE:
            rest = index - _CLAIM_BASE
            value, pair = divmod(rest, 36)
            first, second = divmod(pair, 6)
            return Action.claim(_slot_card(first, value + 1), _slot_card(second, value + 1))
        if index < _ADVANCE_BASE:
            return Action.figure(index - _FIGURE_BASE == BIG)
        if index < _PASS_INDEX:
            return _ADVANCE[index - _ADVANCE_BASE]
        if index == _PASS_INDEX:
            return PASS_ACTION
        return _DRAW[index - _DRAW_BASE]

    @property
    def claim_value(self) -> int:
        """The wish stone value a claim asks for (the cards' common value)."""
        return CARD_VALUE[self.card]

    # -- notation ------------------------------------------------------------------------

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.LAY:
            text = CARD_TEXT[self.card]
            return text if self.target < 0 else f"{text}>{COLOUR_LETTERS[self.target]}"
        if kind is ActionKind.DISCARD:
            return "-" + CARD_TEXT[self.card]
        if kind is ActionKind.CLAIM:
            return f"wish {CARD_TEXT[self.card]} {CARD_TEXT[self.card2]}"
        if kind is ActionKind.FIGURE:
            return "big" if self.target == BIG else "small"
        if kind is ActionKind.ADVANCE:
            return ">" + COLOUR_LETTERS[self.target]
        if kind is ActionKind.PASS:
            return "pass"
        if self.target == DECK:
            return "draw"
        return "draw " + ("*" if self.target == POINT_PILE else COLOUR_LETTERS[self.target])

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its notation. Raises :class:`NotationError` with the reason."""
        return parse_action(text)


def _valid(kind: ActionKind, card: int, card2: int, target: int) -> bool:
    """Whether the fields describe an action of the shared action space."""
    if kind is ActionKind.LAY:
        if not 0 <= card < NUM_CARD_CODES or card2 != -1:
            return False
        return target == -1 or (card >= POINT_BASE and 0 <= target < NUM_COLOURS)
    if kind is ActionKind.DISCARD:
        return 0 <= card < NUM_CARD_CODES and card2 == -1 and target == -1
    if kind is ActionKind.CLAIM:
        return (
            0 <= card < NUM_CARD_CODES
            and 0 <= card2 < NUM_CARD_CODES
            and 1 <= CARD_VALUE[card] <= 9
            and CARD_VALUE[card] == CARD_VALUE[card2]
            and target == -1
        )
    if card != -1 or card2 != -1:
        return False
    if kind is ActionKind.FIGURE:
        return target in (SMALL, BIG)
    if kind is ActionKind.ADVANCE:
        return 0 <= target < NUM_COLOURS
    if kind is ActionKind.PASS:
        return target == -1
    if kind is ActionKind.DRAW:
        return DECK <= target <= POINT_PILE
    return False


def _slot_card(slot: int, value: int) -> int:
    return POINT_BASE + value if slot == 5 else slot * 11 + value


_LAY: Final = tuple(Action(ActionKind.LAY, c) for c in range(NUM_CARD_CODES))
_LAY_ONTO: Final = tuple(
    Action(ActionKind.LAY, POINT_BASE + v, -1, colour)
    for v in range(11)
    for colour in range(NUM_COLOURS)
)
_DISCARD: Final = tuple(Action(ActionKind.DISCARD, c) for c in range(NUM_CARD_CODES))
_ADVANCE: Final = tuple(Action(ActionKind.ADVANCE, -1, -1, p) for p in range(NUM_COLOURS))
_DRAW: Final = tuple(Action(ActionKind.DRAW, -1, -1, t) for t in range(-1, POINT_PILE + 1))
SMALL_ACTION: Final = Action(ActionKind.FIGURE, -1, -1, SMALL)
BIG_ACTION: Final = Action(ActionKind.FIGURE, -1, -1, BIG)
PASS_ACTION: Final = Action(ActionKind.PASS)
DRAW_DECK: Final = _DRAW[0]

_WORDS_PASS: Final = frozenset({"pass", "stop"})
_SPLIT: Final = re.compile(r"[\s,+]+")


def _pile(text: str) -> int:
    if text == "*":
        return POINT_PILE
    return int(_colour_index(text))


def _colour_index(text: str) -> int:
    return int(Colour.from_letter(text))


def parse_action(text: str) -> Action:
    """Read an action from its notation (see the module docstring). Case-insensitive."""
    raw = text.strip()
    low = raw.lower()
    if not raw:
        raise NotationError(key="empty_action")
    if low in _WORDS_PASS:
        return PASS_ACTION
    if low == "big":
        return BIG_ACTION
    if low == "small":
        return SMALL_ACTION
    if low == "draw":
        return DRAW_DECK
    if low.startswith("draw"):
        return Action.draw(_pile(raw[4:].strip()))
    if low.startswith("wish"):
        parts = [p for p in _SPLIT.split(raw[4:].strip()) if p]
        if len(parts) != 2:
            raise NotationError(key="claim_two_cards")
        first, second = parse_card(parts[0]), parse_card(parts[1])
        for card in (first, second):
            if not 1 <= CARD_VALUE[card] <= 9:
                raise NotationError(key="claim_value", params={"card": CARD_TEXT[card]})
        if CARD_VALUE[first] != CARD_VALUE[second]:
            raise NotationError(key="claim_same_value")
        return Action.claim(first, second)
    if raw.startswith(">"):
        return _ADVANCE[_colour_index(raw[1:].strip())]
    if raw.startswith("-"):
        return _DISCARD[parse_card(raw[1:])]
    if ">" in raw:
        card_text, _, row = raw.partition(">")
        card = parse_card(card_text)
        if not is_point(card):
            raise NotationError(key="point_onto_row")
        return Action.lay(card, _colour_index(row.strip()))
    try:
        return _LAY[parse_card(raw)]
    except NotationError:
        raise NotationError(key="not_an_action") from None
