"""Keltis, the board game: state, legal actions and their effects (RULES.md B-1 … B-24).

A turn is a sequence of decisions by the current player (DESIGN.md):

1. ``play``: lay a card on its row (B-10 b, B-11-B-13) or discard it (B-10 a);
2. ``figure``: if the card opens a new path and both a big and a small figure are still on
   the start stone, which of them enters the path (B-11);
3. ``overflow``: if the card's figure already stands on the end stone, move another figure
   one stone forward, or pass (B-14);
4. ``clover``: after a clover tile, move any figure one stone forward, or pass (B-17);
   clovers chain;
5. ``draw``: the top of the draw pile or of a discard pile (B-15).

Decisions that have only one possible answer are not asked (a new path when only small
figures are left; a clover or overflow with no figure that could move).
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from keltis.board.layout import (
    ALL_TILES,
    CLOVER,
    DEFAULT_LAYOUT,
    NO_TILE,
    TILE_LETTERS,
    TILE_NAMES,
    WISH,
    Layout,
)
from keltis.core.actions import (
    BIG,
    BIG_ACTION,
    DECK,
    DRAW_DECK,
    PASS_ACTION,
    SMALL,
    SMALL_ACTION,
    Action,
    ActionKind,
)
from keltis.core.cards import (
    CARD_COLOUR,
    CARD_TEXT,
    CARD_VALUE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NUM_COLOURS,
    NUMBER_CARDS,
)
from keltis.core.errors import IllegalActionError, SetupError
from keltis.core.protocol import JSON, EndReason, GameState
from keltis.core.scoring import (
    ASCENDING,
    BOARD_ROW_VALUES,
    BOARD_WISH_POINTS,
    DESCENDING,
    GOAL_FIGURES,
    GOAL_ROW,
    LAST_ROW,
    UNDECIDED,
    direction_name,
    wish_points,
)
from keltis.core.setup import (
    DEFAULT_TURN_CAP,
    check_turn_cap,
    fresh_seed,
    read_cards,
    read_int,
    read_per_colour,
    read_per_player,
    read_turn_cap,
    refuse_unknown,
)

if TYPE_CHECKING:
    from keltis.board.view import BoardView

HAND_SIZE: Final = 8
REMOVED_TWO_PLAYERS: Final = 30
FIGURES: Final = 5
SMALL_FIGURES: Final = 4

PLAY, FIGURE, CLOVER_MOVE, OVERFLOW, DRAW, OVER = range(6)
PHASE_NAMES: Final = ("play", "figure", "clover", "overflow", "draw", "over")

#: The 110 cards (B-1): every number card code twice.
FULL_DECK: Final = tuple(sorted(list(range(NUMBER_CARDS)) * 2))

_LAY: Final = tuple(Action.lay(c) for c in range(NUMBER_CARDS))
_DISCARD: Final = tuple(Action.discard(c) for c in range(NUMBER_CARDS))
_ADVANCE: Final = tuple(Action.advance(p) for p in range(NUM_COLOURS))
_DRAW_PILE: Final = tuple(Action.draw(p) for p in range(NUM_COLOURS))
_ALL_NUMBER_CARDS: Final = (1 << NUMBER_CARDS) - 1
_COLOUR_MASK: Final = tuple(((1 << 11) - 1) << (11 * c) for c in range(NUM_COLOURS))


def _mask(colour: int, direction: int, last: int) -> int:
    if last < 0 or direction == UNDECIDED:
        values = range(11)
    elif direction == ASCENDING:
        values = range(last, 11)
    else:
        values = range(last + 1)
    return sum(1 << (colour * 11 + v) for v in values)


_MASKS: Final = tuple(
    tuple(
        tuple(_mask(colour, direction, last) for last in range(-1, 11)) for direction in (-1, 0, 1)
    )
    for colour in range(NUM_COLOURS)
)


def _lay_mask(colour: int, direction: int, last: int) -> int:
    """Bits of the cards of ``colour`` that may follow ``last`` in a row of ``direction``
    (``last`` = -1: an empty row takes any card)."""
    return _MASKS[colour][direction + 1][last + 1]


def layable_mask(dirs: list[int], last: list[int]) -> int:
    """Bits of all cards a player may lay, given their rows' directions and last values."""
    return sum(_lay_mask(c, dirs[c], last[c]) for c in range(NUM_COLOURS))


