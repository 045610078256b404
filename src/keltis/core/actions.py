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

:data:`ALL_ACTIONS` lists every action the notation can write (536), in the canonical order.
Each game declares the actions it can ever accept as an :class:`ActionSpace` (``Game.actions``:
``keltis.board.actions``, ``keltis.cards.actions``), which numbers them densely in that order:
the integer action ids of learning interfaces, the game's alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from keltis.core.card_codes import (
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

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Pickled as its notation (a compiled frozen dataclass cannot be restored field by
        field); unpickling gives the cached action back."""
        return (parse_action, (str(self),))

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

#: Every action the notation can write, in the canonical order that each game's
#: :class:`ActionSpace` keeps: lays (card codes 0-70), point cards onto a row (by value, then
#: row), discards (card codes), claims (by value 1-9, then the first card's slot, then the
#: second's: slots 0-4 the number card of that colour, 5 the point card), the figure choice
#: (small, big), advances (by path), pass, draws (the draw pile, then discard piles 0-5). It
#: is the order of the action ids before each game had its own (encoding version 1 numbered all 536
#: this way), so an old weight row ``i`` belongs to ``ALL_ACTIONS[i]``.
ALL_ACTIONS: Final = (
    *_LAY,
    *_LAY_ONTO,
    *_DISCARD,
    *(
        Action.claim(_slot_card(first, value), _slot_card(second, value))
        for value in range(1, 10)
        for first in range(6)
        for second in range(6)
    ),
    SMALL_ACTION,
    BIG_ACTION,
    *_ADVANCE,
    PASS_ACTION,
    *_DRAW,
)

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


class ActionSpace:
    """The actions one game can ever accept, numbered densely: the game's integer action ids
    (a policy's outputs, a mask's entries, OpenSpiel's ``num_distinct_actions``). Built from
    the actions in :data:`ALL_ACTIONS` order, so the ids keep that order.

    >>> space = ActionSpace("demo", (PASS_ACTION, DRAW_DECK))
    >>> space.size, space.index(DRAW_DECK), space.action(0), space.parse("draw")
    (2, 1, Action('pass'), Action('draw'))
    """

    __slots__ = ("_index", "actions", "game", "notation", "size", "title")

    def __init__(self, game: str, actions: tuple[Action, ...], title: str = "") -> None:
        self.game = game
        self.title = title or f"the {game} game"
        """The game in words for messages (``the board game``)."""
        self.actions = actions
        self.size = len(actions)
        self.notation = tuple(str(a) for a in actions)
        self._index = {a: i for i, a in enumerate(actions)}
        if len(self._index) != self.size:
            raise ValueError(f"the actions of {game} repeat")

    def __len__(self) -> int:
        return self.size

    def __contains__(self, action: object) -> bool:
        return action in self._index

    def index(self, action: Action) -> int:
        """The id of ``action``; :class:`ValueError` if the game has no such action."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action} is not an action of {self.title}") from None

    def action(self, index: int) -> Action:
        """The action with id ``index``; :class:`ValueError` outside ``0 … size - 1``."""
        if not 0 <= index < self.size:
            raise ValueError(
                f"action id {index} is outside 0..{self.size - 1} ({self.title}'s ids)"
            )
        return self.actions[index]

    def parse(self, text: str) -> Action:
        """Read an action of this game from its notation: :class:`NotationError` if the text
        is no action, or one the game never has (``not_a_move.<game>``, which says the
        game's moves)."""
        action = parse_action(text)
        if action not in self._index:
            raise NotationError(key=f"not_a_move.{self.game}")
        return action

    def __repr__(self) -> str:
        return f"ActionSpace({self.game!r}, {self.size} actions)"