@dataclass(frozen=True)
class BoardVariant:
    """Rule switches. ``no_take_back`` (B-15, default on): the card discarded this turn may
    not be drawn back in the same turn; ``False`` is the variant that allows it (records
    whose variant says ``no_take_back: false`` keep replaying as they did). ``turn_cap``: end
    the game as *truncated* once this many turns are complete (default
    :data:`~keltis.core.setup.DEFAULT_TURN_CAP`: every game is finite)."""

    no_take_back: bool = True
    turn_cap: int = DEFAULT_TURN_CAP

    def __post_init__(self) -> None:
        check_turn_cap(self.turn_cap)

    def to_json(self) -> JSON:
        """The record form."""
        return {"no_take_back": self.no_take_back, "turn_cap": self.turn_cap}

    @classmethod
    def from_json(cls, data: JSON | None) -> BoardVariant:
        """Read the record form; unknown switches are refused. A missing ``no_take_back``
        means the current default (B-15: no take-back)."""
        data = dict(data or {})
        refuse_unknown(data, {"no_take_back", "turn_cap"}, "unknown board-game variant switch(es):")
        cap = read_turn_cap(data.get("turn_cap"))
        no_take_back = data.get("no_take_back", True)
        if not isinstance(no_take_back, bool):
            raise SetupError(f"no_take_back must be true or false, not {no_take_back!r}")
        return cls(no_take_back=no_take_back, turn_cap=cap)


class BoardState(GameState):
    """A board-game position with full information. Use :meth:`view` to show it to anyone."""

    game_name: ClassVar[str] = "board"
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES

    __slots__ = (
        "actors",
        "big",
        "current_player",
        "deck",
        "dirs",
        "discarded_pile",
        "end_reason",
        "first_player",
        "goal",
        "hands",
        "history",
        "known",
        "last",
        "layable",
        "layout",
        "num_players",
        "over",
        "pending",
        "phase",
        "piles",
        "points",
        "pos",
        "removed",
        "rows",
        "started",
        "tiles",
        "turn",
        "variant",
        "wishes",
    )

    variant: BoardVariant
    layout: Layout
    hands: list[list[int]]
    deck: list[int]
    """The draw pile; its top is the *end* of the list."""
    removed: list[int]
    piles: list[list[int]]
    """Five discard piles, bottom first."""
    rows: list[list[list[int]]]
    """rows[player][colour]: the cards laid, in order."""
    last: list[list[int]]
    """last[player][colour]: value of the row's last card, -1 if the row is empty."""
    dirs: list[list[int]]
    pos: list[list[int]]
    """pos[player][colour]: row 1-9 of the player's figure on that path, 0 if none."""
    started: list[int]
    big: list[int]
    """big[player]: path of the big figure, -1 while it is on the start stone."""
    tiles: list[list[int]]
    """tiles[colour][row] for rows 0-9 (row 0 is the start stone, never a tile)."""
    points: list[int]
    wishes: list[int]
    goal: int
    pending: int
    discarded_pile: int
    known: list[list[int]]
    first_player: int
    layable: list[int]
    """layable[player]: bit ``card`` is set if that card may be laid now (B-11-B-13)."""

    # -- creation ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: int,
        *,
        seed: int | None = None,
        setup: BoardSetup | None = None,
        variant: BoardVariant | None = None,
        layout: Layout = DEFAULT_LAYOUT,
    ) -> BoardState:
        """A new game from a seed (B-6-B-8; none: a fresh random one) or an explicit
        :class:`BoardSetup`."""
        variant = variant or BoardVariant()
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return setup.build(players, variant, layout)
        # The seeded set-up is consistent by construction: skip the checks of build().
        dealt = BoardSetup.from_seed(players, fresh_seed() if seed is None else seed, layout)
        assert dealt.deck is not None
        assert dealt.removed is not None
        assert dealt.tiles is not None
        state = object.__new__(cls)
        state.num_players = players
        state.first_player = state.current_player = 0
        state.over = False
        state.turn = 0
        state.phase = PLAY
        state.end_reason = None
        state.history = []
        state.actors = []
        state.variant = variant
        state.layout = layout
        state.hands = dealt.hands
        state.deck = dealt.deck[::-1]
        state.removed = dealt.removed
        state.piles = [[] for _ in range(NUM_COLOURS)]
        state.rows = [[[] for _ in range(NUM_COLOURS)] for _ in range(players)]
        state.tiles = dealt.tiles
        state.last = [[-1] * NUM_COLOURS for _ in range(players)]
        state.dirs = [[UNDECIDED] * NUM_COLOURS for _ in range(players)]
        state.layable = [_ALL_NUMBER_CARDS] * players
        state.pos = [[0] * NUM_COLOURS for _ in range(players)]
        state.started = [0] * players
        state.big = [-1] * players
        state.points = [0] * players
        state.wishes = [0] * players
        state.goal = 0
        state.pending = -1
        state.discarded_pile = -1
        state.known = [[] for _ in range(players)]
        return state

    # -- the protocol --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The decisions open to the current player, lays before discards."""
        phase = self.phase
        p = self.current_player
        if phase == PLAY:
            lays: list[Action] = []
            discards: list[Action] = []
            add_lay = lays.append
            add_discard = discards.append
            lay_action = _LAY
            discard_action = _DISCARD
            layable = self.layable[p]
            previous = -1
            for card in self.hands[p]:  # hands are kept sorted: duplicates are adjacent
                if card != previous:
                    previous = card
                    add_discard(discard_action[card])
                    if layable >> card & 1:
                        add_lay(lay_action[card])
            lays += discards
            return lays
        if phase == DRAW:
            out = [DRAW_DECK] if self.deck else []
            blocked = self.discarded_pile if self.variant.no_take_back else -1
            for colour, pile in enumerate(self.piles):
                if pile and colour != blocked:
                    out.append(_DRAW_PILE[colour])
            return out
        if phase in (CLOVER_MOVE, OVERFLOW):
            out = [_ADVANCE[c] for c, r in enumerate(self.pos[p]) if 0 < r < LAST_ROW]
            out.append(PASS_ACTION)
            return out
        if phase == FIGURE:
            return [BIG_ACTION, SMALL_ACTION]
        return []

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal."""
        self._check(action)

    def apply(self, action: Action) -> None:
        """Carry out one decision of the current player (see the module docstring).

        The common cases are checked inline; anything unusual goes through the full check,
        which raises the error naming the rule before anything changes.
        """
        p = self.current_player
        phase = self.phase
        kind = action.kind
        if phase == PLAY:
            card = action.card
            hand = self.hands[p]
            if action.target >= 0 or (
                kind is not ActionKind.DISCARD
                and not (kind is ActionKind.LAY and self.layable[p] >> card & 1)
            ):
                self._check(action)
            try:
                hand.remove(card)
            except ValueError:
                self._check(action)
                raise
            known = self.known[p]
            if known and card in known:
                known.remove(card)
            self.history.append(action)
            self.actors.append(p)
            if kind is ActionKind.LAY:
                self._lay(p, card)
            else:
                colour = CARD_COLOUR[card]
                self.piles[colour].append(card)
                self.discarded_pile = colour
                self.phase = DRAW
            return
        if phase == DRAW:
            source = action.target
            if kind is not ActionKind.DRAW or (
                not self.deck
                if source == DECK
                else (
                    not 0 <= source < NUM_COLOURS
                    or not self.piles[source]
                    or (self.variant.no_take_back and source == self.discarded_pile)
                )
            ):
                self._check(action)
            self.history.append(action)
            self.actors.append(p)
            self._draw(p, source)
            return
        self._check(action)
        self.history.append(action)
        self.actors.append(p)
        if phase == FIGURE:
            colour = self.pending
            if action.target:
                self.big[p] = colour
            self._step(p, colour)
        elif kind is ActionKind.ADVANCE:
            self._step(p, action.target)
        else:  # pass on a clover or overflow
            self.phase = DRAW

    def _check(self, action: Action) -> None:
        phase = self.phase
        kind = action.kind
        p = self.current_player
        if phase == PLAY:
            if kind is ActionKind.LAY or kind is ActionKind.DISCARD:
                card = action.card
                if not 0 <= card < NUMBER_CARDS or action.target >= 0:
                    raise IllegalActionError(
                        "B-1", key="not_board_card", params={"action": str(action)}
                    )
                if card not in self.hands[p]:
                    raise IllegalActionError(
                        "B-10", key="not_in_hand", params={"card": CARD_TEXT[card]}
                    )
                if kind is ActionKind.LAY:
                    colour = CARD_COLOUR[card]
                    end = self.last[p][colour]
                    direction = self.dirs[p][colour]
                    value = CARD_VALUE[card]
                    if direction == ASCENDING and value < end:
                        raise IllegalActionError(
                            "B-13",
                            key="row_ascending",
                            params={"colour": colour, "value": value, "end": end},
                        )
                    if direction == DESCENDING and value > end:
                        raise IllegalActionError(
                            "B-13",
                            key="row_descending",
                            params={"colour": colour, "value": value, "end": end},
                        )
                return
            raise self._wrong_phase(action, "B-10", "must_play")
        if phase == DRAW:
            if kind is not ActionKind.DRAW:
                raise self._wrong_phase(action, "B-15", "must_draw")
            source = action.target
            if source == DECK:
                if not self.deck:
                    raise IllegalActionError("B-15", key="deck_empty")
                return
            if not 0 <= source < NUM_COLOURS:
                raise IllegalActionError("B-15", key="no_point_pile")
            if not self.piles[source]:
                raise IllegalActionError("B-15", key="pile_empty", params={"colour": source})
            if self.variant.no_take_back and source == self.discarded_pile:
                raise IllegalActionError(
                    "B-15", key="no_take_back", params={"card": CARD_TEXT[self.piles[source][-1]]}
                )
            return
        if phase == FIGURE:
            if kind is not ActionKind.FIGURE or action.target not in (SMALL, BIG):
                raise self._wrong_phase(action, "B-11", "must_figure")
            return
        if phase in (CLOVER_MOVE, OVERFLOW):
            rule = "B-17" if phase == CLOVER_MOVE else "B-14"
            if kind is ActionKind.PASS:
                return
            if kind is not ActionKind.ADVANCE or not 0 <= action.target < NUM_COLOURS:
                raise self._wrong_phase(action, rule, "must_move_or_pass")
            row = self.pos[p][action.target]
            if row == 0:
                raise IllegalActionError(rule, key="no_figure", params={"colour": action.target})
            if row >= LAST_ROW:
                raise IllegalActionError(
                    rule, key="figure_at_end", params={"colour": action.target}
                )
            return
        if self.end_reason is EndReason.DECK:
            raise IllegalActionError("B-20", key="over_deck")
        if self.end_reason is EndReason.TRUNCATED:
            raise IllegalActionError("B-19", key="over_truncated")
        raise IllegalActionError("B-19", key="over_goal")

    def _wrong_phase(self, action: Action, rule: str, key: str) -> IllegalActionError:
        return IllegalActionError(rule, key=key, params={"action": str(action)})

    # -- effects -------------------------------------------------------------------------

    def _lay(self, p: int, card: int) -> None:
        colour = CARD_COLOUR[card]
        value = CARD_VALUE[card]
        self.rows[p][colour].append(card)
        end = self.last[p][colour]
        self.last[p][colour] = value
        if end < 0:  # B-11: the first card of a colour brings a figure onto the path
            self.layable[p] = self.layable[p] & ~_COLOUR_MASK[colour] | _lay_mask(
                colour, UNDECIDED, value
            )
            big_waiting = self.big[p] < 0
            smalls_waiting = SMALL_FIGURES - self.started[p] + (0 if big_waiting else 1)
            self.started[p] += 1
            if big_waiting and smalls_waiting > 0:
                self.phase = FIGURE
                self.pending = colour
                return
            if big_waiting:
                self.big[p] = colour
            self._step(p, colour)
            return
        direction = self.dirs[p][colour]
        if direction == UNDECIDED and value != end:  # B-13
            direction = ASCENDING if value > end else DESCENDING
            self.dirs[p][colour] = direction
        self.layable[p] = self.layable[p] & ~_COLOUR_MASK[colour] | _lay_mask(
            colour, direction, value
        )
        if self.pos[p][colour] >= LAST_ROW:  # B-14
            self.pending = colour
            self.phase = OVERFLOW if self._can_move(p) else DRAW
            return
        self._step(p, colour)

    def _can_move(self, p: int) -> bool:
        return any(0 < row < LAST_ROW for row in self.pos[p])

    def _step(self, p: int, colour: int) -> None:
        """Move ``p``'s figure on ``colour`` one stone forward and resolve the stone."""
        row = self.pos[p][colour] + 1
        self.pos[p][colour] = row
        if row == GOAL_ROW:
            self.goal += 1
            if self.goal >= GOAL_FIGURES:  # B-19: the tile is not resolved, no draw
                self._finish(EndReason.GOAL)
                return
        tile = self.tiles[colour][row]
        if tile:
            if tile == WISH:  # B-18
                self.wishes[p] += 1
                self.tiles[colour][row] = NO_TILE
            elif tile == CLOVER:  # B-17
                if self._can_move(p):
                    self.pending = colour
                    self.phase = CLOVER_MOVE
                    return
            else:  # B-16
                self.points[p] += tile
        self.phase = DRAW

    def _draw(self, p: int, source: int) -> None:
        if source == DECK:
            deck = self.deck
            insort(self.hands[p], deck.pop())
            if not deck:  # B-20
                self._finish(EndReason.DECK)
                return
        else:
            card = self.piles[source].pop()
            self.known[p].append(card)
            insort(self.hands[p], card)
        turn = self.turn = self.turn + 1
        if turn >= self.variant.turn_cap:
            self._finish(EndReason.TRUNCATED)
            return
        self.current_player = (p + 1) % self.num_players
        self.phase = PLAY
        self.discarded_pile = -1

    def _finish(self, reason: EndReason) -> None:
        self.over = True
        self.end_reason = reason
        self.phase = OVER
        self.current_player = -1

    # -- scores --------------------------------------------------------------------------

    def breakdown(self, p: int) -> dict[str, int]:
        """Score parts of seat ``p``: ``figures`` (B-21), ``tiles`` (B-22), ``wishes`` (B-23),
        plus ``wish_count``."""
        figures = 0
        big = self.big[p]
        for colour, row in enumerate(self.pos[p]):
            value = BOARD_ROW_VALUES[row]
            figures += 2 * value if colour == big else value
        return {
            "figures": figures,
            "tiles": self.points[p],
            "wishes": wish_points(BOARD_WISH_POINTS, self.wishes[p]),
            "wish_count": self.wishes[p],
        }

    # -- copies and views ----------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy (cheap: lists of ints)."""
        new = object.__new__(type(self))
        self._copy_common(new)
        new.layout = self.layout
        new.piles = [p[:] for p in self.piles]
        new.rows = [[r[:] for r in rows] for rows in self.rows]
        new.last = [x[:] for x in self.last]
        new.dirs = [x[:] for x in self.dirs]
        new.pos = [x[:] for x in self.pos]
        new.started = self.started[:]
        new.big = self.big[:]
        new.tiles = [t[:] for t in self.tiles]
        new.points = self.points[:]
        new.wishes = self.wishes[:]
        new.goal = self.goal
        new.pending = self.pending
        new.discarded_pile = self.discarded_pile
        new.layable = self.layable[:]
        return new

    def view(self, player: int | None) -> BoardView:
        """What ``player`` (or a spectator, ``None``) may see; see :class:`BoardView`."""
        from keltis.board.view import board_view

        return board_view(self, player)

    def direction(self, p: int, colour: int) -> int:
        """Direction of ``p``'s row of ``colour`` (UNDECIDED, ASCENDING, DESCENDING)."""
        return self.dirs[p][colour]

    def describe_row(self, p: int, colour: int) -> str:
        """e.g. ``G: 3 3 6 (ascending)``."""
        cards = " ".join(str(CARD_VALUE[c]) for c in self.rows[p][colour]) or "-"
        return f"{COLOUR_LETTERS[colour]}: {cards} ({direction_name(self.dirs[p][colour])})"


# -- set-up ------------------------------------------------------------------------------


def _numbers(data: Any, what: str) -> list[int]:
    return read_cards(data, what, numbers_only=True)


@dataclass
class BoardSetup:
    """An explicit set-up or position. Only ``hands`` is required; the rest defaults to the
    start of a game. Cards not placed anywhere are shuffled (with ``fill_seed``) into the draw
    pile, after setting 30 aside as removed in a 2-player deal (B-8: no rows or discard piles
    given) unless ``removed`` is given; with ``deck`` given, they become the removed cards.
    ``deck`` lists the draw pile top first.

    Beyond the start of a game it can describe any position: laid rows, figure positions, the
    big figure's path, discard piles, collected tiles and the player to move. Every one of
    the 110 cards must be somewhere exactly once.
    """

    hands: list[list[int]]
    deck: list[int] | None = None
    removed: list[int] | None = None
    tiles: list[list[int]] | None = None
    """tiles[colour][row] for rows 0-9; ``None``: shuffled onto the layout with fill_seed."""
    first_player: int = 0
    piles: list[list[int]] | None = None
    rows: list[list[list[int]]] | None = None
    positions: list[list[int]] | None = None
    """positions[player][colour]: the row of the figure on that path, 0 if none (``None``: every
    figure on its row's length; the JSON form defaults each path it leaves out the same way)."""
    big: list[int] | None = None
    points: list[int] | None = None
    wishes: list[int] | None = None
    known: list[list[int]] | None = None
    fill_seed: int = 0

    @classmethod
    def from_seed(cls, players: int, seed: int, layout: Layout = DEFAULT_LAYOUT) -> BoardSetup:
        """Shuffle tiles and cards with ``random.Random(seed)`` and deal (B-6-B-8)."""
        if not 2 <= players <= 4:
            raise SetupError(f"the board game is for 2-4 players, not {players}")
        rng = random.Random(seed)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        board = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
        for (colour, row), tile in zip(layout.places(), tiles, strict=True):
            board[colour][row] = tile
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        hands = [sorted(cards[p * HAND_SIZE : (p + 1) * HAND_SIZE]) for p in range(players)]
        rest = cards[players * HAND_SIZE :]
        removed = rest[:REMOVED_TWO_PLAYERS] if players == 2 else []
        deck = rest[len(removed) :]
        return cls(hands=hands, deck=deck, removed=removed, tiles=board)

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The record form (cards as notation, tiles as one string per path)."""
        out: JSON = {"hands": [[CARD_TEXT[c] for c in h] for h in self.hands]}
        if self.deck is not None:
            out["deck"] = [CARD_TEXT[c] for c in self.deck]
        if self.removed is not None:
            out["removed"] = [CARD_TEXT[c] for c in self.removed]
        if self.tiles is not None:
            out["tiles"] = {
                COLOUR_LETTERS[c]: "".join(TILE_LETTERS[t] for t in self.tiles[c][1:])
                for c in range(NUM_COLOURS)
            }
        if self.first_player:
            out["first_player"] = self.first_player
        if self.piles is not None:
            out["discards"] = {
                COLOUR_LETTERS[c]: [CARD_TEXT[x] for x in pile]
                for c, pile in enumerate(self.piles)
                if pile
            }
        if self.rows is not None:
            out["rows"] = [
                {
                    COLOUR_LETTERS[c]: [CARD_TEXT[x] for x in row]
                    for c, row in enumerate(rows)
                    if row
                }
                for rows in self.rows
            ]
        if self.positions is not None:
            out["positions"] = [
                {COLOUR_LETTERS[c]: r for c, r in enumerate(pos) if r} for pos in self.positions
            ]
        if self.big is not None:
            out["big"] = [COLOUR_LETTERS[b] if b >= 0 else None for b in self.big]
        if self.points is not None:
            out["tile_points"] = list(self.points)
        if self.wishes is not None:
            out["wishes"] = list(self.wishes)
        if self.known is not None:
            out["known"] = [[CARD_TEXT[c] for c in k] for k in self.known]
        if self.fill_seed:
            out["fill_seed"] = self.fill_seed
        return out

    @classmethod
    def from_json(cls, data: Any, players: int) -> BoardSetup:
        """Read the record form, with messages that say which entry is wrong."""
        if not isinstance(data, dict):
            raise SetupError("an explicit set-up must be an object")
        known_keys = {
            "hands", "deck", "removed", "tiles", "first_player", "discards", "rows",
            "positions", "big", "tile_points", "wishes", "known", "fill_seed",
        }  # fmt: skip
        refuse_unknown(data, known_keys, "set-up: unknown entries")
        if "hands" not in data:
            raise SetupError("set-up: 'hands' is required (one list of 8 cards per player)")
        hands = [
            _numbers(h, f"hand of player {i}")
            for i, h in enumerate(read_per_player(data["hands"], players, "hands"))
        ]
        setup = cls(hands=hands)
        if "deck" in data:
            setup.deck = _numbers(data["deck"], "deck")
        if "removed" in data:
            setup.removed = _numbers(data["removed"], "removed")
        if "tiles" in data:
            tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
            for colour, text in read_per_colour(data["tiles"], "tiles").items():
                if not isinstance(text, str) or len(text) != LAST_ROW:
                    raise SetupError(
                        f"tiles of path {COLOUR_LETTERS[colour]} must be 9 characters "
                        f"(rows 1-9) from {TILE_LETTERS!r}, e.g. '.W.C.1.2W'"
                    )
                for row, letter in enumerate(text.upper(), start=1):
                    if letter not in TILE_LETTERS:
                        raise SetupError(
                            f"tiles of path {COLOUR_LETTERS[colour]} row {row}: {letter!r} is "
                            f"not one of {TILE_LETTERS!r}"
                        )
                    tiles[colour][row] = TILE_LETTERS.index(letter)
            setup.tiles = tiles
        setup.first_player = read_int(data.get("first_player", 0), "first_player", 0, players - 1)
        if "discards" in data:
            piles: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
            for colour, cards in read_per_colour(data["discards"], "discards").items():
                piles[colour] = _numbers(cards, f"discard pile {COLOUR_LETTERS[colour]}")
            setup.piles = piles
        if "rows" in data:
            rows: list[list[list[int]]] = []
            for i, entry in enumerate(read_per_player(data["rows"], players, "rows")):
                mine: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
                for colour, cards in read_per_colour(entry, f"rows of player {i}").items():
                    mine[colour] = _numbers(cards, f"row {COLOUR_LETTERS[colour]} of player {i}")
                rows.append(mine)
            setup.rows = rows
        if "positions" in data:
            positions: list[list[int]] = []
            for i, entry in enumerate(read_per_player(data["positions"], players, "positions")):
                # a path left out: its figure stands on the row's length, as with no positions
                laid: list[list[int]] = setup.rows[i] if setup.rows else [[]] * NUM_COLOURS
                mine_pos = [min(len(row), LAST_ROW) for row in laid]
                for colour, row in read_per_colour(entry, f"positions of player {i}").items():
                    mine_pos[colour] = read_int(row, f"position {COLOUR_LETTERS[colour]}", 0, 9)
                positions.append(mine_pos)
            setup.positions = positions
        if "big" in data:
            bigs = []
            for i, letter in enumerate(read_per_player(data["big"], players, "big")):
                if letter is None:
                    bigs.append(-1)
                else:
                    index = (
                        COLOUR_LETTERS.find(str(letter).upper()) if len(str(letter)) == 1 else -1
                    )
                    if index < 0:
                        raise SetupError(f"big figure of player {i}: {letter!r} is not a path")
                    bigs.append(index)
            setup.big = bigs
        if "tile_points" in data:
            setup.points = [
                read_int(x, "tile_points", 0, 10_000)
                for x in read_per_player(data["tile_points"], players, "tile_points")
            ]
        if "wishes" in data:
            setup.wishes = [
                read_int(x, "wishes", 0, 9)
                for x in read_per_player(data["wishes"], players, "wishes")
            ]
        if "known" in data:
            setup.known = [
                _numbers(k, f"known cards of player {i}")
                for i, k in enumerate(read_per_player(data["known"], players, "known"))
            ]
        if "fill_seed" in data:
            setup.fill_seed = read_int(data["fill_seed"], "fill_seed", 0, 2**63)
        return setup

    # -- building the state --------------------------------------------------------------

    def build(self, players: int, variant: BoardVariant, layout: Layout) -> BoardState:
        """The state this set-up describes, after checking it is consistent."""
        if not 2 <= players <= 4:
            raise SetupError(f"the board game is for 2-4 players, not {players}")
        if len(self.hands) != players:
            raise SetupError(f"set-up has {len(self.hands)} hands for {players} players")
        for p, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise SetupError(f"player {p} holds {len(hand)} cards; a hand has 8 (B-7)")
        rng = random.Random(self.fill_seed)
        empty_rows: list[list[list[int]]] = [
            [[] for _ in range(NUM_COLOURS)] for _ in range(players)
        ]
        rows = self.rows if self.rows is not None else empty_rows
        piles = self.piles if self.piles is not None else [[] for _ in range(NUM_COLOURS)]
        placed = Counter(c for h in self.hands for c in h)
        placed.update(c for pile in piles for c in pile)
        placed.update(c for mine in rows for row in mine for c in row)
        if self.deck is not None:
            placed.update(self.deck)
        if self.removed is not None:
            placed.update(self.removed)
        full = Counter(FULL_DECK)
        extra = placed - full
        if extra:
            raise SetupError(
                "set-up uses cards more often than the 2 copies that exist (B-1): "
                + ", ".join(f"{CARD_TEXT[c]} x{n + full[c]}" for c, n in sorted(extra.items()))
            )
        rest = sorted((full - placed).elements())
        rng.shuffle(rest)
        removed = self.removed
        deck_top_first = self.deck
        if deck_top_first is None:
            if removed is None:
                dealing = self.rows is None and self.piles is None
                count = REMOVED_TWO_PLAYERS if players == 2 and dealing else 0
                removed, rest = rest[:count], rest[count:]
            deck_top_first = rest
        elif removed is None:
            removed = rest
        elif rest:
            raise SetupError(
                "set-up leaves cards nowhere (every card must be in a hand, the deck, the "
                "removed cards, a discard pile or a row): "
                + ", ".join(CARD_TEXT[c] for c in sorted(rest))
            )

        if not deck_top_first:
            raise SetupError(
                "the draw pile must hold at least one card (B-20 ends the game "
                "when its last card is drawn)"
            )
        tiles = self.tiles
        if tiles is None:
            tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
            shuffled = list(ALL_TILES)
            rng.shuffle(shuffled)
            for (colour, row), tile in zip(layout.places(), shuffled, strict=True):
                tiles[colour][row] = tile
        places = set(layout.places())
        for colour in range(NUM_COLOURS):
            if len(tiles[colour]) != LAST_ROW + 1 or tiles[colour][0] != NO_TILE:
                raise SetupError("tiles must list rows 0-9 per path with no tile on row 0")
            for row in range(1, LAST_ROW + 1):
                if tiles[colour][row] != NO_TILE and (colour, row) not in places:
                    raise SetupError(
                        f"a tile lies on {COLOUR_NAMES[colour]} row {row}, which is not a dark "
                        f"stone or end stone of layout {layout.name!r} (B-4)"
                    )

        state = object.__new__(BoardState)
        state.num_players = players
        state.first_player = self.first_player
        state.current_player = self.first_player
        state.over = False
        state.turn = 0
        state.phase = PLAY
        state.end_reason = None
        state.history = []
        state.actors = []
        state.variant = variant
        state.layout = layout
        state.hands = [sorted(h) for h in self.hands]
        state.deck = list(reversed(deck_top_first))
        state.removed = list(removed)
        state.piles = [list(p) for p in piles]
        state.rows = [[list(r) for r in mine] for mine in rows]
        state.tiles = [list(t) for t in tiles]
        state.last = [[-1] * NUM_COLOURS for _ in range(players)]
        state.dirs = [[UNDECIDED] * NUM_COLOURS for _ in range(players)]
        for p in range(players):
            for colour, laid in enumerate(state.rows[p]):
                direction = UNDECIDED
                for i, card in enumerate(laid):
                    if CARD_COLOUR[card] != colour:
                        raise SetupError(
                            f"player {p}'s {COLOUR_NAMES[colour]} row holds {CARD_TEXT[card]}"
                        )
                    if i:
                        before = CARD_VALUE[laid[i - 1]]
                        value = CARD_VALUE[card]
                        if (direction == ASCENDING and value < before) or (
                            direction == DESCENDING and value > before
                        ):
                            raise SetupError(
                                f"player {p}'s {COLOUR_NAMES[colour]} row "
                                f"{' '.join(CARD_TEXT[c] for c in laid)} breaks B-13"
                            )
                        if direction == UNDECIDED and value != before:
                            direction = ASCENDING if value > before else DESCENDING
                state.dirs[p][colour] = direction
                state.last[p][colour] = CARD_VALUE[laid[-1]] if laid else -1
        state.layable = [layable_mask(state.dirs[p], state.last[p]) for p in range(players)]
        if self.positions is not None:
            state.pos = [list(x) for x in self.positions]
        else:
            state.pos = [[min(len(r), LAST_ROW) for r in mine] for mine in state.rows]
        for p in range(players):
            for colour in range(NUM_COLOURS):
                if (state.pos[p][colour] > 0) != bool(state.rows[p][colour]):
                    raise SetupError(
                        f"player {p}: a figure stands on the {COLOUR_NAMES[colour]} path "
                        "exactly when that row has cards (B-11)"
                    )
                cards_laid = len(state.rows[p][colour])
                if state.pos[p][colour] < min(cards_laid, LAST_ROW):
                    raise SetupError(
                        f"player {p}'s {COLOUR_NAMES[colour]} figure stands on row "
                        f"{state.pos[p][colour]}, but its row holds {cards_laid} cards and each "
                        "card moves it one stone until the end stone (B-12, B-14)"
                    )
        state.started = [sum(1 for r in x if r) for x in state.pos]
        state.big = list(self.big) if self.big is not None else [-1] * players
        for p in range(players):
            if state.big[p] >= 0 and not state.pos[p][state.big[p]]:
                raise SetupError(f"player {p}'s big figure stands on a path with no cards")
            if state.started[p] == FIGURES and state.big[p] < 0:
                raise SetupError(f"player {p} has figures on all 5 paths: say which is big")
        state.points = list(self.points) if self.points is not None else [0] * players
        state.wishes = list(self.wishes) if self.wishes is not None else [0] * players
        in_play = Counter(t for path in tiles for t in path if t != NO_TILE)
        in_play[WISH] += sum(state.wishes)
        extra_tiles = in_play - Counter(ALL_TILES)
        if extra_tiles:
            tile, count = min(extra_tiles.items())
            raise SetupError(
                f"set-up uses {count + ALL_TILES.count(tile)} tiles {TILE_LETTERS[tile]!r} "
                f"({TILE_NAMES[tile]}), but only {ALL_TILES.count(tile)} exist (B-3)"
            )
        state.goal = sum(1 for x in state.pos for r in x if r >= GOAL_ROW)
        if state.goal >= GOAL_FIGURES:
            raise SetupError("set-up has 5 figures in the goal area: that game is over (B-19)")
        state.pending = -1
        state.discarded_pile = -1
        state.known = [list(k) for k in self.known] if self.known else [[] for _ in range(players)]
        for p in range(players):
            missing = Counter(state.known[p]) - Counter(state.hands[p])
            if missing:
                raise SetupError(f"player {p}'s known cards are not all in the hand")
        return state
